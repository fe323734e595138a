// Webhooks: subscriptions of an account to events (reference §13), their delivery log and
// redelivery. A webhook belongs to the account and the app whose token created it: other apps of
// the same account neither see nor change it (404/1020), and it ends with that app's grant
// (`accounts/grant-end.ts`). The account's owner on the /integrations page is a caller with no
// app: they see and change all of the account's webhooks, and the ones they make have no app
// (app_id '') and are signed with their Standard Webhooks secret only. No HTTP here except the HEAD check of a
// subscription URL.
import type { Deps } from '../../context.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/tables/reach.js';
import { ApiError } from '../../platform/errors.js';
import { sendToTarget, urlProblem } from '../../platform/http-target.js';
import { countAndPage } from '../core/owned.js';
import { checkObjectIds } from './object-ids.js';
import { checkSubscription, type WebhookObjectType } from './rules.js';

export type Webhook = WebhooksTable;
export type Delivery = WebhookDeliveriesTable;
export type Attempt = WebhookAttemptsTable;

export interface WebhookInput {
  name: string;
  event_type: string;
  object_type?: string | null;
  object_ids?: string[] | null;
  subscription_url: string;
  authorization?: string | null;
  /** 'surveymonkey' (default) or 'slack' */
  format?: string;
  /** Paused: no deliveries are made or sent until resumed (an update only; see setPaused). */
  paused?: boolean;
}

export const WEBHOOK_FORMATS = ['surveymonkey', 'slack'] as const;

export interface Caller {
  userId: string;
  /** null: the account's owner on the pages (every webhook of the account, whichever app made it) */
  appId: string | null;
}

/**
 * The subscription URL must answer HEAD with 200 (reference §13.2) at an address webhooks may be
 * sent to. Every failure gets the same answer: saying why (a refused port, no route, a timeout, a
 * special-purpose address, another status) would let callers map networks through the server.
 */
async function checkSubscriptionUrl(
  deps: Deps,
  url: string,
  authorization: string | null,
  format = 'surveymonkey',
): Promise<void> {
  const problem = urlProblem(url);
  if (problem) throw new ApiError(1002, problem);
  // A Slack-style incoming webhook takes POSTs only; where it is sent is still checked on every
  // delivery (sendToTarget), as for every webhook.
  if (format === 'slack') return;
  const status = await sendToTarget({
    method: 'HEAD',
    url,
    headers: authorization ? { authorization } : {},
    timeoutMs: deps.config.outbox.httpTimeoutMs,
    allowPrivate: deps.config.webhookAllowPrivateTargets,
  }).then(
    (res) => res.status,
    () => null,
  );
  if (status !== 200)
    throw new ApiError(1000, 'subscription_url is not reachable: it must answer a HEAD request with 200.');
}

async function validate(
  deps: Deps,
  caller: Caller,
  input: WebhookInput,
): Promise<{ objectType: WebhookObjectType; objectIds: string[] }> {
  if (!input.name.trim()) throw new ApiError(1002, "'name' may not be empty.");
  if (input.format !== undefined && !(WEBHOOK_FORMATS as readonly string[]).includes(input.format))
    throw new ApiError(1002, "'format' must be surveymonkey or slack.");
  const checked = checkSubscription(input);
  if ('problem' in checked) throw new ApiError(1002, checked.problem);
  if (checked.objectType === 'app') {
    if (caller.appId === null) throw new ApiError(1002, 'App events are for webhooks made by an app.');
    // An app hears about its own installs only.
    if (checked.objectIds.some((id) => id !== caller.appId))
      throw new ApiError(1002, 'object_ids of an app webhook may only name the calling app.');
  } else if (checked.objectIds.length > 0) {
    await checkObjectIds(deps, caller.userId, checked.objectType, checked.objectIds);
  }
  return checked;
}

async function assertUrlFree(deps: Deps, ownerId: string, url: string, exceptId?: string): Promise<void> {
  let q = deps.db.kysely
    .selectFrom('webhooks')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('subscription_url', '=', url);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst())
    throw new ApiError(1026, 'This account already has a webhook with this subscription_url.');
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

export async function createWebhook(deps: Deps, caller: Caller, input: WebhookInput): Promise<Webhook> {
  const { objectType, objectIds } = await validate(deps, caller, input);
  await assertUrlFree(deps, caller.userId, input.subscription_url);
  await checkSubscriptionUrl(deps, input.subscription_url, input.authorization ?? null, input.format);
  const now = deps.clock.now().toISOString();
  const row: Webhook = {
    id: await deps.ids.one(),
    owner_id: caller.userId,
    app_id: caller.appId ?? '',
    name: input.name,
    event_type: input.event_type,
    object_type: objectType,
    object_ids: JSON.stringify(objectIds),
    subscription_url: input.subscription_url,
    authorization: input.authorization ?? null,
    created_at: now,
    updated_at: now,
    paused_at: null,
    format: input.format ?? 'surveymonkey',
  };
  try {
    await deps.db.kysely.insertInto('webhooks').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(1026, 'This account already has a webhook with this subscription_url.');
    throw err;
  }
  return row;
}

/** The caller's webhooks: the account's, created by the calling app (all of them on the pages). */
function callersWebhooks(deps: Deps, caller: Caller) {
  const q = deps.db.kysely.selectFrom('webhooks').where('owner_id', '=', caller.userId);
  return caller.appId === null ? q : q.where('app_id', '=', caller.appId);
}

export async function getWebhook(deps: Deps, caller: Caller, id: string): Promise<Webhook> {
  const row = await callersWebhooks(deps, caller).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError(1020, 'Webhook not found.');
  return row;
}

export function listWebhooks(
  deps: Deps,
  caller: Caller,
  page: { offset: number; perPage: number },
): Promise<{ total: number; rows: Webhook[] }> {
  return countAndPage(callersWebhooks(deps, caller), { offset: page.offset, limit: page.perPage }, (q) =>
    q.selectAll().orderBy('created_at').orderBy('id'),
  );
}

/** PATCH (partial) or PUT (replace: the caller passes a full input). */
export async function updateWebhook(
  deps: Deps,
  caller: Caller,
  id: string,
  changes: Partial<WebhookInput>,
  replace: boolean,
): Promise<Webhook> {
  const current = await getWebhook(deps, caller, id);
  const merged: WebhookInput = replace
    ? (changes as WebhookInput)
    : {
        name: changes.name ?? current.name,
        event_type: changes.event_type ?? current.event_type,
        object_type: changes.object_type !== undefined ? changes.object_type : current.object_type,
        object_ids:
          changes.object_ids !== undefined
            ? changes.object_ids
            : (JSON.parse(current.object_ids) as string[]),
        subscription_url: changes.subscription_url ?? current.subscription_url,
        authorization: changes.authorization !== undefined ? changes.authorization : current.authorization,
        format: changes.format ?? current.format,
      };
  const format = merged.format ?? 'surveymonkey';
  // Changing the event type alone carries over an object_type that may no longer fit: survey_created
  // and app events decide their own object type.
  if (!replace && changes.event_type && changes.object_type === undefined) {
    if (['survey_created', 'app_installed', 'app_uninstalled'].includes(changes.event_type))
      merged.object_type = null;
    if (changes.event_type === 'survey_created' && changes.object_ids === undefined) merged.object_ids = [];
  }
  const { objectType, objectIds } = await validate(deps, caller, merged);
  if (merged.subscription_url !== current.subscription_url)
    await assertUrlFree(deps, caller.userId, merged.subscription_url, id);
  // A new address, or one that now takes the SurveyMonkey format, must answer HEAD as at creation.
  if (merged.subscription_url !== current.subscription_url || format !== current.format)
    await checkSubscriptionUrl(deps, merged.subscription_url, merged.authorization ?? null, format);
  const now = deps.clock.now().toISOString();
  const values = {
    name: merged.name,
    event_type: merged.event_type,
    object_type: objectType,
    object_ids: JSON.stringify(objectIds),
    subscription_url: merged.subscription_url,
    authorization: merged.authorization ?? null,
    format,
    paused_at:
      changes.paused === undefined ? current.paused_at : changes.paused ? (current.paused_at ?? now) : null,
    updated_at: now,
  };
  try {
    await deps.db.kysely
      .updateTable('webhooks')
      .set(values)
      .where('id', '=', id)
      .where('owner_id', '=', caller.userId)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(1026, 'This account already has a webhook with this subscription_url.');
    throw err;
  }
  return { ...current, ...values };
}

/** Deletes the webhook with its pending deliveries and its log. */
export async function deleteWebhook(deps: Deps, caller: Caller, id: string): Promise<Webhook> {
  const current = await getWebhook(deps, caller, id);
  await deps.db.kysely.transaction().execute(async (trx) => {
    const deliveries = trx.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id);
    await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
    await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
    await trx.deleteFrom('webhooks').where('id', '=', id).execute();
  });
  return current;
}

export async function listDeliveries(
  deps: Deps,
  caller: Caller,
  webhookId: string,
  page: { offset: number; perPage: number },
  status?: string,
): Promise<{ total: number; rows: Array<Delivery & { event_type: string }> }> {
  const webhook = await getWebhook(deps, caller, webhookId);
  let base = deps.db.kysely.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
  if (status) base = base.where('status', '=', status);
  const { total, rows } = await countAndPage(base, { offset: page.offset, limit: page.perPage }, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { total, rows: rows.map((r) => ({ ...r, event_type: webhook.event_type })) };
}

export async function getDelivery(
  deps: Deps,
  caller: Caller,
  webhookId: string,
  deliveryId: string,
): Promise<{ delivery: Delivery; attempts: Attempt[]; webhook: Webhook }> {
  const webhook = await getWebhook(deps, caller, webhookId);
  const delivery = await deps.db.kysely
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  if (!delivery) throw new ApiError(1020, 'Delivery not found.');
  const attempts = await deps.db.kysely
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .execute();
  return { delivery, attempts, webhook };
}

/** Schedules a delivery again now, whatever its state; its attempts so far stay in the log. */
export async function redeliver(
  deps: Deps,
  caller: Caller,
  webhookId: string,
  deliveryId: string,
): Promise<{ delivery: Delivery; attempts: Attempt[]; webhook: Webhook }> {
  await getDelivery(deps, caller, webhookId, deliveryId);
  const now = deps.clock.now();
  await deps.db.kysely
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: now.toISOString(),
      retry_until: new Date(now.getTime() + deps.config.outbox.retryForHours * 3_600_000).toISOString(),
      claimed_until: null,
      claim_token: null,
      // a fresh start: the outbox's age of this delivery counts from its next first attempt
      first_attempt_at: null,
    })
    .where('id', '=', deliveryId)
    .execute();
  return getDelivery(deps, caller, webhookId, deliveryId);
}

/** Pauses (no deliveries made or sent until resumed) or resumes a webhook. */
export async function setPaused(deps: Deps, caller: Caller, id: string, paused: boolean): Promise<Webhook> {
  const current = await getWebhook(deps, caller, id);
  const paused_at = paused ? (current.paused_at ?? deps.clock.now().toISOString()) : null;
  await deps.db.kysely.updateTable('webhooks').set({ paused_at }).where('id', '=', id).execute();
  return { ...current, paused_at };
}
