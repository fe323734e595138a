// Preloaded (NODE_OPTIONS=--expose-gc --import=…) into a server process by the memory test only:
// on SIGUSR2 it collects garbage and writes the process's memory figures to HEAP_PROBE_FILE.
import { writeFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  writeFileSync(process.env.HEAP_PROBE_FILE, JSON.stringify({ heapUsed, rss, external, arrayBuffers }));
});
