// Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser that
// has signed in to an account carries a signed token naming the account, a random nonce and when
// it was issued. Sign-in from such a device is throttled on the device's own count, not by the
// account's lockout, so guessing from elsewhere cannot lock the owner out of their own browser;
// a device token that keeps failing is itself refused (until it would have expired) and its
// browser is then an unknown device like any other. Unknown devices share the account's count.
// One cookie holds the tokens of the last few accounts signed in from the browser.
import type { Deps } from '../../context.js';
import { randomToken } from '../../platform/secrets.js';

/** How long a device token is honoured from its issue (and the cookie's lifetime). */
export const DEVICE_MS = 180 * 86_400_000;
/** Accounts remembered per browser. */
const MAX_TOKENS = 5;
const PURPOSE = 'sign-in-device';
const TOKEN = /^(\d{1,20})\.([A-Za-z0-9_-]{24})\.([0-9a-z]{1,12}\.[A-Za-z0-9_-]{43})$/;

export interface Device {
  userId: string;
  nonce: string;
}

function parse(token: string): { device: Device; proof: string } | null {
  const m = TOKEN.exec(token);
  return m ? { device: { userId: m[1], nonce: m[2] }, proof: m[3] } : null;
}

/** The valid device token for `userId` in a device cookie's value, or null. */
export function knownDevice(deps: Deps, cookie: string | undefined, userId: string): Device | null {
  for (const token of (cookie ?? '').split('~').slice(0, MAX_TOKENS)) {
    const t = parse(token);
    if (!t || t.device.userId !== userId) continue;
    const now = deps.clock.now().getTime();
    if (deps.secrets.verifyAt(PURPOSE, `${userId}:${t.device.nonce}`, t.proof, now, DEVICE_MS))
      return t.device;
  }
  return null;
}

/** The device cookie after `userId` signed in: a new token for the account, first, then the
 * other accounts' tokens the cookie held. */
export function issueDevice(deps: Deps, cookie: string | undefined, userId: string): string {
  const nonce = randomToken(18);
  const proof = deps.secrets.signAt(PURPOSE, `${userId}:${nonce}`, deps.clock.now().getTime());
  const others = (cookie ?? '')
    .split('~')
    .filter((t) => {
      const p = parse(t);
      return p !== null && p.device.userId !== userId;
    })
    .slice(0, MAX_TOKENS - 1);
  return [`${userId}.${nonce}.${proof}`, ...others].join('~');
}

/** The throttle key of a device token. */
export const deviceKey = (d: Device) => `device:${d.userId}:${d.nonce}`;
