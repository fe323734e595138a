// Outbound HTTP to webhook targets. Every request resolves the host itself and refuses loopback,
// private and link-local addresses unless the operator allows them (WEBHOOK_ALLOW_PRIVATE_TARGETS):
// the check runs in the socket's own DNS lookup, so the address checked is the address connected to
// (no window for DNS rebinding between a check and the connection).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
blocked.addSubnet('127.0.0.0', 8, 'ipv4');
blocked.addSubnet('10.0.0.0', 8, 'ipv4');
blocked.addSubnet('172.16.0.0', 12, 'ipv4');
blocked.addSubnet('192.168.0.0', 16, 'ipv4');
blocked.addSubnet('169.254.0.0', 16, 'ipv4');
blocked.addSubnet('0.0.0.0', 8, 'ipv4');
blocked.addAddress('::1', 'ipv6');
blocked.addAddress('::', 'ipv6');
blocked.addSubnet('fc00::', 7, 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');

/** True when an address is loopback, private (RFC 1918 / ULA) or link-local. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    // IPv4-mapped IPv6 (::ffff:10.0.0.1) is checked as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';
}

export interface TargetResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TargetRequest {
  method: 'HEAD' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** Checks a URL's form: http(s), a host, no credentials. Returns a reason when it is not acceptable. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'subscription_url must be an absolute URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'subscription_url must be http or https.';
  if (!url.hostname) return 'subscription_url must name a host.';
  if (url.username || url.password) return 'subscription_url may not carry credentials.';
  return null;
}

/** Sends one request; resolves with the response (any status) or rejects on network failure. */
export function sendToTarget(req: TargetRequest): Promise<TargetResponse> {
  const url = new URL(req.url);
  const lookup = (
    hostname: string,
    options: object,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      const usable = req.allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0)
        return callback(
          new TargetRefusedError(
            `${hostname} resolves to a private, loopback or link-local address; such targets are refused.`,
          ),
          '',
          4,
        );
      if ((options as { all?: boolean }).all) return callback(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
  // A literal IP address skips DNS lookup in Node, so it is checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !req.allowPrivate && isPrivateAddress(host))
    return Promise.reject(
      new TargetRefusedError(
        `${host} is a private, loopback or link-local address; such targets are refused.`,
      ),
    );
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'user-agent': 'SurveyService-Webhooks/1', ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const r = send(url, { method: req.method, headers, lookup, timeout: req.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        // Keep at most 4 KiB of the answer for the delivery log.
        if (size < 4096) chunks.push(c);
        size += c.length;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8').slice(0, 4096),
        }),
      );
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`no answer within ${req.timeoutMs} ms`)));
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}
