// The Slack-compatible body of a webhook delivery (format 'slack'): an incoming webhook's
// `{"text": …}`, one line saying what happened. Slack reads `&`, `<` and `>` as markup, so text
// from users (a survey's title) has them escaped the way its docs ask.

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

export function slackBody(
  eventType: string,
  facts: { surveyId: string | null; surveyTitle: string | null; objectId: string },
): string {
  const what = WHAT[eventType] ?? eventType;
  const survey = facts.surveyId
    ? ` in survey ${facts.surveyTitle ? `“${slackEscape(facts.surveyTitle)}” ` : ''}(${facts.surveyId})`
    : '';
  const object = eventType.startsWith('survey_') ? '' : ` — id ${facts.objectId}`;
  return JSON.stringify({ text: `${what}${survey}${object}.` });
}
