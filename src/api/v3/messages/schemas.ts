// TypeBox schemas of collector messages and recipients (reference §8–9).
import { Type } from 'typebox';
import { MESSAGE_TYPES } from '../../../domain/invitations/messages.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
export const CollectorParams = Type.Object({ collector_id: Id });
export const MessageParams = Type.Object({ collector_id: Id, message_id: Id });
export const RecipientParams = Type.Object({ collector_id: Id, recipient_id: Id });

const RECIPIENT_STATUS = ['has_not_responded', 'partially_responded', 'completed', 'responded'] as const;
const Body = (max = 100_000) => Type.String({ maxLength: max });

export const MessageCreateBody = Type.Object(
  {
    type: Type.Enum([...MESSAGE_TYPES]),
    recipient_status: Type.Optional(Nullable(Type.Enum([...RECIPIENT_STATUS]))),
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    body_text: Type.Optional(Body()),
    body_html: Type.Optional(Body()),
    is_branding_enabled: Type.Optional(Type.Boolean()),
    embed_first_question: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The copy form of the create body: another message (of any collector the caller may read). */
export const MessageCopyBody = Type.Object(
  { from_collector_id: Id, from_message_id: Id, include_recipients: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const MessageUpdateBody = Type.Object(
  {
    recipient_status: Type.Optional(Nullable(Type.Enum([...RECIPIENT_STATUS]))),
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    // null, as a message without one reads: the same as leaving it out.
    body_text: Type.Optional(Nullable(Body())),
    body_html: Type.Optional(Nullable(Body())),
    is_branding_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const Message = Type.Object({
  id: Type.String(),
  href: Type.String(),
  type: Type.String(),
  status: Type.String(),
  recipient_status: Nullable(Type.String()),
  subject: Type.String(),
  body: Type.String(),
  body_text: Nullable(Type.String()),
  body_html: Nullable(Type.String()),
  is_branding_enabled: Type.Boolean(),
  embed_first_question: Type.Boolean(),
  is_scheduled: Type.Boolean(),
  scheduled_date: Nullable(Type.String()),
  date_created: Type.String(),
});

export const MessageListItem = Type.Object({
  id: Type.String(),
  href: Type.String(),
  type: Type.String(),
  status: Type.String(),
  subject: Type.String(),
});

export const SendBody = Type.Object(
  { scheduled_date: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);

export const SendResult = Type.Object({
  is_scheduled: Type.Boolean(),
  scheduled_date: Nullable(Type.String()),
  subject: Type.String(),
  body: Type.String(),
  type: Type.String(),
  recipient_status: Nullable(Type.String()),
  recipients: Type.Array(Type.String()),
});

const Fields = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }));
const CustomFields = Type.Object(
  Object.fromEntries(
    ['1', '2', '3', '4', '5', '6'].map((k) => [k, Type.Optional(Type.String({ maxLength: 2000 }))]),
  ),
  { additionalProperties: false },
);
const DUPLICATES = ['add', 'add_if_not_in_message', 'add_if_not_in_collector'] as const;

export const RecipientContact = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    custom_fields: Type.Optional(CustomFields),
    extra_fields: Type.Optional(Fields),
  },
  { additionalProperties: false },
);

export const RecipientAddBody = Type.Union([
  Type.Object(
    { contact_id: Id, duplicates: Type.Optional(Type.Enum([...DUPLICATES])) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      email: Type.String({ maxLength: 320 }),
      first_name: Type.Optional(Type.String({ maxLength: 200 })),
      last_name: Type.Optional(Type.String({ maxLength: 200 })),
      custom_fields: Type.Optional(CustomFields),
      extra_fields: Type.Optional(Fields),
      duplicates: Type.Optional(Type.Enum([...DUPLICATES])),
    },
    { additionalProperties: false },
  ),
]);

export const RecipientBulkBody = Type.Object(
  {
    contacts: Type.Optional(Type.Array(RecipientContact, { maxItems: 10_000 })),
    contact_ids: Type.Optional(Type.Array(Id, { maxItems: 10_000 })),
    contact_list_ids: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    duplicates: Type.Optional(Type.Enum([...DUPLICATES])),
  },
  { additionalProperties: false },
);

export const BulkResult = Type.Object({
  succeeded: Type.Array(
    Type.Object({ id: Type.String(), email: Type.String(), phone_number: Type.Null(), href: Type.String() }),
  ),
  invalids: Type.Array(Type.String()),
  existing: Type.Array(Type.String()),
  bounced: Type.Array(Type.String()),
  opted_out: Type.Array(Type.String()),
  duplicate: Type.Array(Type.String()),
});

export const Recipient = Type.Object({
  id: Type.String(),
  href: Type.String(),
  survey_id: Type.String(),
  email: Type.String(),
  phone_number: Type.Null(),
  first_name: Type.String(),
  last_name: Type.String(),
  survey_response_status: Type.String(),
  mail_status: Type.String(),
  remove_link: Type.String(),
  survey_link: Type.String(),
  custom_fields: Type.Record(Type.String(), Type.String()),
  extra_fields: Type.Record(Type.String(), Type.String()),
});

export const RECIPIENT_INCLUDES = [
  'survey_response_status',
  'mail_status',
  'custom_fields',
  'remove_link',
  'extra_fields',
  'survey_link',
] as const;

export const RecipientListItem = Type.Object({
  id: Type.String(),
  email: Type.String(),
  phone_number: Type.Null(),
  href: Type.String(),
  survey_response_status: Type.Optional(Type.String()),
  mail_status: Type.Optional(Type.String()),
  custom_fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  extra_fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  remove_link: Type.Optional(Type.String()),
  survey_link: Type.Optional(Type.String()),
});

export const Stats = Type.Object({
  survey_response_status: Type.Object({
    completely_responded: Type.Integer(),
    not_responded: Type.Integer(),
    partially_responded: Type.Integer(),
  }),
  mail_status: Type.Object({
    opened: Type.Integer(),
    opted_out: Type.Integer(),
    not_sent: Type.Integer(),
    sent: Type.Integer(),
    bounced: Type.Integer(),
    link_clicked: Type.Integer(),
  }),
  recipients: Type.Integer(),
});
