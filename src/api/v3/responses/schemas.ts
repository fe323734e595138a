// TypeBox schemas of responses (reference §10.3–10.7) and their query parameters (§10.2).
import { type TSchema, Type } from 'typebox';
import { RESPONSE_STATUSES } from '../../../domain/responses/responses.js';
import { pagingQuery } from '../../../http/paging.js';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
const IdIn = Type.String({ minLength: 1, maxLength: 40 });
const Text = Type.String({ maxLength: 50000 });

export const SurveyResponseParams = Type.Object({ survey_id: Id, response_id: Id });
export const CollectorResponseParams = Type.Object({ collector_id: Id, response_id: Id });

const AnswerInput = Type.Object(
  {
    choice_id: Type.Optional(IdIn),
    row_id: Type.Optional(IdIn),
    col_id: Type.Optional(IdIn),
    other_id: Type.Optional(IdIn),
    text: Type.Optional(Text),
    download_url: Type.Optional(
      Type.String({
        maxLength: 2000,
        description:
          'Not accepted (400/1002): files are uploaded only on the respondent page; a file upload question takes text only through the API',
      }),
    ),
    content_type: Type.Optional(
      Type.String({ maxLength: 200, description: 'Not accepted (400/1002), as download_url' }),
    ),
  },
  { additionalProperties: false },
);
const QuestionInput = Type.Object(
  {
    id: IdIn,
    variable_id: Type.Optional(IdIn),
    answers: Type.Optional(Type.Array(AnswerInput, { maxItems: 10000 })),
  },
  { additionalProperties: false },
);
const PageInput = Type.Object(
  { id: IdIn, questions: Type.Optional(Type.Array(QuestionInput, { maxItems: 1000 })) },
  { additionalProperties: false },
);

export const ResponseBody = Type.Object(
  {
    pages: Type.Optional(Type.Array(PageInput, { maxItems: 1000 })),
    custom_variables: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 5000 })),
    ),
    custom_value: Type.Optional(Type.String({ maxLength: 5000 })),
    date_created: Type.Optional(Type.String({ maxLength: 40 })),
    response_status: Type.Optional(Type.Enum(RESPONSE_STATUSES)),
    ip_address: Type.Optional(Type.String({ maxLength: 100 })),
    recipient_id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 0 })])),
  },
  { additionalProperties: false },
);

const Answer = Type.Object({
  choice_id: Type.Optional(Type.String()),
  row_id: Type.Optional(Type.String()),
  col_id: Type.Optional(Type.String()),
  other_id: Type.Optional(Type.String()),
  text: Type.Optional(Type.String({ description: "File upload answers: the uploaded file's name" })),
  download_url: Type.Optional(
    Type.String({
      description:
        "File upload answers: the file, for a signed-in user with analyze access to the survey (the owner's browser session; not a bearer-token URL)",
    }),
  ),
  content_type: Type.Optional(Type.String({ description: "File upload answers: the file's type" })),
  choice_metadata: Type.Optional(Type.Object({ weight: Type.String() })),
  simple_text: Type.Optional(Type.String()),
  is_correct: Type.Optional(
    Type.Boolean({ description: 'Quiz surveys, choice answers of scored questions' }),
  ),
  score: Type.Optional(Type.Integer({ description: "Quiz surveys: the picked choice's points" })),
  tag_data: Type.Optional(Type.Array(Type.Object({}))),
});
const Question = Type.Object({
  id: Type.String(),
  variable_id: Type.Optional(Type.String()),
  family: Type.Optional(Type.String()),
  subtype: Type.Optional(Type.String()),
  heading: Type.Optional(Type.String()),
  answers: Type.Array(Answer),
});
const Page = Type.Object({ id: Type.String(), questions: Type.Array(Question) });

export const Response = Type.Object({
  /** Extension: only with include_flagged=true, whether the screening kept it aside. */
  flagged: Type.Optional(Type.Boolean()),
  total_time: Type.Integer(),
  href: Type.String(),
  custom_variables: Type.Record(Type.String(), Type.String()),
  ip_address: Type.String(),
  id: Type.String(),
  logic_path: Type.Record(
    Type.String(),
    Type.Object({
      question_id: Type.Optional(Type.String()),
      choice_id: Type.Optional(Type.String()),
      action: Type.String(),
      page_id: Type.Optional(Type.String()),
    }),
    {
      description:
        'Extension: page id -> the skip-logic rule that fired after that page (question_id and choice_id for a choice rule; none for the page rule)',
    },
  ),
  date_modified: Type.String(),
  response_status: Type.String(),
  custom_value: Type.String(),
  analyze_url: Type.String(),
  pages: Type.Optional(Type.Array(Page)),
  page_path: Type.Array(Type.String()),
  recipient_id: Type.String(),
  collector_id: Type.String(),
  date_created: Type.String(),
  survey_id: Type.String(),
  quiz_results: Type.Optional(
    Type.Object(
      {
        correct: Type.Integer(),
        incorrect: Type.Integer(),
        partially_correct: Type.Integer(),
        total_questions: Type.Integer(),
        score: Type.Integer(),
        total_score: Type.Integer(),
      },
      { description: 'Quiz surveys only (rules: src/domain/quiz/score.ts)' },
    ),
  ),
  collection_mode: Type.String(),
  edit_url: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  first_name: Type.String(),
  last_name: Type.String(),
  email_address: Type.String(),
  current_page_id: Type.Optional(Type.String()),
});

export const Responses = Type.Array(Response);

export const ResponseListItem = Type.Object({
  id: Type.String(),
  href: Type.String(),
  flagged: Type.Optional(Type.Boolean()),
});

const DateQ = (d: string) => Type.Optional(Type.String({ maxLength: 40, description: d }));
const IdList = (d: string) =>
  Type.Optional(Type.String({ pattern: '^[0-9]{1,20}(,[0-9]{1,20})*$', maxLength: 20000, description: d }));

export function listQuery(kind: 'list' | 'bulk', form: 'survey' | 'collector') {
  const fields = {
    ...pagingQuery(kind === 'bulk' ? 100 : 1000),
    start_created_at: DateQ('Responses created at or after'),
    end_created_at: DateQ('Responses created at or before'),
    start_modified_at: DateQ('Responses modified at or after'),
    end_modified_at: DateQ('Responses modified at or before'),
    status: Type.Optional(Type.Enum(RESPONSE_STATUSES)),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    ip: Type.Optional(Type.String({ maxLength: 100 })),
    custom: Type.Optional(Type.String({ maxLength: 5000 })),
    total_time_min: Type.Optional(Type.Integer({ minimum: 0 })),
    total_time_max: Type.Optional(Type.Integer({ minimum: 0 })),
    total_time_units: Type.Optional(Type.Enum(['second', 'minute', 'hour'])),
    sort_by: Type.Optional(Type.Enum(['date_modified'])),
    sort_order: Type.Optional(Type.Enum(['ASC', 'DESC', 'asc', 'desc'])),
    include_flagged: Type.Optional(
      Type.Boolean({
        description:
          'Extension: true lists the responses the screening kept aside too (after the others, unfiltered), each with flagged',
      }),
    ),
  };
  const collectors = { collector_ids: IdList('Only these collectors') };
  const bulk = {
    page_ids: IdList('Only these pages'),
    question_ids: IdList('Only these questions'),
    simple: Type.Optional(Type.Boolean({ description: 'true adds question and answer text' })),
  };
  // One object type per shape (a spread of `cond ? {...} : {}` would leave its fields untyped).
  if (form === 'survey')
    return kind === 'bulk'
      ? Type.Object({ ...fields, ...collectors, ...bulk })
      : Type.Object({ ...fields, ...collectors });
  return kind === 'bulk' ? Type.Object({ ...fields, ...bulk }) : Type.Object(fields);
}

export const DetailsQuery = Type.Object({
  page_ids: IdList('Only these pages'),
  question_ids: IdList('Only these questions'),
  simple: Type.Optional(Type.Boolean()),
});

export { Nullable };
