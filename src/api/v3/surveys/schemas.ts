// TypeBox schemas of the survey resources (reference §4–6). Question schemas come from the one
// question schema family in domain/surveys/question-schema.ts.
import { type TSchema, Type } from 'typebox';
import { CALCULATED_MAX, CalculatedVariableInput } from '../../../domain/surveys/calculated.js';
import {
  Logic,
  NO_NUL,
  PageSorting,
  Question,
  QuestionInput,
} from '../../../domain/surveys/question-schema.js';

export { Logic, PageSorting };

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
export const SurveyParams = Type.Object({ survey_id: Id });
export const PageParams = Type.Object({ survey_id: Id, page_id: Id });
export const QuestionParams = Type.Object({ survey_id: Id, page_id: Id, question_id: Id });

const ButtonsText = Type.Object({
  next_button: Type.String(),
  prev_button: Type.String(),
  exit_button: Type.String(),
  done_button: Type.String(),
});
const ButtonsTextInput = Type.Partial(
  Type.Object({
    next_button: Type.String({ pattern: NO_NUL, maxLength: 100 }),
    prev_button: Type.String({ pattern: NO_NUL, maxLength: 100 }),
    exit_button: Type.String({ pattern: NO_NUL, maxLength: 100 }),
    done_button: Type.String({ pattern: NO_NUL, maxLength: 100 }),
  }),
  { additionalProperties: false },
);

const Feedback = Type.Object(
  {
    correct_text: Type.String({ pattern: NO_NUL, maxLength: 2000 }),
    incorrect_text: Type.String({ pattern: NO_NUL, maxLength: 2000 }),
    partial_text: Type.String({ pattern: NO_NUL, maxLength: 2000 }),
  },
  { additionalProperties: false },
);
export const QuizOptions = Type.Object(
  {
    is_quiz_mode: Type.Boolean(),
    default_question_feedback: Type.Optional(Feedback),
    show_results_type: Type.Enum(['disabled', 'results_only', 'results_and_answers']),
    feedback: Type.Object(
      {
        ranges_type: Type.Enum(['percentage', 'points', 'disabled']),
        ranges: Type.Array(
          Type.Object(
            {
              min: Type.Integer({ minimum: 0 }),
              max: Type.Integer({ minimum: 0 }),
              message: Type.String({ pattern: NO_NUL, maxLength: 2000 }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 100 },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const CustomVariables = Type.Record(
  Type.String({ pattern: '^[A-Za-z0-9_]{1,50}$' }),
  Type.String({ pattern: NO_NUL, maxLength: 250 }),
  {
    additionalProperties: false,
    maxProperties: 100,
  },
);

const settingsFields = {
  title: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 250, description: 'Default "New Survey"' })),
  nickname: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 250 })),
  language: Type.Optional(
    Type.String({
      pattern: '^[a-zA-Z]{2}(-[a-zA-Z]{2,4})?$',
      description: 'ISO 639-1 code (GET /survey_languages); default en',
    }),
  ),
  buttons_text: Type.Optional(ButtonsTextInput),
  custom_variables: Type.Optional(CustomVariables),
  footer: Type.Optional(Type.Boolean()),
  folder_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
  theme_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  quiz_options: Type.Optional(QuizOptions),
  logo_url: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^https://[^\\s"<>]+$',
        maxLength: 2000,
        description: 'Extension: an https URL of the logo shown on respondent pages; null removes it',
      }),
    ),
  ),
  theme_color: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^#[0-9a-fA-F]{6}$',
        description: 'Extension: the accent colour of respondent pages, "#rrggbb"; null removes it',
      }),
    ),
  ),
  question_layout: Type.Optional(
    Type.Union([Type.Literal('page'), Type.Literal('one_at_a_time')], {
      description:
        'Extension: how respondent pages show the questions: "page" (default, a page at a time) or "one_at_a_time" (each question on its own screen)',
    }),
  ),
};

export const SurveyCreateBody = Type.Object(
  {
    ...settingsFields,
    from_template_id: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 20 })),
    from_survey_id: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 20 })),
    from_team_template_id: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 20 })),
    pages: Type.Optional(
      Type.Array(
        Type.Object(
          {
            title: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 2000 })),
            description: Type.Optional(Type.String({ pattern: NO_NUL, maxLength: 20000 })),
            logic: Type.Optional(Logic),
            sorting: Type.Optional(PageSorting),
            questions: Type.Array(QuestionInput),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SurveyUpdateBody = Type.Object(
  {
    ...settingsFields,
    calculated_variables: Type.Optional(
      Type.Array(CalculatedVariableInput, {
        maxItems: CALCULATED_MAX,
        description:
          'Extension: named values computed from the answers, [{name, formula}] (docs/api.md); replaces the list; PUT without it clears it',
      }),
    ),
  },
  { additionalProperties: false },
);

const surveyFields = {
  id: Type.String(),
  title: Type.String(),
  nickname: Type.String(),
  language: Type.String(),
  folder_id: Type.String(),
  category: Type.String(),
  question_count: Type.Integer(),
  page_count: Type.Integer(),
  response_count: Type.Integer(),
  date_created: Type.String({ description: 'YYYY-MM-DDTHH:MM:00, no offset' }),
  date_modified: Type.String({ description: 'YYYY-MM-DDTHH:MM:00, no offset' }),
  buttons_text: ButtonsText,
  is_owner: Type.Boolean(),
  footer: Type.Boolean(),
  theme_id: Type.Optional(
    Type.String({
      description:
        'As a string (the reference returns it so): the theme sent on create, or the survey’s own theme once set on its theme page',
    }),
  ),
  custom_variables: Type.Record(Type.String(), Type.String()),
  quiz_options: Type.Optional(QuizOptions),
  logo_url: Type.Optional(Type.String({ description: 'Extension: respondent pages’ logo (when set)' })),
  theme_color: Type.Optional(Type.String({ description: 'Extension: respondent pages’ colour (when set)' })),
  question_layout: Type.String({
    description: 'Extension: "page" or "one_at_a_time" (each question on its own screen)',
  }),
  calculated_variables: Type.Array(Type.Object({ name: Type.String(), formula: Type.String() }), {
    description: 'Extension: the calculated variables, [] when none',
  }),
  href: Type.String(),
  analyze_url: Type.String(),
  edit_url: Type.String(),
  collect_url: Type.String(),
  summary_url: Type.String(),
  preview: Type.String(),
};

export const Survey = Type.Object(surveyFields);

export const Page = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  position: Type.Integer(),
  question_count: Type.Integer(),
  logic: Type.Optional(Logic),
  sorting: Type.Optional(PageSorting),
  href: Type.String(),
});

export const SurveyDetails = Type.Object({
  ...surveyFields,
  pages: Type.Array(Type.Object({ ...Page.properties, questions: Type.Array(Question) })),
});

export const SURVEY_INCLUDES = [
  'response_count',
  'date_created',
  'date_modified',
  'language',
  'question_count',
  'analyze_url',
  'preview',
  'collect_stats',
] as const;
export const SURVEY_FILTERS = ['shared_with', 'shared_by', 'owned'] as const;

export const SurveyListItem = Type.Object({
  id: Type.String(),
  title: Type.String(),
  nickname: Type.String(),
  href: Type.String(),
  response_count: Type.Optional(Type.Integer()),
  date_created: Type.Optional(Type.String()),
  date_modified: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  question_count: Type.Optional(Type.Integer()),
  analyze_url: Type.Optional(Type.String()),
  preview: Type.Optional(Type.String()),
  collect_stats: Type.Optional(
    Type.Object({
      total_count: Type.Integer(),
      status_list: Type.Record(Type.String(), Type.Integer()),
      type_list: Type.Record(Type.String(), Type.Integer()),
    }),
  ),
});

export const SurveyList = Type.Array(SurveyListItem);

/** For bodies whose fields are all optional: a request with no body at all means `{}`. */
export async function emptyBodyIsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
