// TypeBox schemas of the collector resource (reference §7.4–7.5).
import { type TSchema, Type } from 'typebox';
import {
  ANONYMOUS_TYPES,
  COLLECTOR_STATUSES,
  COLLECTOR_TYPES,
  DUPLICATE_RULES,
  EDIT_RESPONSE_TYPES,
  REDIRECT_TYPES,
} from '../../../domain/collectors/options.js';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
export const CollectorParams = Type.Object({ collector_id: Id });

const Str = (max = 2000) => Type.String({ maxLength: max });
const Button = Type.Object(
  {
    bg_color: Type.Optional(Type.String({ maxLength: 20 })),
    text_color: Type.Optional(Type.String({ maxLength: 20 })),
    text: Type.Optional(Str(200)),
  },
  { additionalProperties: false },
);
const ScreeningIn = Type.Object(
  {
    min_page_seconds: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 60 }))),
    max_per_address: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
    duplicates: Type.Optional(Type.Enum(DUPLICATE_RULES)),
    window_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760 })),
  },
  {
    additionalProperties: false,
    description:
      'Extension: responses kept aside as flagged (time per page, responses per address, one per browser/contact/address in a window)',
  },
);
const ScreeningOut = Type.Object({
  min_page_seconds: Nullable(Type.Number()),
  max_per_address: Nullable(Type.Integer()),
  duplicates: Type.String(),
  window_hours: Type.Integer(),
});
const ButtonOut = Type.Object({
  bg_color: Type.Optional(Type.String()),
  text_color: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
});
const ThankYouPage = Type.Object(
  { is_enabled: Type.Optional(Type.Boolean()), message: Type.Optional(Str(5000)) },
  { additionalProperties: false },
);

/** Fields of create, PUT and PATCH bodies besides `type` (and `status`, PUT/PATCH only). */
function optionFields() {
  return {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    thank_you_message: Type.Optional(Str(5000)),
    thank_you_page: Type.Optional(ThankYouPage),
    disqualification_message: Type.Optional(Str(5000)),
    disqualification_url: Type.Optional(Nullable(Str())),
    disqualification_type: Type.Optional(Nullable(Str(50))),
    close_date: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    closed_page_message: Type.Optional(Str(5000)),
    redirect_url: Type.Optional(Nullable(Str())),
    redirect_type: Type.Optional(Type.Enum(REDIRECT_TYPES)),
    display_survey_results: Type.Optional(Type.Boolean()),
    edit_response_type: Type.Optional(Type.Enum(EDIT_RESPONSE_TYPES)),
    anonymous_type: Type.Optional(Type.Enum(ANONYMOUS_TYPES)),
    allow_multiple_responses: Type.Optional(Type.Boolean()),
    password: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    sender_email: Type.Optional(Nullable(Type.String({ maxLength: 320, format: 'email' }))),
    response_limit: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, maximum: 2147483647, description: '0 or null: no limit' })),
    ),
    respondent_authentication: Type.Optional(Type.Boolean()),
    width: Type.Optional(Type.Integer({ minimum: 300, maximum: 700 })),
    height: Type.Optional(Type.Integer({ minimum: 300, maximum: 700 })),
    border_color: Type.Optional(Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' })),
    is_branding_enabled: Type.Optional(Type.Boolean()),
    headline: Type.Optional(Str(500)),
    message: Type.Optional(Str(5000)),
    sample_rate: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9]{1,3}$' }), Type.Integer()])),
    primary_button: Type.Optional(Button),
    secondary_button: Type.Optional(Button),
    embed_origins: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: 20,
        description:
          'Extension (weblink collectors): origins allowed to frame the survey, each https://host[:port]; none by default',
      }),
    ),
    screening: Type.Optional(ScreeningIn),
  };
}

export const CollectorCreateBody = Type.Object(
  {
    type: Type.Optional(Type.Enum(COLLECTOR_TYPES)),
    from_collector_id: Type.Optional(Id),
    status: Type.Optional(Type.Enum(['open', 'closed'])),
    ...optionFields(),
  },
  { additionalProperties: false },
);
export const CollectorUpdateBody = Type.Object(
  { status: Type.Optional(Type.Enum(['open', 'closed'])), ...optionFields() },
  { additionalProperties: false },
);

export const Collector = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  status: Type.Enum(COLLECTOR_STATUSES),
  survey_id: Type.String(),
  url: Nullable(Type.String()),
  open: Type.Boolean(),
  date_created: Type.String(),
  date_modified: Type.String(),
  response_count: Type.Integer(),
  password_enabled: Type.Boolean(),
  thank_you_message: Type.String(),
  thank_you_page: Type.Object({ is_enabled: Type.Boolean(), message: Type.String() }),
  disqualification_message: Type.String(),
  disqualification_url: Nullable(Type.String()),
  disqualification_type: Nullable(Type.String()),
  close_date: Nullable(Type.String()),
  closed_page_message: Type.String(),
  redirect_url: Nullable(Type.String()),
  redirect_type: Type.String(),
  display_survey_results: Type.Boolean(),
  edit_response_type: Type.String(),
  anonymous_type: Type.String(),
  allow_multiple_responses: Type.Boolean(),
  sender_email: Nullable(Type.String()),
  is_sender_email_verified: Type.Optional(Type.Boolean()),
  response_limit: Nullable(Type.Integer()),
  respondent_authentication: Type.Boolean(),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  border_color: Type.Optional(Type.String()),
  is_branding_enabled: Type.Optional(Type.Boolean()),
  headline: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  sample_rate: Type.Optional(Type.String()),
  primary_button: Type.Optional(ButtonOut),
  secondary_button: Type.Optional(ButtonOut),
  embed_origins: Type.Optional(
    Type.Array(Type.String(), { description: 'Extension (weblink collectors): origins allowed to frame it' }),
  ),
  screening: Type.Optional(ScreeningOut),
  href: Type.String(),
});

export const COLLECTOR_INCLUDES = [
  'type',
  'status',
  'response_count',
  'date_created',
  'date_modified',
  'url',
] as const;

export const CollectorListItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  href: Type.String(),
  type: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  response_count: Type.Optional(Type.Integer()),
  date_created: Type.Optional(Type.String()),
  date_modified: Type.Optional(Type.String()),
  url: Type.Optional(Nullable(Type.String())),
});
