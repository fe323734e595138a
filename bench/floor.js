// The floor: a bare node:http server that answers every request with fixed bytes (the status,
// headers and body the real service sent for the same request). Nothing can be faster in Node.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
// { "/path": {status, headers, body} }, in a file (large bodies do not fit in the environment).
const fixtures = JSON.parse(readFileSync(process.env.FLOOR_FIXTURES_FILE, 'utf8'));
const prepared = Object.fromEntries(
  Object.entries(fixtures).map(([path, f]) => [path, { ...f, body: Buffer.from(f.body, 'base64') }]),
);
createServer((req, res) => {
  const f = prepared[req.url.split('?')[0]] ?? prepared['*'];
  if (req.method === 'POST') req.resume();
  res.writeHead(f.status, { ...f.headers, 'content-length': f.body.length });
  res.end(f.body);
}).listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
