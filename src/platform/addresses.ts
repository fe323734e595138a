// The key a client address is counted under by every throttle and rate limit. An IPv4 address is
// its own key; an IPv6 address is keyed by its /64, the block one subscriber or one host is
// routinely given (RFC 6177), so walking through the addresses of one's own prefix does not
// buy fresh allowances. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address.
import { isIP } from 'node:net';

/** The throttle key of a client address (request.ip): IPv4 as is, IPv6 as its /64 prefix. */
export function addressKey(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family !== 6) return family === 4 ? bare : ip;
  const groups = hextets(bare.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (net.isIP said so). */
function hextets(ip: string): number[] {
  let text = ip;
  // A trailing dotted quad is the last two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === null ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => Number.parseInt(g, 16));
}
