// The one TypeBox schema family for questions (reference §6.2–6.6). The create/replace body, the
// PATCH body and the question as read are all built from the same parts below, so validation,
// output serialization and the OpenAPI document cannot drift apart. The rules the schema language
// cannot say (which answers a family takes) live in question-rules.ts.
import { type Static, type TSchema, Type } from 'typebox';

// Skip logic (rules of a choice or a page; logic.ts checks and applies them).
export const LOGIC_ACTIONS = ['go_to_page', 'end_survey', 'disqualify'] as const;
export type LogicAction = (typeof LOGIC_ACTIONS)[number];

export const Logic = Type.Object(
  {
    action: Type.Enum(LOGIC_ACTIONS, {
      description:
        'go_to_page: continue at page_id (a later page); end_survey: finish (completed); disqualify: finish as disqualified',
    }),
    page_id: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,20}$', description: 'The page to go to (go_to_page only)' }),
    ),
    when: Type.Optional(
      Type.Object(
        {
          variable: Type.String({ minLength: 1, maxLength: 100 }),
          operator: Type.Enum(['greater_than', 'less_than', 'equals', 'not_equals'] as const),
          value: Type.String({ maxLength: 100 }),
        },
        {
          additionalProperties: false,
          description:
            'Extension: the rule applies only when this calculated variable (its value after this page) compares so with value',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Skip logic (extension): where the respondent goes after this page. Choice rules come first (in question order), then the page rule, then the next page.',
  },
);
export type Logic = Static<typeof Logic>;

/** A page's question order (an extension, docs/display-logic-and-piping.md): `random` shuffles the
 * page's questions per respondent, `flip` shows them as listed or reversed; `ignore_last` keeps
 * the last question last. */
export const PAGE_SORTING_TYPES = ['default', 'random', 'flip'] as const;
export const PageSorting = Type.Object(
  {
    type: Type.Enum(PAGE_SORTING_TYPES),
    ignore_last: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    description:
      'Question order on this page for each respondent (extension): default (as listed), random, flip; ignore_last keeps the last question last. Stable across reloads.',
  },
);
export type PageSorting = Static<typeof PageSorting>;

/**
 * T or null. Written as a type list (`type: ['object', 'null']`) rather than anyOf: the response
 * serializer then needs no runtime branch test per value, which keeps a 1000-question /details fast.
 */
export function Nullable<T extends TSchema>(t: T) {
  const type = (t as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Union([t, Type.Null()]);
  return Type.Unsafe<Static<T> | null>({ ...t, type: [type, 'null'] });
}
/** No NUL characters in text: PostgreSQL cannot store them, so they are refused as bad input. */
export const NO_NUL = '^[^\\u0000]*$';
const Str = (o: object = {}) => Type.String({ pattern: NO_NUL, maxLength: 20000, ...o });

export const FAMILIES = [
  'single_choice',
  'multiple_choice',
  'matrix',
  'open_ended',
  'demographic',
  'datetime',
  'presentation',
] as const;
export type Family = (typeof FAMILIES)[number];

/** Subtypes per family (reference §6.4: documented plus those observed in real data). */
export const SUBTYPES: Record<Family, readonly string[]> = {
  single_choice: ['vertical', 'horiz', 'menu', 'vertical_two_col', 'vertical_three_col'],
  multiple_choice: ['vertical', 'horiz', 'vertical_two_col', 'vertical_three_col'],
  matrix: ['single', 'rating', 'ranking', 'menu', 'multi'],
  open_ended: ['single', 'multi', 'numerical', 'essay'],
  demographic: ['international', 'us'],
  datetime: ['both', 'date_only', 'time_only'],
  presentation: ['descriptive_text', 'image'],
};

export const DEMOGRAPHIC_TYPES = [
  'name',
  'company',
  'address',
  'address2',
  'city',
  'state',
  'zip',
  'country',
  'email',
  'phone',
] as const;

const Image = Type.Object(
  { url: Str({ minLength: 1 }), s3_key: Type.Optional(Str()) },
  { additionalProperties: false },
);

const RandomAssignment = Type.Object(
  {
    percent: Type.Number({ minimum: 0, maximum: 100 }),
    position: Type.Optional(Type.Integer({ minimum: 0 })),
    variable_name: Type.Optional(Str()),
    id: Type.Optional(Str()),
  },
  { additionalProperties: false },
);

export const Heading = Type.Object(
  {
    heading: Str(),
    description: Type.Optional(Str()),
    image: Type.Optional(Image),
    random_assignment: Type.Optional(RandomAssignment),
  },
  { additionalProperties: false },
);

const ChoiceQuiz = Type.Object(
  { score: Type.Integer({ minimum: -1000000, maximum: 1000000, description: 'Quiz points for picking it' }) },
  { additionalProperties: false },
);

const Choice = Type.Object(
  {
    id: Str(),
    position: Type.Integer(),
    text: Str(),
    visible: Type.Boolean(),
    weight: Type.Optional(Type.Number()),
    is_na: Type.Optional(Type.Boolean()),
    description: Type.Optional(Str()),
    quiz_options: Type.Optional(ChoiceQuiz),
    image: Type.Optional(Image),
    logic: Type.Optional(Logic),
  },
  { additionalProperties: false },
);
/** A choice as sent: only what differs from the defaults; `id` is kept on PUT/PATCH when it is already one of the question's. */
const ChoiceInput = Type.Object(
  {
    id: Type.Optional(Str()),
    position: Type.Optional(Type.Integer({ minimum: 1 })),
    text: Type.Optional(Str()),
    visible: Type.Optional(Type.Boolean()),
    weight: Type.Optional(Type.Number()),
    is_na: Type.Optional(Type.Boolean()),
    description: Type.Optional(Str()),
    quiz_options: Type.Optional(ChoiceQuiz),
    image: Type.Optional(Image),
    logic: Type.Optional(Logic),
  },
  { additionalProperties: false },
);
const DemographicType = Type.Enum(DEMOGRAPHIC_TYPES);
const Row = Type.Object(
  {
    id: Str(),
    position: Type.Integer(),
    text: Str(),
    visible: Type.Boolean(),
    type: Type.Optional(DemographicType),
    required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const RowInput = Type.Object(
  {
    id: Type.Optional(Str()),
    position: Type.Optional(Type.Integer({ minimum: 1 })),
    text: Type.Optional(Str()),
    visible: Type.Optional(Type.Boolean()),
    type: Type.Optional(DemographicType),
    required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const Col = Type.Object(
  { id: Str(), position: Type.Integer(), text: Str(), visible: Type.Boolean(), choices: Type.Array(Choice) },
  { additionalProperties: false },
);
const ColInput = Type.Object(
  {
    id: Type.Optional(Str()),
    position: Type.Optional(Type.Integer({ minimum: 1 })),
    text: Type.Optional(Str()),
    visible: Type.Optional(Type.Boolean()),
    choices: Type.Optional(Type.Array(ChoiceInput, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);
const Other = Type.Object(
  {
    id: Str(),
    position: Type.Integer(),
    text: Str(),
    visible: Type.Boolean(),
    is_answer_choice: Type.Boolean(),
    apply_all_rows: Type.Boolean(),
    num_chars: Type.Integer(),
    num_lines: Type.Integer(),
    error_text: Str(),
  },
  { additionalProperties: false },
);
const OtherInput = Type.Object(
  {
    id: Type.Optional(Str()),
    position: Type.Optional(Type.Integer({ minimum: 0 })),
    text: Type.Optional(Str()),
    visible: Type.Optional(Type.Boolean()),
    is_answer_choice: Type.Optional(Type.Boolean()),
    apply_all_rows: Type.Optional(Type.Boolean()),
    num_chars: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000 })),
    num_lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    error_text: Type.Optional(Str()),
  },
  { additionalProperties: false },
);

export const Answers = Type.Object(
  {
    choices: Type.Optional(Type.Array(Choice)),
    rows: Type.Optional(Type.Array(Row)),
    cols: Type.Optional(Type.Array(Col)),
    other: Type.Optional(Other),
  },
  { additionalProperties: false },
);
export const AnswersInput = Type.Object(
  {
    choices: Type.Optional(Type.Array(ChoiceInput, { maxItems: 1000 })),
    rows: Type.Optional(Type.Array(RowInput, { maxItems: 1000 })),
    cols: Type.Optional(Type.Array(ColInput, { maxItems: 1000 })),
    // Read as one object; created as an object or, as the original's examples send it, an array of one.
    other: Type.Optional(Type.Union([OtherInput, Type.Array(OtherInput, { minItems: 1, maxItems: 1 })])),
  },
  { additionalProperties: false },
);

export const SORTING_TYPES = [
  'default',
  'textasc',
  'textdesc',
  'resp_count_asc',
  'resp_count_desc',
  'random',
  'flip',
] as const;
export const Sorting = Type.Object(
  {
    type: Type.Enum(SORTING_TYPES),
    ignore_last: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Display logic (an extension: docs/api-extensions.md): the question is shown only when the
 * condition holds for an answer on an earlier page, or for a custom variable of the link. */
export const DISPLAY_OPERATORS = [
  'selected',
  'not_selected',
  'equals',
  'not_equals',
  'contains',
  'answered',
  'not_answered',
  'greater_than',
  'less_than',
] as const;
export const DisplayLogic = Type.Object(
  {
    question_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
    custom_variable: Type.Optional(Type.String({ pattern: NO_NUL, minLength: 1, maxLength: 100 })),
    variable: Type.Optional(
      Type.String({
        pattern: NO_NUL,
        minLength: 1,
        maxLength: 100,
        description: 'Extension: a calculated variable',
      }),
    ),
    operator: Type.Optional(Type.Enum(DISPLAY_OPERATORS)),
    choice_ids: Type.Optional(
      Type.Array(Type.String({ pattern: '^[0-9]{1,20}$' }), { minItems: 1, maxItems: 200 }),
    ),
    value: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 1000 })),
  },
  { additionalProperties: false },
);
export type DisplayLogic = Static<typeof DisplayLogic>;

export const REQUIRED_TYPES = ['all', 'at_least', 'at_most', 'exactly', 'range'] as const;
const RequiredInput = Type.Object(
  {
    text: Type.Optional(Str()),
    type: Type.Optional(Type.Enum(REQUIRED_TYPES)),
    amount: Type.Optional(Type.String({ pattern: '^[0-9]+(,[0-9]+)?$' })),
  },
  { additionalProperties: false },
);
const RequiredRead = Type.Object({ text: Str(), type: Type.String(), amount: Type.String() });

export const VALIDATION_TYPES = [
  'any',
  'integer',
  'decimal',
  'date_us',
  'date_intl',
  'regex',
  'email',
  'text_length',
] as const;
const Bound = Nullable(Type.Union([Type.Number(), Type.String({ pattern: NO_NUL, maxLength: 200 })]));
const ValidationInput = Type.Object(
  {
    type: Type.Enum(VALIDATION_TYPES),
    text: Type.Optional(Str()),
    min: Type.Optional(Bound),
    max: Type.Optional(Bound),
    sum: Type.Optional(Nullable(Type.Number())),
    sum_text: Type.Optional(Str()),
  },
  { additionalProperties: false },
);
const ValidationRead = Type.Object({
  type: Type.String(),
  text: Str(),
  min: Nullable(Type.String()),
  max: Nullable(Type.String()),
  sum: Type.Optional(Nullable(Type.Number())),
  sum_text: Type.Optional(Str()),
});

export const DISPLAY_TYPES = ['image_choice', 'emoji', 'slider', 'file_upload'] as const;
export const EMOJI_SUBTYPES = ['star', 'smiley', 'heart', 'thumb'] as const;
export const DisplayOptions = Type.Object(
  {
    display_type: Type.Optional(Nullable(Type.Enum(DISPLAY_TYPES))),
    display_subtype: Type.Optional(Nullable(Type.String({ pattern: NO_NUL, maxLength: 50 }))),
    show_display_number: Type.Optional(Type.Boolean()),
    left_label: Type.Optional(Str()),
    middle_label: Type.Optional(Str()),
    right_label: Type.Optional(Str()),
    left_label_id: Type.Optional(Nullable(Str())),
    middle_label_id: Type.Optional(Nullable(Str())),
    right_label_id: Type.Optional(Nullable(Str())),
    custom_options: Type.Optional(
      Type.Object(
        {
          starting_position: Type.Optional(Type.Integer()),
          step_size: Type.Optional(Type.Integer({ minimum: 1 })),
          option_set: Type.Optional(
            Type.Array(Type.String({ pattern: NO_NUL, maxLength: 100 }), { maxItems: 50 }),
          ),
          color: Type.Optional(Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const QuestionQuiz = Type.Object(
  {
    scoring_enabled: Type.Boolean(),
    feedback: Type.Optional(
      Type.Object(
        { correct_text: Str(), incorrect_text: Str(), partial_text: Str() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const LAYOUT_KEYS = [
  'left_spacing',
  'top_spacing',
  'right_spacing',
  'bottom_spacing',
  'width_format',
  'width',
  'col_width_format',
  'col_width',
  'position',
  'num_chars',
  'num_lines',
] as const;
export const Layout = Type.Object(
  Object.fromEntries(
    LAYOUT_KEYS.map((k) => [
      k,
      Type.Optional(Nullable(Type.Union([Type.Number(), Type.String({ pattern: NO_NUL, maxLength: 100 })]))),
    ]),
  ),
  { additionalProperties: false },
);

/** Fields a client sends (POST/PUT; PATCH sends any subset). */
function inputFields() {
  return {
    headings: Type.Array(Heading, { minItems: 1, maxItems: 20 }),
    family: Type.Enum(FAMILIES),
    subtype: Type.String({ pattern: NO_NUL, maxLength: 50 }),
    position: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    answers: Type.Optional(AnswersInput),
    display_options: Type.Optional(DisplayOptions),
    sorting: Type.Optional(Nullable(Sorting)),
    required: Type.Optional(Nullable(RequiredInput)),
    validation: Type.Optional(Nullable(ValidationInput)),
    forced_ranking: Type.Optional(Type.Boolean()),
    quiz_options: Type.Optional(QuestionQuiz),
    nickname: Type.Optional(Nullable(Type.String({ pattern: NO_NUL, maxLength: 200 }))),
    layout: Type.Optional(Nullable(Layout)),
    display_logic: Type.Optional(Nullable(DisplayLogic)),
  };
}

export const QuestionInput = Type.Object(inputFields(), { additionalProperties: false });
export const QuestionPatch = Type.Partial(Type.Object(inputFields(), { additionalProperties: false }), {
  additionalProperties: false,
});
export type QuestionInput = Static<typeof QuestionInput>;
export type QuestionPatch = Static<typeof QuestionPatch>;
export type AnswersInput = Static<typeof AnswersInput>;

/** The stored design of a question (the `doc` column): everything but id, page and position. */
export const StoredQuestion = Type.Object({
  visible: Type.Boolean(),
  headings: Type.Array(Heading),
  answers: Type.Optional(Answers),
  display_options: Type.Optional(DisplayOptions),
  sorting: Nullable(Sorting),
  required: Nullable(RequiredRead),
  validation: Nullable(ValidationRead),
  forced_ranking: Type.Boolean(),
  quiz_options: Type.Optional(QuestionQuiz),
  nickname: Nullable(Type.String()),
  layout: Nullable(Layout),
  display_logic: Type.Optional(DisplayLogic),
});
export type StoredQuestion = Static<typeof StoredQuestion>;
export type Answers = Static<typeof Answers>;
export type Choice = Static<typeof Choice>;
export type Row = Static<typeof Row>;
export type Col = Static<typeof Col>;
export type Other = Static<typeof Other>;
export type ChoiceInput = Static<typeof ChoiceInput>;
export type RowInput = Static<typeof RowInput>;
export type ColInput = Static<typeof ColInput>;
export type OtherInput = Static<typeof OtherInput>;

/** A question as read (GET question, /details). */
export const Question = Type.Object({
  id: Type.String(),
  position: Type.Integer(),
  visible: Type.Boolean(),
  family: Type.String(),
  subtype: Type.String(),
  headings: Type.Array(Heading),
  answers: Type.Optional(Answers),
  display_options: Type.Optional(DisplayOptions),
  sorting: Nullable(Sorting),
  required: Nullable(RequiredRead),
  validation: Nullable(ValidationRead),
  forced_ranking: Type.Boolean(),
  quiz_options: Type.Optional(QuestionQuiz),
  nickname: Nullable(Type.String()),
  layout: Nullable(Layout),
  display_logic: Type.Optional(DisplayLogic),
  href: Type.String(),
});
export type Question = Static<typeof Question>;

export const QuestionListItem = Type.Object({
  id: Type.String(),
  heading: Type.String(),
  position: Type.Integer(),
  href: Type.String(),
});
