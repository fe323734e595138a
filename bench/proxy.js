// The test suite's round-robin proxy (test/helpers/proxy.ts) as a process, for the scale_out bench:
// UPSTREAMS="http://127.0.0.1:1,http://127.0.0.1:2" PORT=3 node --import tsx bench/proxy.js
import { startProxy } from '../test/helpers/proxy.ts';

const proxy = await startProxy(process.env.UPSTREAMS.split(','), { port: Number(process.env.PORT) });
process.stdout.write(`listening on ${proxy.url}\n`);
process.once('SIGTERM', () => proxy.close().then(() => process.exit(0)));
