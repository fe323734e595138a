// One attempt at one webhook delivery: sign, POST, record the attempt, and schedule the next one
// (exponential backoff) or give up once the retry window has passed.
import { performance } from 'node:perf_hooks';
import type { Deps } from '../context.js';
import { clientSecret, isDisabled } from '../domain/accounts/apps.js';
import { smSignature, standardSignature } from '../domain/webhooks/signing.js';
import { errorMessage } from '../platform/errors.js';
import { sendToTarget } from '../platform/http-target.js';
import { backoffSeconds } from './claim.js';
import { noteAttempt } from './failures.js';

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'gone';

export async function deliverOne(deps: Deps, deliveryId: string, token: string, now: () => Date) {
  const k = deps.db.kysely;
  const delivery = await k
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  if (!delivery) return 'gone' as const;
  const hook = await k
    .selectFrom('webhooks')
    .selectAll()
    .where('id', '=', delivery.webhook_id)
    .executeTakeFirst();
  // A webhook made on the /integrations page has no app (app_id ''): no grant to check, and it is
  // signed with its Standard Webhooks secret only.
  const byPage = hook?.app_id === '';
  const app =
    hook && !byPage
      ? await k
          .selectFrom('apps')
          .select(['client_id', 'secret_version', 'status', 'draft_expires_at'])
          .where('id', '=', hook.app_id)
          .executeTakeFirst()
      : undefined;
  if (!hook || (!app && !byPage)) return 'gone' as const;
  // A webhook speaks for its app's grant: nothing is sent while the app is disabled or once the
  // account no longer holds an active token for it (revoking deletes the webhook as well).
  const granted = app
    ? await k
        .selectFrom('tokens')
        .select('id')
        .where('app_id', '=', hook.app_id)
        .where('user_id', '=', hook.owner_id)
        .where('status', '=', 'active')
        .executeTakeFirst()
    : { id: '' };
  if (app && (!granted || isDisabled(app, now()))) {
    const reason = granted ? 'The app is disabled.' : "The app's access grant has ended.";
    await k
      .updateTable('webhook_deliveries')
      .set({
        status: 'failed',
        claimed_until: null,
        claim_token: null,
        last_error: reason,
      })
      .where('id', '=', delivery.id)
      .where('claim_token', '=', token)
      .execute();
    noteAttempt(deps, 'deliveries', delivery.id, delivery.attempts, 'failed', reason);
    return 'failed' as const;
  }

  const started = now();
  const timestamp = Math.floor(started.getTime() / 1000);
  const body = delivery.body;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(app && {
      'sm-apikey': app.client_id,
      'sm-signature': smSignature(body, app.client_id, clientSecret(deps, app)),
    }),
    'webhook-id': delivery.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(deps, hook.id, delivery.id, timestamp, body),
  };
  if (hook.authorization) headers.authorization = hook.authorization;

  const t0 = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await sendToTarget({
      method: 'POST',
      url: hook.subscription_url,
      headers,
      body,
      timeoutMs: deps.config.outbox.httpTimeoutMs,
      allowPrivate: deps.config.webhookAllowPrivateTargets,
    });
    statusCode = res.status;
    if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
  } catch (err) {
    error = errorMessage(err) || String(err);
  }
  const duration = Math.round(performance.now() - t0);
  const attempt = delivery.attempts + 1;
  const finished = now();
  const ok = error === null;
  const outcome: AttemptOutcome = ok
    ? 'delivered'
    : finished.toISOString() >= delivery.retry_until
      ? 'failed'
      : 'retry';
  const next = ok
    ? delivery.next_attempt_at
    : new Date(finished.getTime() + backoffSeconds(deps, attempt) * 1000).toISOString();
  const attemptId = await deps.ids.one();
  await k.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        id: attemptId,
        owner_id: delivery.owner_id,
        delivery_id: delivery.id,
        attempt,
        started_at: started.toISOString(),
        duration_ms: duration,
        status_code: statusCode,
        error,
        outcome,
      })
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: outcome === 'retry' ? 'pending' : outcome,
        attempts: attempt,
        next_attempt_at: next,
        claimed_until: null,
        claim_token: null,
        last_status_code: statusCode,
        last_error: error,
        delivered_at: ok ? finished.toISOString() : null,
        first_attempt_at: delivery.first_attempt_at ?? started.toISOString(),
      })
      .where('id', '=', delivery.id)
      .where('claim_token', '=', token)
      .execute();
  });
  noteAttempt(deps, 'deliveries', delivery.id, attempt, outcome, error);
  return outcome;
}
