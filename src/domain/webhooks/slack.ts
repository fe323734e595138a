// The Slack-compatible body of a webhook delivery (format 'slack'): an incoming webhook's
// `{"text": …}`, which Slack and Microsoft Teams incoming webhooks both post as a message. It says
// what happened in which survey (by name); for a response, it adds the link to the response on the
// owner's responses page and its first few answers (domain/alerts/response-summary.ts). Links are
// bare URLs on a line of their own, which both apps turn into links. Slack reads `&`, `<` and `>`
// as markup, so text from users (titles, answers) has them escaped the way its docs ask.
import type { Deps } from '../../context.js';
import { chunks } from '../../platform/lists.js';
import { type ResponseSummary, responseSummaries } from '../alerts/response-summary.js';

const WHAT: Record<string, string> = {
  response_completed: 'A response was completed',
  response_updated: 'A response was updated',
  response_disqualified: 'A response was disqualified',
  response_created: 'A response was started',
  response_deleted: 'A response was deleted',
  response_overquota: 'A response went over quota',
  collector_created: 'A collector was created',
  collector_updated: 'A collector was changed',
  collector_deleted: 'A collector was deleted',
  survey_created: 'A survey was created',
  survey_updated: 'A survey was changed',
  survey_deleted: 'A survey was deleted',
};

const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What Slack-style bodies of a batch name: survey titles, and summaries of the responses. */
export interface SlackFacts {
  titles: ReadonlyMap<string, string>;
  responses: ReadonlyMap<string, ResponseSummary>;
}

export function slackBody(
  eventType: string,
  facts: {
    surveyId: string | null;
    surveyTitle: string | null;
    objectId: string;
    response?: ResponseSummary;
  },
): string {
  const what = WHAT[eventType] ?? eventType;
  const survey = facts.surveyId
    ? ` in survey ${facts.surveyTitle ? `“${slackEscape(facts.surveyTitle)}” ` : ''}(${facts.surveyId})`
    : '';
  const r = eventType === 'response_deleted' ? undefined : facts.response;
  const object = eventType.startsWith('survey_')
    ? ''
    : r
      ? ` — response #${r.ordinal}`
      : ` — id ${facts.objectId}`;
  const lines = [`${what}${survey}${object}.`];
  if (r) {
    for (const a of r.answers) lines.push(`• ${slackEscape(a.question)}: ${slackEscape(a.answer)}`);
    if (r.more) lines.push('…');
    lines.push(`View the response: ${r.url}`);
  }
  return JSON.stringify({ text: lines.join('\n') });
}

/** The titles and response summaries the Slack-style bodies of these events need. */
export async function slackFacts(
  deps: Deps,
  events: Array<{ surveyId: string | null; responseId: string | null }>,
): Promise<SlackFacts> {
  const surveyIds = [...new Set(events.flatMap((e) => (e.surveyId ? [e.surveyId] : [])))];
  const titles = new Map<string, string>();
  for (const chunk of chunks(surveyIds, 500))
    for (const r of await deps.db.kysely
      .selectFrom('surveys')
      .select(['id', 'title'])
      .where('id', 'in', chunk)
      .execute())
      titles.set(r.id, r.title);
  const responses = await responseSummaries(
    deps,
    events.flatMap((e) => (e.responseId ? [e.responseId] : [])),
  );
  return { titles, responses };
}
