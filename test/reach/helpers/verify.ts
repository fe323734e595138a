// Signature checks written the way a receiver writes them, from the documented recipes only.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Sm-Signature: base64(HMAC-SHA1(key "<client_id>&<client_secret>", raw body bytes)). */
export function verifySmSignature(
  raw: string,
  clientId: string,
  clientSecret: string,
  header: string,
): boolean {
  const expected = Buffer.from(
    createHmac('sha1', `${clientId}&${clientSecret}`).update(Buffer.from(raw, 'utf8')).digest('base64'),
  );
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Standard Webhooks: v1,base64(HMAC-SHA256(base64-decoded whsec_ secret, "<id>.<timestamp>.<body>")). */
export function verifyStandardSignature(
  raw: string,
  secret: string,
  headers: NodeJS.Dict<string | string[]>,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${raw}`;
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  return String(headers['webhook-signature'])
    .split(' ')
    .some((s) => s === expected);
}
