// /v3/webhooks (reference §13) and, beyond the spec, the delivery log and redelivery:
// GET /webhooks/{id}/deliveries, GET /webhooks/{id}/deliveries/{delivery_id},
// POST /webhooks/{id}/deliveries/{delivery_id}/redeliver and GET /webhooks/{id}/signing_secret.
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Deps } from '../../../context.js';
import { standardSecret } from '../../../domain/webhooks/signing.js';
import {
  type Attempt,
  createWebhook,
  type Delivery,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  updateWebhook,
  type Webhook,
} from '../../../domain/webhooks/webhooks.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { withOffset } from '../../../platform/dates.js';
import { parseAs, StringList } from '../../../platform/json.js';
import {
  DeliveryItem,
  DeliveryParams,
  DeliveryQuery,
  DeliveryResource,
  SigningSecret,
  WebhookCreateBody,
  WebhookItem,
  WebhookParams,
  WebhookPatchBody,
  WebhookResource,
} from './schemas.js';

const TAGS = ['Webhooks'];

function present(base: string, w: Webhook): Static<typeof WebhookResource> {
  return {
    id: w.id,
    name: w.name,
    event_type: w.event_type,
    object_type: w.object_type,
    object_ids: parseAs(StringList, w.object_ids),
    subscription_url: w.subscription_url,
    ...(w.authorization ? { authorization: w.authorization } : {}),
    // Extensions, shown only when not the default, so a SurveyMonkey client's objects are unchanged.
    ...(w.format !== 'surveymonkey' ? { format: w.format } : {}),
    ...(w.paused_at ? { paused: true } : {}),
    href: `${base}/v3/webhooks/${w.id}`,
  };
}

function presentDelivery(base: string, d: Delivery, eventType: string) {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: eventType,
    status: d.status,
    attempts: d.attempts,
    created_at: withOffset(d.created_at),
    delivered_at: d.delivered_at ? withOffset(d.delivered_at) : null,
    next_attempt_at: d.status === 'pending' ? withOffset(d.next_attempt_at) : null,
    retry_until: withOffset(d.retry_until),
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    href: `${base}/v3/webhooks/${d.webhook_id}/deliveries/${d.id}`,
  };
}

function presentFull(base: string, r: { delivery: Delivery; attempts: Attempt[]; webhook: Webhook }) {
  return {
    ...presentDelivery(base, r.delivery, r.webhook.event_type),
    body: r.delivery.body,
    attempt_log: r.attempts.map((a) => ({
      attempt: a.attempt,
      started_at: withOffset(a.started_at),
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      outcome: a.outcome,
    })),
  };
}

const caller = (request: FastifyRequest) => ({ userId: request.auth.user.id, appId: request.auth.app.id });

export const webhooksRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/webhooks',
    {
      config: { scope: 'webhooks_read' },
      schema: {
        tags: TAGS,
        summary: 'List webhooks',
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(WebhookItem) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { total, rows } = await listWebhooks(deps, caller(request), page);
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        total,
        rows.map((w) => ({ id: w.id, name: w.name, href: `${base}/v3/webhooks/${w.id}` })),
      );
    },
  );

  app.post(
    '/webhooks',
    {
      config: { scope: 'webhooks_write' },
      schema: {
        tags: TAGS,
        summary: 'Create a webhook',
        description:
          "The subscription_url must answer a HEAD request with 200 and be unique among the account's webhooks (409/1026).",
        body: WebhookCreateBody,
        response: { 201: WebhookResource },
      },
    },
    async (request, reply) => {
      const w = await createWebhook(deps, caller(request), request.body);
      return reply.code(201).send(present(baseUrl(request), w));
    },
  );

  app.get(
    '/webhooks/:webhook_id',
    {
      config: { scope: 'webhooks_read' },
      schema: { tags: TAGS, summary: 'A webhook', params: WebhookParams, response: { 200: WebhookResource } },
    },
    async (request) =>
      present(baseUrl(request), await getWebhook(deps, caller(request), request.params.webhook_id)),
  );

  for (const [replace, body, summary] of [
    [false, WebhookPatchBody, 'Change a webhook'],
    [true, WebhookCreateBody, 'Replace a webhook'],
  ] as const) {
    const route = replace ? app.put.bind(app) : app.patch.bind(app);
    route(
      '/webhooks/:webhook_id',
      {
        config: { scope: 'webhooks_write' },
        schema: { tags: TAGS, summary, params: WebhookParams, body, response: { 200: WebhookResource } },
      },
      async (request) => {
        // PUT's schema (WebhookCreateBody) makes its body a whole WebhookInput, as replace needs.
        const w = await updateWebhook(
          deps,
          caller(request),
          request.params.webhook_id,
          request.body ?? {},
          replace,
        );
        return present(baseUrl(request), w);
      },
    );
  }

  app.delete(
    '/webhooks/:webhook_id',
    {
      config: { scope: 'webhooks_write' },
      schema: {
        tags: TAGS,
        summary: 'Delete a webhook (with its pending deliveries)',
        params: WebhookParams,
        response: { 200: WebhookResource },
      },
    },
    async (request) =>
      present(baseUrl(request), await deleteWebhook(deps, caller(request), request.params.webhook_id)),
  );

  app.get(
    '/webhooks/:webhook_id/signing_secret',
    {
      config: { scope: 'webhooks_read' },
      schema: {
        tags: TAGS,
        summary: 'The Standard Webhooks signing secret of a webhook (beyond the spec)',
        params: WebhookParams,
        response: { 200: SigningSecret },
      },
    },
    async (request) => {
      const w = await getWebhook(deps, caller(request), request.params.webhook_id);
      return { secret: standardSecret(deps, w.id) };
    },
  );

  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      config: { scope: 'webhooks_read' },
      schema: {
        tags: TAGS,
        summary: 'The delivery log of a webhook, newest first (beyond the spec)',
        params: WebhookParams,
        querystring: DeliveryQuery,
        response: { 200: listEnvelopeSchema(DeliveryItem) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { total, rows } = await listDeliveries(
        deps,
        caller(request),
        request.params.webhook_id,
        page,
        request.query.status,
      );
      const base = baseUrl(request);
      return envelope(
        request,
        page,
        total,
        rows.map((d) => presentDelivery(base, d, d.event_type)),
      );
    },
  );

  app.get(
    '/webhooks/:webhook_id/deliveries/:delivery_id',
    {
      config: { scope: 'webhooks_read' },
      schema: {
        tags: TAGS,
        summary: 'One delivery with the body sent and every attempt (beyond the spec)',
        params: DeliveryParams,
        response: { 200: DeliveryResource },
      },
    },
    async (request) => {
      const { webhook_id, delivery_id } = request.params;
      return presentFull(baseUrl(request), await getDelivery(deps, caller(request), webhook_id, delivery_id));
    },
  );

  app.post(
    '/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    {
      config: { scope: 'webhooks_write' },
      schema: {
        tags: TAGS,
        summary: 'Deliver again now, whatever the state (beyond the spec)',
        params: DeliveryParams,
        response: { 200: DeliveryResource },
      },
    },
    async (request) => {
      const { webhook_id, delivery_id } = request.params;
      return presentFull(baseUrl(request), await redeliver(deps, caller(request), webhook_id, delivery_id));
    },
  );
};
