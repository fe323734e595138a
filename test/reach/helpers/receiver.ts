// A real HTTP webhook receiver for tests: answers HEAD with 200, records every POST with its raw
// body, and can be told to fail or be taken down and brought back on the same port.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  json: any;
}

export class Receiver {
  received: Received[] = [];
  heads = 0;
  /** Status answered to POSTs (and HEADs when headStatus is unset). */
  status = 200;
  headStatus = 200;
  private server: Server | null = null;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  posts(): Received[] {
    return this.received.filter((r) => r.method === 'POST');
  }

  async start(port = 0): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (req.method === 'HEAD') {
          this.heads++;
          res.writeHead(this.headStatus).end();
          return;
        }
        let json: any = null;
        try {
          json = JSON.parse(raw);
        } catch {}
        this.received.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          raw,
          json,
        });
        res.writeHead(this.status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** Takes the receiver down: the port refuses connections until start(this.port) again. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
