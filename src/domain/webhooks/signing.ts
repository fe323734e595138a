// Signatures on webhook deliveries.
// - SurveyMonkey's: `Sm-Apikey: <client_id>` and `Sm-Signature: base64(HMAC-SHA1(key, raw body))`
//   with key `<client_id>&<client_secret>` of the app that created the webhook (reference §13.3).
//   The client secret is derived from the server key (never stored), so it is recomputed here.
// - Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (unix seconds) and
//   `webhook-signature: v1,<base64(HMAC-SHA256(secret, "<id>.<timestamp>.<body>"))>`. The secret is
//   32 bytes derived per webhook from the server key; its owner reads it as `whsec_<base64>` from
//   GET /v3/webhooks/{id}/signing_secret.
import { createHmac } from 'node:crypto';
import type { Deps } from '../../context.js';

export function smSignature(body: string, clientId: string, clientSecret: string): string {
  return createHmac('sha1', `${clientId}&${clientSecret}`).update(body, 'utf8').digest('base64');
}

function signingKey(deps: Deps, webhookId: string): Buffer {
  return Buffer.from(deps.secrets.sign('webhook-signing', webhookId), 'base64url');
}

/** The webhook's Standard Webhooks secret in its usual text form. */
export function standardSecret(deps: Deps, webhookId: string): string {
  return `whsec_${signingKey(deps, webhookId).toString('base64')}`;
}

export function standardSignature(
  deps: Deps,
  webhookId: string,
  messageId: string,
  timestamp: number,
  body: string,
): string {
  const mac = createHmac('sha256', signingKey(deps, webhookId))
    .update(`${messageId}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}
