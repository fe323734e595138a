// Outbound HTTP to webhook targets. Every request resolves the host itself and refuses any
// special-purpose address (loopback, private, link-local, shared, benchmarking, documentation,
// multicast, reserved, and IPv6 forms that embed one) unless the operator allows them
// (WEBHOOK_ALLOW_PRIVATE_TARGETS): the check runs in the socket's own DNS lookup, so the addresses
// checked are the addresses connected to (no window for DNS rebinding between a check and the
// connection).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges that are not ordinary public unicast: the IANA IPv4 Special-Purpose Address Registry
 * (RFC 6890 and updates), multicast (224/4) and the reserved 240/4 with the broadcast address.
 */
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112 direct delegation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

const blockedV4 = new BlockList();
for (const [net, bits] of BLOCKED_V4) blockedV4.addSubnet(net, bits, 'ipv4');

/**
 * IPv6 targets must be global unicast (2000::/3) or an IPv4 address in IPv4-mapped (::ffff:0:0/96)
 * or NAT64 (64:ff9b::/96) form; everything else (::, ::1, IPv4-compatible, 64:ff9b:1::/48,
 * discard 100::/64, ULA, link-local, site-local, multicast, 5f00::/16 ...) lies outside these.
 */
const allowedV6 = new BlockList();
allowedV6.addSubnet('2000::', 3, 'ipv6');
allowedV6.addSubnet('::ffff:0:0', 96, 'ipv6');
allowedV6.addSubnet('64:ff9b::', 96, 'ipv6');

/** Special-purpose ranges inside those, and the embeddings of every blocked IPv4 range. */
const blockedV6 = new BlockList();
for (const [net, bits] of [
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID, ...)
  ['2001:db8::', 32], // documentation
  ['2620:4f:8000::', 48], // AS112 direct delegation
  ['3fff::', 20], // documentation
] as const)
  blockedV6.addSubnet(net, bits, 'ipv6');
for (const [net, bits] of BLOCKED_V4) {
  const [a, b, c, d] = net.split('.').map(Number);
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  blockedV6.addSubnet(`::ffff:${net}`, 96 + bits, 'ipv6');
  blockedV6.addSubnet(`64:ff9b::${net}`, 96 + bits, 'ipv6');
  // 6to4 carries the IPv4 address in bits 16-47: 2002:AABB:CCDD::/48.
  blockedV6.addSubnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + bits, 'ipv6');
}

/** True when a webhook may not be sent to the address: any special-purpose or embedded one. */
export function isBlockedAddress(address: string): boolean {
  const plain = address.replace(/%.*$/, ''); // a zone id names an interface: link-local anyway
  const family = isIP(plain);
  if (family === 4) return blockedV4.check(plain, 'ipv4');
  if (family === 6) return !allowedV6.check(plain, 'ipv6') || blockedV6.check(plain, 'ipv6');
  return true;
}

class TargetRefusedError extends Error {
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
    dnsLookup(hostname, { ...options, all: true as const }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const usable = addresses;
      // Every address is checked: a name with any special-purpose address is refused as a whole.
      if (usable.length === 0 || (!req.allowPrivate && usable.some((a) => isBlockedAddress(a.address))))
        return callback(
          new TargetRefusedError(`${hostname} resolves to an address webhooks may not be sent to.`),
          '',
          4,
        );
      if ('all' in options && options.all) return callback(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
  // A literal IP address skips DNS lookup in Node, so it is checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !req.allowPrivate && isBlockedAddress(host))
    return Promise.reject(new TargetRefusedError(`${host} is an address webhooks may not be sent to.`));
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
