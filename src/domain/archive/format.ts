// The account archive's files, as TypeBox schemas: the one source of what export writes, what
// import accepts (every file is checked against its schema before anything is written) and the
// published JSON Schemas (docs/archive/*.schema.json, written by `survey-service account schema`).
import { type Static, type TSchema, Type } from 'typebox';
import { CalculatedVariableInput } from '../surveys/calculated.js';
import { Logic, PageSorting, StoredQuestion } from '../surveys/question-schema.js';

export const ARCHIVE_FORMAT = 'survey-service-account-archive';
export const ARCHIVE_VERSION = 1;

const Id = Type.String({ pattern: '^[0-9]{1,20}$', description: 'an id in the exporting server' });
const Instant = Type.String({ maxLength: 40, description: 'an ISO-8601 UTC instant' });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Str = Type.String();
const Strings = Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 10_000 }));

export const Folder = Type.Object({ id: Id, title: Str }, { additionalProperties: false });

export const ContactField = Type.Object(
  { id: Type.String({ pattern: '^[1-6]$' }), label: Str },
  { additionalProperties: false },
);

export const Contact = Type.Object(
  {
    id: Id,
    first_name: Str,
    last_name: Str,
    email: Nullable(Str),
    phone_number: Nullable(Str),
    custom_fields: Type.Record(Type.String({ pattern: '^[1-6]$' }), Str),
    status: Type.Union([Type.Literal('active'), Type.Literal('optout'), Type.Literal('bounced')]),
    created_at: Instant,
  },
  { additionalProperties: false },
);

export const ContactList = Type.Object(
  { id: Id, name: Str, contact_ids: Type.Array(Id) },
  { additionalProperties: false },
);

export const Webhook = Type.Object(
  {
    id: Id,
    name: Str,
    event_type: Str,
    object_type: Str,
    object_ids: Type.Array(Id),
    subscription_url: Str,
    format: Type.Union([Type.Literal('surveymonkey'), Type.Literal('slack')]),
    paused: Type.Boolean(),
    /** the webhook had an Authorization header (not in the archive: set it again after import) */
    had_authorization: Type.Boolean(),
  },
  { additionalProperties: false },
);

const Question = Type.Object(
  { id: Id, family: Str, subtype: Str, doc: StoredQuestion },
  { additionalProperties: false },
);

const Page = Type.Object(
  {
    id: Id,
    title: Str,
    description: Str,
    logic: Nullable(Logic),
    sorting: Nullable(PageSorting),
    questions: Type.Array(Question, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

const Collector = Type.Object(
  {
    id: Id,
    type: Str,
    name: Str,
    status: Str,
    close_date: Nullable(Instant),
    response_limit: Nullable(Type.Integer({ minimum: 0 })),
    /** every option of the collector (thank-you, redirect, anonymity, popup...); no password */
    options: Type.Record(Type.String(), Type.Unknown()),
    had_password: Type.Boolean(),
  },
  { additionalProperties: false },
);

const Quota = Type.Object(
  {
    id: Id,
    name: Str,
    limit: Type.Integer({ minimum: 0 }),
    conditions: Type.Array(Type.Object({ question_id: Id, choice_id: Id }, { additionalProperties: false })),
    action: Type.Object(
      {
        type: Type.Union([
          Type.Literal('end_survey'),
          Type.Literal('disqualify'),
          Type.Literal('redirect'),
          Type.Literal('close_collector'),
        ]),
        message: Str,
        url: Str,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const Translation = Type.Object(
  {
    language: Str,
    enabled: Type.Boolean(),
    translations: Type.Array(
      Type.Object(
        { default: Str, translation: Str, context: Str, resource_id: Id },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Theme = Type.Object(
  {
    primary_color: Str,
    background_color: Str,
    text_color: Str,
    font: Str,
    button_shape: Str,
  },
  { additionalProperties: false },
);

const QuizOptions = Type.Object(
  {
    is_quiz_mode: Type.Boolean(),
    show_results_type: Type.Union([
      Type.Literal('disabled'),
      Type.Literal('results_only'),
      Type.Literal('results_and_answers'),
    ]),
    feedback: Type.Object({
      ranges_type: Type.Union([Type.Literal('percentage'), Type.Literal('points'), Type.Literal('disabled')]),
      ranges: Type.Array(Type.Object({ min: Type.Number(), max: Type.Number(), message: Str })),
    }),
    default_question_feedback: Type.Optional(
      Type.Object({ correct_text: Str, incorrect_text: Str, partial_text: Str }),
    ),
  },
  { additionalProperties: false },
);

export const Survey = Type.Object(
  {
    id: Id,
    title: Str,
    nickname: Str,
    language: Str,
    category: Str,
    folder_id: Nullable(Id),
    buttons_text: Type.Object({
      next_button: Str,
      prev_button: Str,
      exit_button: Str,
      done_button: Str,
    }),
    custom_variables: Strings,
    footer: Type.Boolean(),
    quiz_options: Nullable(QuizOptions),
    logo_url: Nullable(Str),
    theme_color: Nullable(Str),
    question_layout: Type.Union([Type.Literal('page'), Type.Literal('one_at_a_time')]),
    calculated_variables: Type.Array(CalculatedVariableInput),
    date_created: Instant,
    date_modified: Instant,
    pages: Type.Array(Page, { minItems: 1, maxItems: 1000 }),
    theme: Nullable(Theme),
    translations: Type.Array(Translation),
    quotas: Type.Array(Quota),
    collectors: Type.Array(Collector),
  },
  { additionalProperties: false },
);

const Answer = Type.Object(
  {
    choice_id: Type.Optional(Id),
    row_id: Type.Optional(Id),
    col_id: Type.Optional(Id),
    other_id: Type.Optional(Id),
    text: Type.Optional(Type.String()),
    content_type: Type.Optional(Str),
    /** a file upload's file: `files/<upload_id>` in the archive, listed in the survey's uploads.jsonl */
    upload_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export const Response = Type.Object(
  {
    id: Id,
    collector_id: Id,
    response_status: Type.Union([
      Type.Literal('completed'),
      Type.Literal('partial'),
      Type.Literal('overquota'),
      Type.Literal('disqualified'),
    ]),
    collection_mode: Str,
    custom_value: Str,
    custom_variables: Strings,
    ip_address: Str,
    first_name: Str,
    last_name: Str,
    email_address: Str,
    total_time: Type.Integer({ minimum: 0 }),
    date_created: Instant,
    date_modified: Instant,
    page_path: Type.Array(Id),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    pages: Type.Array(
      Type.Object(
        {
          id: Id,
          questions: Type.Array(
            Type.Object(
              { id: Id, variable_id: Type.Optional(Str), answers: Type.Array(Answer) },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Upload = Type.Object(
  {
    id: Id,
    response_id: Id,
    question_id: Id,
    file_name: Str,
    content_type: Str,
    size: Type.Integer({ minimum: 0 }),
    sha256: Str,
  },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });

export const Manifest = Type.Object(
  {
    format: Type.Literal(ARCHIVE_FORMAT),
    version: Type.Integer({ minimum: 1 }),
    exported_at: Instant,
    account: Type.Object({ username: Str }),
    counts: Type.Object(
      {
        folders: Count,
        surveys: Count,
        responses: Count,
        files: Count,
        contacts: Count,
        contact_lists: Count,
        webhooks: Count,
      },
      { additionalProperties: false },
    ),
    /** every survey's folder in the archive, in export order, with its counts */
    surveys: Type.Array(
      Type.Object(
        { path: Type.String({ pattern: '^surveys/[0-9]{1,6}$' }), responses: Count, files: Count },
        { additionalProperties: false },
      ),
    ),
    /** file kind -> the $id of its JSON Schema (docs/archive/) */
    schemas: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: false },
);

export type Folder = Static<typeof Folder>;
export type ContactField = Static<typeof ContactField>;
export type Contact = Static<typeof Contact>;
export type ContactList = Static<typeof ContactList>;
export type Webhook = Static<typeof Webhook>;
export type Survey = Static<typeof Survey>;
export type Response = Static<typeof Response>;
export type Upload = Static<typeof Upload>;
export type Manifest = Static<typeof Manifest>;

/** Each kind of file: its schema, and whether it holds one JSON value, a JSON array or JSON lines. */
export const FILES = {
  manifest: { schema: Manifest, shape: 'value', path: 'manifest.json' },
  folders: { schema: Folder, shape: 'array', path: 'folders.json' },
  contact_fields: { schema: ContactField, shape: 'array', path: 'contact_fields.json' },
  contacts: { schema: Contact, shape: 'lines', path: 'contacts.jsonl' },
  contact_lists: { schema: ContactList, shape: 'array', path: 'contact_lists.json' },
  webhooks: { schema: Webhook, shape: 'array', path: 'webhooks.json' },
  survey: { schema: Survey, shape: 'value', path: 'surveys/<n>/survey.json' },
  responses: { schema: Response, shape: 'lines', path: 'surveys/<n>/responses.jsonl' },
  uploads: { schema: Upload, shape: 'lines', path: 'surveys/<n>/uploads.jsonl' },
} as const;
export type FileKind = keyof typeof FILES;
export const FILE_KINDS: readonly FileKind[] = [
  'manifest',
  'folders',
  'contact_fields',
  'contacts',
  'contact_lists',
  'webhooks',
  'survey',
  'responses',
  'uploads',
];
/** The name of a kind's published schema under docs/archive/. */
export const schemaFile = (kind: FileKind) => `${kind.replaceAll('_', '-')}.schema.json`;

export const schemaId = (kind: FileKind) =>
  `urn:survey-service:account-archive:${ARCHIVE_VERSION}:${kind.replaceAll('_', '-')}`;

/** The published JSON Schema of a kind of file: an array's or a line's schema is of one item. */
export function jsonSchemaOf(kind: FileKind): Record<string, unknown> {
  const f = FILES[kind];
  const item = JSON.parse(JSON.stringify(f.schema));
  const described = {
    value: `The file ${f.path}.`,
    array: `The file ${f.path}: a JSON array of these.`,
    lines: `The file ${f.path}: one of these per line (JSON Lines).`,
  }[f.shape];
  const body = f.shape === 'array' ? { type: 'array', items: item } : item;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: schemaId(kind),
    title: `${ARCHIVE_FORMAT} ${ARCHIVE_VERSION}: ${f.path}`,
    description: described,
    ...body,
  };
}
