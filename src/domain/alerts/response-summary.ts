// What an alert says about one response, for the messages that tell an owner about it (response
// alert emails, Slack-compatible webhooks): the survey's title, the link to the response on the
// owner's responses page, and its first few answers in readable form. A response the owner's plan
// may not read in detail (the basic plan's limit, domain/responses/plan-limit.ts) is linked but
// its answers are left out, as the responses page leaves them out.
import type { Deps } from '../../context.js';
import { chunks } from '../../platform/lists.js';
import { isPaid, isPlan } from '../../platform/plans.js';
import { accessUrl } from '../../platform/regions.js';
import { designIndex } from '../responses/design-index.js';
import { readableUpTo } from '../responses/plan-limit.js';
import { answerText } from '../responses/readable.js';
import type { StoredPage } from '../responses/types.js';

/** How many answers an alert shows, and how long each may be. */
export const ALERT_ANSWERS = 3;
const MAX_ANSWER_CHARS = 200;

export interface ResponseSummary {
  responseId: string;
  surveyId: string;
  surveyTitle: string;
  ordinal: number;
  /** the response on its owner's responses page */
  url: string;
  /** the first answered questions, in survey order: question heading (plain text) and answer */
  answers: Array<{ question: string; answer: string }>;
  /** whether the response has more answered questions than `answers` shows */
  more: boolean;
}

/** Plain text of a heading that may hold markup. */
function plain(s: string): string {
  return s
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const clip = (s: string) => (s.length > MAX_ANSWER_CHARS ? `${s.slice(0, MAX_ANSWER_CHARS - 1)}…` : s);

/** The summaries of these responses, by response id (a response since deleted has none). */
export async function responseSummaries(
  deps: Deps,
  responseIds: string[],
): Promise<Map<string, ResponseSummary>> {
  const out = new Map<string, ResponseSummary>();
  const ids = [...new Set(responseIds)];
  for (const chunk of chunks(ids, 200)) {
    const rows = await deps.db.kysely
      .selectFrom('responses as r')
      .innerJoin('surveys as s', 's.id', 'r.survey_id')
      .innerJoin('users as u', 'u.id', 's.owner_id')
      .select([
        'r.id',
        'r.ordinal',
        'r.pages',
        's.id as survey_id',
        's.title',
        's.manage_token',
        's.design_version',
        's.calculated_variables',
        'u.region',
        'u.account_type',
      ])
      .where('r.id', 'in', chunk)
      .execute();
    for (const r of rows) {
      const base = accessUrl(deps.config, r.region);
      const upTo = readableUpTo(isPaid(isPlan(r.account_type) ? r.account_type : 'basic'));
      const readable = upTo === undefined || r.ordinal <= upTo;
      const answers: ResponseSummary['answers'] = [];
      let answered = 0;
      if (readable) {
        const index = await designIndex(deps, {
          id: r.survey_id,
          design_version: r.design_version,
          calculated_variables: r.calculated_variables,
        });
        let pages: StoredPage[] = [];
        try {
          pages = JSON.parse(r.pages) as StoredPage[];
        } catch {
          // a malformed stored value shows no answers
        }
        for (const p of pages)
          for (const qa of p.questions) {
            const text = qa.answers
              .map((a) => (a.upload_id ? '(a file)' : answerText(index, qa.id, a as Record<string, unknown>)))
              .filter((t) => t !== '')
              .join('; ');
            if (text === '') continue;
            answered++;
            if (answers.length < ALERT_ANSWERS) {
              const q = index.questions.get(qa.id);
              answers.push({ question: clip(plain(q?.heading ?? '') || 'A question'), answer: clip(text) });
            }
          }
      }
      out.set(r.id, {
        responseId: r.id,
        surveyId: r.survey_id,
        surveyTitle: r.title,
        ordinal: r.ordinal,
        url: `${base}/analyze/${r.manage_token}/responses/${r.id}`,
        answers,
        more: answered > answers.length,
      });
    }
  }
  return out;
}
