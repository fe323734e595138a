// TypeBox schemas of webhooks (reference §13) and of their delivery log (beyond the spec).
import { Type } from 'typebox';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_OBJECT_TYPES } from '../../../domain/webhooks/rules.js';
import { WEBHOOK_FORMATS } from '../../../domain/webhooks/webhooks.js';

export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
/** Text without NUL characters (PostgreSQL cannot store them). */
const NO_NUL = '^[^\\u0000]*$';
export const WebhookParams = Type.Object({ webhook_id: Id });
export const DeliveryParams = Type.Object({ webhook_id: Id, delivery_id: Id });

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: NO_NUL }),
  event_type: Type.Union(WEBHOOK_EVENT_TYPES.map((e) => Type.Literal(e))),
  object_type: Type.Union([Type.Union(WEBHOOK_OBJECT_TYPES.map((o) => Type.Literal(o))), Type.Null()]),
  object_ids: Type.Union([
    Type.Array(Type.String({ pattern: '^[0-9]{1,20}$' }), { maxItems: 1000 }),
    Type.Null(),
  ]),
  subscription_url: Type.String({ minLength: 1, maxLength: 2048, pattern: NO_NUL }),
  authorization: Type.Union([Type.String({ maxLength: 4096, pattern: NO_NUL }), Type.Null()]),
  format: Type.Union(
    WEBHOOK_FORMATS.map((f) => Type.Literal(f)),
    {
      description:
        "An extension: the delivery body, SurveyMonkey's event JSON (surveymonkey, the default) or a Slack-compatible incoming-webhook message (slack, sent without the HEAD check)",
    },
  ),
};

export const WebhookCreateBody = Type.Object(
  {
    name: fields.name,
    event_type: fields.event_type,
    object_type: Type.Optional(fields.object_type),
    object_ids: Type.Optional(fields.object_ids),
    subscription_url: fields.subscription_url,
    authorization: Type.Optional(fields.authorization),
    format: Type.Optional(fields.format),
  },
  { additionalProperties: false },
);

export const WebhookPatchBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    event_type: Type.Optional(fields.event_type),
    object_type: Type.Optional(fields.object_type),
    object_ids: Type.Optional(fields.object_ids),
    subscription_url: Type.Optional(fields.subscription_url),
    authorization: Type.Optional(fields.authorization),
    format: Type.Optional(fields.format),
    paused: Type.Optional(
      Type.Boolean({ description: 'An extension: true pauses deliveries (none made or sent) until false' }),
    ),
  },
  { additionalProperties: false },
);

export const WebhookItem = Type.Object({ id: Type.String(), name: Type.String(), href: Type.String() });

export const WebhookResource = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    event_type: Type.String(),
    object_type: Type.String(),
    object_ids: Type.Array(Type.String()),
    subscription_url: Type.String(),
    authorization: Type.Optional(Type.String({ description: 'Present only when set' })),
    format: Type.Optional(Type.String({ description: 'An extension, present only when not surveymonkey' })),
    paused: Type.Optional(Type.Boolean({ description: 'An extension, present (true) only while paused' })),
    href: Type.String(),
  },
  { $id: 'Webhook' },
);

export const SigningSecret = Type.Object({
  secret: Type.String({
    description:
      'The Standard Webhooks secret (whsec_ + base64 of 32 bytes): verify webhook-signature with HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>".',
  }),
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  started_at: Type.String(),
  duration_ms: Type.Integer(),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  outcome: Type.String({ description: 'delivered | retry | failed' }),
});

export const DeliveryItem = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.String({ description: 'pending | delivered | failed' }),
  attempts: Type.Integer(),
  created_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String({ description: 'When the next attempt is due (pending only)' })),
  retry_until: Type.String(),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  href: Type.String(),
});

export const DeliveryResource = Type.Object({
  ...DeliveryItem.properties,
  body: Type.String({ description: 'The exact JSON body sent (and signed) on every attempt' }),
  attempt_log: Type.Array(AttemptSchema),
});

export const DeliveryQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
  status: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  ),
});
