// Scheduled summaries, sent: the worker's `report-summaries` job (outbox/worker.ts) finds the
// schedules whose `next_send_at` has come, writes each survey's headline figures (responses in the
// period and in all, completion rate, per question its top answer or average) into one email to the
// owner, and queues it through the outbox in the transaction that moves `next_send_at` on, by a
// conditional UPDATE on the due time: one period is sent once however many workers run. An owner
// who opted out of alerts on the account page (account_preferences.alerts_opt_out) gets none; the
// period is passed over all the same. A worker that was stopped for several periods sends one
// summary for the last, not one per period missed. The email carries the survey's PDF report (all
// its responses) by reference (emails.attachment), rendered by the worker as it sends; a survey
// whose report the owner's plan cannot read gets none, and its email says the report is on the
// results page.
import { PassThrough } from 'node:stream';
import type { Region } from '../../config.js';
import type { Deps } from '../../context.js';
import { EmailAttachmentRef, type NewEmail, queueEmail } from '../../db/outbox-queue.js';
import { ApiError } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/escape.js';
import { parseAs } from '../../platform/json.js';
import { isPaid, planOf } from '../../platform/plans.js';
import { accessUrl } from '../../platform/regions.js';
import { localTime } from '../../platform/time-zones.js';
import { alertsOptedOut } from '../alerts/alerts.js';
import { completionText, statusFigures } from '../analysis/figures.js';
import { rollups } from '../analysis/rollups.js';
import { checkExportAllowed, downloadName, type ExportSpec, writePdfReport } from '../exports/exports.js';
import { emailLayout } from '../invitations/email-body.js';
import { surveyEmailTheme } from '../invitations/send.js';
import { designIndex } from '../responses/design-index.js';
import { readableFilters } from '../responses/plan-limit.js';
import { choiceLabel } from '../responses/readable.js';
import { filtered, type ResponseFilters } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import { surveyUrls } from '../surveys/urls.js';
import { nextSendAt, previousSendAt } from './schedule-times.js';
import { ruleOf } from './schedules.js';

/** At most this many questions' lines in a summary (the rest are on the results page). */
const QUESTION_LINES = 8;

export interface SummaryFigures {
  inPeriod: number;
  total: number;
  completion: string;
  /** "Question: top answer (share)" or "Question: average n". */
  questions: Array<{ question: string; answer: string }>;
  more: boolean;
}

const plain = (text: string) => text.replace(/<[^>]*>/g, '').trim();
const round1 = (n: number) => Math.round(n * 10) / 10;

/** The headline figures of the survey's responses the owner's plan may read, `from` ≤ created < `to`
 * for the period. */
export async function summaryFigures(
  deps: Deps,
  survey: SurveyRow,
  accountType: string,
  from: string,
  to: string,
): Promise<SummaryFigures> {
  const all: ResponseFilters = readableFilters(planOf(accountType), { surveyId: survey.id });
  const index = await designIndex(deps, survey);
  const questions = index.pages.flatMap((p) => p.questions).filter((q) => q.family !== 'presentation');
  const [byStatus, period, results] = await Promise.all([
    filtered(deps, all)
      .select(['response_status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('response_status')
      .execute(),
    filtered(deps, all)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('date_created', '>=', from)
      .where('date_created', '<', to)
      .executeTakeFirstOrThrow(),
    rollups(deps, index, all, questions),
  ]);
  const status = statusFigures(new Map(byStatus.map((r) => [r.response_status, Number(r.n)])));
  const lines: SummaryFigures['questions'] = [];
  for (const { question: q, summary: s } of results.items) {
    const title = plain(q.label) || `Question ${q.position}`;
    const stats = s.stats ?? s.rows?.find((r) => r.stats)?.stats;
    if (s.choices?.length && s.answered > 0) {
      const top = s.choices.reduce((a, b) => (b.count > a.count ? b : a));
      const choice = q.choices.get(top.id);
      if (top.count > 0 && choice)
        lines.push({
          question: title,
          answer: `${plain(choiceLabel(q, choice)) || top.id} (${Math.round((top.count / s.answered) * 100)}% of ${s.answered})`,
        });
    } else if (stats && s.answered > 0) {
      lines.push({ question: title, answer: `average ${round1(stats.mean)} (${s.answered} answered)` });
    }
  }
  return {
    inPeriod: Number(period.n),
    total: status.total,
    completion: completionText(status),
    questions: lines.slice(0, QUESTION_LINES),
    more: lines.length > QUESTION_LINES,
  };
}

/** An email's attachment, rendered just before sending. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

const PDF: ExportSpec = { format: 'pdf', values: 'text', bom: false };

/** Whether the owner's plan lets the survey's whole PDF report be made (a basic plan reads only a
 * survey's first responses: over that, 402/1005 and the summary says the report is on the results
 * page instead). */
async function reportAllowed(deps: Deps, survey: SurveyRow, accountType: string): Promise<boolean> {
  try {
    await checkExportAllowed(deps, isPaid(planOf(accountType)), survey, PDF);
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}

/** The files an outbox email's `attachment` reference stands for, made as the worker sends it: for a
 * summary, the survey's PDF report of all its responses. None when the report cannot be made any
 * more (the survey is gone, the plan's limit was passed meanwhile, the reference is unknown): the
 * email goes without it rather than failing. */
export async function summaryAttachments(deps: Deps, ref: string | null): Promise<MailAttachment[]> {
  if (!ref) return [];
  try {
    const { survey_id } = parseAs(EmailAttachmentRef, ref);
    const chunks: Buffer[] = [];
    const out = new PassThrough();
    out.on('data', (c: Buffer) => chunks.push(c));
    await writePdfReport(deps, survey_id, {}, out);
    const survey = await deps.db.kysely
      .selectFrom('surveys')
      .select(['id', 'title'])
      .where('id', '=', survey_id)
      .executeTakeFirst();
    const filename = survey ? downloadName(survey, 'pdf') : 'report.pdf';
    return [{ filename, contentType: 'application/pdf', content: Buffer.concat(chunks) }];
  } catch (err) {
    deps.log.warn({ err, ref }, 'summary sent without its report');
    return [];
  }
}

/** The email's words: subject, plain text and HTML in the survey's theme. */
function summaryEmail(
  base: string,
  survey: SurveyRow,
  frequency: 'weekly' | 'monthly',
  period: { from: string; to: string; zone: string },
  f: SummaryFigures,
  theme: Awaited<ReturnType<typeof surveyEmailTheme>>,
  attached: boolean,
): { subject: string; text: string; html: string } {
  const results = surveyUrls(base, survey).analyze_url;
  const account = `${base}/account`;
  const subject = `${frequency === 'weekly' ? 'Weekly' : 'Monthly'} summary: ${survey.title}`;
  const range = `${localTime(period.from, period.zone)} to ${localTime(period.to, period.zone)} (${period.zone})`;
  const facts = [
    ['Responses this period', String(f.inPeriod)],
    ['Responses in all', String(f.total)],
    ['Completion rate', f.completion],
  ];
  const text = [
    `${subject}`,
    range,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(f.questions.length ? ['', ...f.questions.map((q) => `${q.question}: ${q.answer}`)] : []),
    ...(f.more ? ['…'] : []),
    '',
    attached ? 'The full report is attached (PDF).' : `The full report is on the results page.`,
    `See the results: ${results}`,
    '',
    `Stop these emails: ${account} (or the survey's summary setting).`,
  ].join('\n');
  const cell = 'padding:4px 12px 4px 0;text-align:left;vertical-align:top';
  const inner = [
    `<h1 style="margin:0 0 12px;font-size:20px">${escapeHtml(subject)}</h1>`,
    `<p style="color:#4a5560">${escapeHtml(range)}</p>`,
    `<table role="presentation" style="border-collapse:collapse">${facts
      .map(
        ([k, v]) =>
          `<tr><th style="${cell}">${escapeHtml(k)}</th><td style="${cell}">${escapeHtml(v)}</td></tr>`,
      )
      .join('')}</table>`,
    f.questions.length
      ? `<dl style="margin:16px 0;padding:0">${f.questions
          .map(
            (q) =>
              `<dt style="font-weight:bold;margin:12px 0 2px">${escapeHtml(q.question)}</dt><dd style="margin:0;padding-left:12px;border-left:3px solid ${theme.accent}">${escapeHtml(q.answer)}</dd>`,
          )
          .join('')}</dl>`
      : '',
    `<p>${attached ? 'The full report is attached (PDF).' : 'The full report is on the results page.'}</p>`,
    `<p style="margin:24px 0"><a href="${escapeHtml(results)}" style="display:inline-block;padding:12px 20px;background:${theme.accent};color:${theme.onAccent ?? '#ffffff'};text-decoration:none;border-radius:6px;font-weight:bold">See the results</a></p>`,
  ].join('\n');
  const footer = `<p style="margin:16px 0 0;font-size:13px;color:#4a5560;text-align:center"><a href="${escapeHtml(account)}" style="color:#4a5560">Stop these emails</a> on your account page, or change the survey's summary setting.</p>`;
  return { subject, text, html: emailLayout(inner, subject, theme, 'en', footer) };
}

/** Queues every scheduled summary due now (at most 200 a run); returns how many were queued. */
export async function sendDueSummaries(deps: Deps): Promise<number> {
  const k = deps.db.kysely;
  const now = deps.clock.now().toISOString();
  const due = await k
    .selectFrom('report_schedules as r')
    .innerJoin('surveys as s', 's.id', 'r.survey_id')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .selectAll('r')
    .select(['u.email', 'u.status', 'u.region', 'u.account_type'])
    .where('r.next_send_at', '<=', now)
    .orderBy('r.next_send_at')
    .limit(200)
    .execute();
  let queued = 0;
  for (const r of due) {
    const rule = ruleOf(r);
    const from = previousSendAt(rule, r.next_send_at);
    const next = nextSendAt(rule, now);
    const wanted = r.status === 'active' && !(await alertsOptedOut(deps, r.owner_id));
    let email: NewEmail | null = null;
    if (wanted) {
      const survey = await k
        .selectFrom('surveys')
        .selectAll()
        .where('id', '=', r.survey_id)
        .executeTakeFirst();
      if (survey) {
        const figures = await summaryFigures(deps, survey, r.account_type, from, r.next_send_at);
        const base = accessUrl(deps.config, r.region as Region);
        const theme = await surveyEmailTheme(deps, survey.id, base);
        const attached = await reportAllowed(deps, survey, r.account_type);
        const parts = summaryEmail(
          base,
          survey,
          rule.frequency,
          { from, to: r.next_send_at, zone: rule.timeZone },
          figures,
          theme,
          attached,
        );
        const [id] = await deps.ids.take(1);
        email = {
          id,
          ownerId: r.owner_id,
          to: r.email,
          ...parts,
          purpose: 'report',
          refId: r.survey_id,
          attachment: attached ? { kind: 'survey_report', survey_id: survey.id } : null,
        };
      }
    }
    const sent = await k.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('report_schedules')
        .set({ next_send_at: next, last_sent_at: email ? now : r.last_sent_at })
        .where('survey_id', '=', r.survey_id)
        .where('next_send_at', '=', r.next_send_at)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0 || !email) return false;
      await queueEmail(deps, trx, email);
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}
