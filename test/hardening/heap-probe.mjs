// Preloaded (NODE_OPTIONS=--expose-gc --import=…) into a server process by the memory test only:
// on SIGUSR2 it collects garbage and writes the process's memory figures to HEAP_PROBE_FILE.
import { renameSync, writeFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  // Written aside, then renamed: the test reads the file as soon as it exists, so it must appear whole.
  const file = process.env.HEAP_PROBE_FILE;
  writeFileSync(`${file}.tmp`, JSON.stringify({ heapUsed, rss, external, arrayBuffers }));
  renameSync(`${file}.tmp`, file);
});
