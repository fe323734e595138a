// Plans (users/me `account_type`) and what each allows. `basic` is the free plan; every other plan
// is paid. Question types and features are derived from the plan here, in one place, so users/me,
// the survey designer and the collectors all agree.
import { isOneOf } from './lists.js';
import { SCOPES, type Scope } from './scopes.js';

export const PLANS = ['basic', 'standard', 'advantage', 'premier', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export function isPlan(value: string): value is Plan {
  return isOneOf(PLANS, value);
}

/** A stored plan name as a Plan (a name that is none is a fault: accounts are written with plans). */
export function planOf(value: string): Plan {
  if (isPlan(value)) return value;
  throw new Error(`unknown plan ${value}`);
}

export function isPaid(plan: Plan): boolean {
  return plan !== 'basic';
}

export const QUESTION_TYPE_FLAGS = [
  'comment_box_question_type',
  'file_upload_question_type',
  'matrix_question_type',
  'ranking_question_type',
  'rating_question_type',
  'slider_question_type',
  'star_rating_question_type',
  'textbox_multiple_question_type',
  'video_question_type',
] as const;
export type QuestionTypeFlag = (typeof QUESTION_TYPE_FLAGS)[number];

/** The free plan lacks file upload, ranking and slider questions. No plan has video questions: this
 * service does not implement them, and users/me says so rather than promise them. */
export function questionTypes(plan: Plan): Record<QuestionTypeFlag, boolean> {
  const paid = isPaid(plan);
  return {
    comment_box_question_type: true,
    file_upload_question_type: paid,
    matrix_question_type: true,
    ranking_question_type: paid,
    rating_question_type: true,
    slider_question_type: paid,
    star_rating_question_type: true,
    textbox_multiple_question_type: true,
    video_question_type: false,
  };
}

/** Whether the plan may publish a survey's results as a read-only page by link (shared results):
 * every paid plan; the basic plan may not. */
export function mayShareResults(plan: Plan): boolean {
  return isPaid(plan);
}

/** The number of responses per survey a free account may read on response-detail endpoints. */
export const FREE_RESPONSE_DETAIL_LIMIT = 25;

export function features(plan: Plan) {
  const paid = isPaid(plan);
  return {
    collector_create_limit: 'unlimited',
    collector_email_enabled: paid,
    collector_thank_you_enabled: paid,
    create_question_limit: 'unlimited',
    num_free_responses: paid ? 'unlimited' : String(FREE_RESPONSE_DETAIL_LIMIT),
  };
}

const scopesByPlan = new Map<Plan, Scope[]>(
  PLANS.map((plan) => [plan, SCOPES.filter((s) => s.paid !== 'yes' || isPaid(plan)).map((s) => s.name)]),
);

/** Scopes available to a user on this plan (X-OAuth-Scopes-Available, users/me scopes.available). */
export function availableScopes(plan: Plan): readonly Scope[] {
  return scopesByPlan.get(plan) ?? scopesByPlan.get('basic')!;
}

const cap = (n: number, what: string) =>
  n === 0 ? `no cap on ${what}` : `at most ${n.toLocaleString('en')} ${what}`;

/** What a plan allows, in words (the account page), given the server's per-plan limits (0 = no cap). */
export function planInWords(
  plan: Plan,
  limits: { contacts: number; recipients: number; dailySends: number },
): string[] {
  if (!isPaid(plan))
    return [
      `Only the first ${FREE_RESPONSE_DETAIL_LIMIT} responses of each survey can be read, analysed and exported.`,
      'Surveys are sent by web link; no email invitations.',
      'No file upload, ranking or slider questions.',
      `Contacts: ${cap(limits.contacts, 'contacts')}.`,
    ];
  return [
    'Every response can be read, analysed and exported.',
    'Every question type (file upload, ranking and slider included) and every collector type, email invitations included.',
    `Email invitations: ${cap(limits.recipients, 'recipients on one message')}, ${cap(limits.dailySends, 'emails sent a day by the plan (the daily send cap below also holds)')}.`,
    `Contacts: ${cap(limits.contacts, 'contacts')}.`,
  ];
}
