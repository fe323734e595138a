// What the importer reads from the source's API, as TypeBox schemas: each answer is checked
// before it is used, so a malformed source gives a clear message (a listing: the run fails with
// it; one item: that item is reported as not copied) rather than a crash deep in the copy.
//
// These are the fields of the API's own response objects (src/api/v3/*/schemas.ts) that the copy
// reads, kept lenient on purpose: SurveyMonkey sends more fields than ours and numbers where we
// send strings, and an import must take what the original gives. The design itself (questions)
// is validated by createSurvey, as any survey body.
import { type Static, type TSchema, Type } from 'typebox';
import Value from 'typebox/value';
import { Logic } from '../surveys/question-schema.js';

/** The source answered something that is not what its API documents. */
export class MalformedSource extends Error {}

const Id = Type.Union([Type.String({ minLength: 1 }), Type.Integer()]);
const Opt = <T extends TSchema>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Str = Type.String();
const Dict = Type.Record(Type.String(), Type.Unknown());

export const Envelope = Type.Object({
  data: Type.Array(Type.Unknown()),
  links: Type.Optional(Type.Object({ next: Type.Optional(Str) })),
  total: Type.Optional(Type.Integer()),
});

export const SourceUser = Type.Object({ id: Id, username: Str });
export const ContactField = Type.Object({ id: Id, label: Str });
export const ContactList = Type.Object({ id: Id, name: Str });
export const ListedContact = Type.Object({
  id: Id,
  first_name: Opt(Str),
  last_name: Opt(Str),
  email: Opt(Str),
  phone_number: Opt(Str),
});
export const SourceContact = Type.Object({
  id: Id,
  first_name: Opt(Str),
  last_name: Opt(Str),
  email: Opt(Str),
  phone_number: Opt(Str),
  custom_fields: Opt(Type.Record(Type.String(), Str)),
});
export const Folder = Type.Object({ id: Id, title: Str });
export const ListedSurvey = Type.Object({
  id: Id,
  title: Opt(Str),
  response_count: Opt(Type.Integer({ minimum: 0 })),
  date_modified: Opt(Str),
});

const Choice = Type.Object({ id: Opt(Id), logic: Opt(Logic) });
const Answers = Type.Object({
  choices: Type.Optional(Type.Array(Choice)),
  rows: Type.Optional(Type.Array(Type.Object({ id: Opt(Id) }))),
  cols: Type.Optional(Type.Array(Dict)),
  other: Opt(Type.Object({ id: Opt(Id) })),
});
export const SourceQuestion = Type.Object({
  id: Id,
  family: Str,
  subtype: Str,
  headings: Type.Optional(Type.Array(Type.Object({ heading: Opt(Str) }))),
  answers: Opt(Answers),
});
export const SourcePage = Type.Object({
  id: Id,
  title: Opt(Str),
  description: Opt(Str),
  logic: Opt(Logic),
  questions: Type.Optional(Type.Array(Type.Intersect([SourceQuestion, Dict]))),
});
export const SurveyDetails = Type.Object({
  id: Id,
  title: Str,
  nickname: Opt(Str),
  language: Opt(Str),
  buttons_text: Opt(Dict),
  custom_variables: Opt(Type.Record(Type.String(), Str)),
  footer: Opt(Type.Boolean()),
  folder_id: Opt(Id),
  quiz_options: Opt(Dict),
  date_created: Opt(Str),
  date_modified: Opt(Str),
  pages: Type.Optional(Type.Array(SourcePage)),
});
export const ListedCollector = Type.Object({ id: Id, date_modified: Opt(Str) });
export const SourceCollector = Type.Intersect([
  Type.Object({
    id: Id,
    type: Str,
    name: Str,
    status: Opt(Str),
    close_date: Opt(Str),
    password_enabled: Opt(Type.Boolean()),
    date_created: Opt(Str),
    date_modified: Opt(Str),
  }),
  Dict,
]);

const SourceAnswer = Type.Object({
  choice_id: Opt(Id),
  row_id: Opt(Id),
  col_id: Opt(Id),
  other_id: Opt(Id),
  text: Opt(Str),
  download_url: Opt(Str),
});
export const SourceResponse = Type.Object({
  id: Id,
  collector_id: Id,
  date_created: Opt(Str),
  date_modified: Str,
  response_status: Str,
  custom_variables: Opt(Type.Record(Type.String(), Str)),
  custom_value: Opt(Str),
  ip_address: Opt(Str),
  first_name: Opt(Str),
  last_name: Opt(Str),
  email_address: Opt(Str),
  total_time: Opt(Type.Number()),
  collection_mode: Opt(Str),
  metadata: Opt(Dict),
  page_path: Opt(Type.Array(Id)),
  pages: Opt(
    Type.Array(
      Type.Object({
        id: Id,
        questions: Opt(Type.Array(Type.Object({ id: Id, answers: Opt(Type.Array(SourceAnswer)) }))),
      }),
    ),
  ),
});

export type SourceUser = Static<typeof SourceUser>;
export type SourceContact = Static<typeof SourceContact>;
export type ListedSurvey = Static<typeof ListedSurvey>;
export type SurveyDetails = Static<typeof SurveyDetails>;
export type SourcePage = Static<typeof SourcePage>;
export type SourceQuestion = Static<typeof SourceQuestion> & Record<string, unknown>;
export type SourceCollector = Static<typeof SourceCollector>;
export type SourceResponse = Static<typeof SourceResponse>;
export type SourceAnswer = Static<typeof SourceAnswer>;

/** The first thing wrong with `value`, or null when it matches `schema`. */
export function problem(schema: TSchema, value: unknown): string | null {
  const [error] = [...Value.Errors(schema, value)];
  if (!error) return null;
  const at = error.instancePath.slice(1).replaceAll('/', '.');
  return `${at ? `'${at}' ` : ''}${error.message}`;
}

/** `value` as `schema` says, or MalformedSource naming what (`what`) and where it is wrong. */
export function read<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  if (Value.Check(schema, value)) return value;
  throw new MalformedSource(`the source's ${what} is malformed: ${problem(schema, value)}`);
}
