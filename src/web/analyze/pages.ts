// The analyze page (the survey's analyze_url), one response (a response's analyze_url) and the
// summary page (summary_url). The manage token in the URL names the survey; the signed-in user's
// access to analyze it (owner, or a share with analyze access) decides. Filters are a plain GET
// form: dates and collector. The download form (/analyze/<token>/export) streams an export with
// the page's filters through the exports domain.
import { open } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { isComparable } from '../../domain/analysis/crosstab.js';
import { completionParts, completionText, percent, statusFigures } from '../../domain/analysis/figures.js';
import {
  type FilterQuery,
  filterQuery,
  filterSearch,
  isFiltered,
  parseFilter,
  type ResultFilter,
  responseFilters,
} from '../../domain/analysis/filters.js';
import { headline } from '../../domain/analysis/overview.js';
import { analyzeResults } from '../../domain/analysis/results.js';
import type { QuestionSummary } from '../../domain/analysis/rollups.js';
import { isNps, npsOf, type QuizDistribution, ratingsOf } from '../../domain/analysis/scores.js';
import { confidenceOf } from '../../domain/analysis/significance.js';
import type { Trend, TrendPoint } from '../../domain/analysis/trend.js';
import { collectorNames } from '../../domain/collectors/collectors.js';
import {
  checkExportAllowed,
  downloadName,
  type ExportSpec,
  writeExportTo,
} from '../../domain/exports/exports.js';
import { isCompared } from '../../domain/exports/formats.js';
import { EXPORT_FORMATS, FILE_TYPES } from '../../domain/exports/writers.js';
import { listQuotas } from '../../domain/quotas/quotas.js';
import { designIndex, type IndexedQuestion } from '../../domain/responses/design-index.js';
import { hiddenByPlan, readableFilters, readableUpTo } from '../../domain/responses/plan-limit.js';
import { choiceLabel as labelOf } from '../../domain/responses/readable.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import type { Choice } from '../../domain/surveys/question-schema.js';
import { surveyUpload } from '../../domain/uploads/uploads.js';
import { withOffset } from '../../platform/dates.js';
import { ApiError } from '../../platform/errors.js';
import { FREE_RESPONSE_DETAIL_LIMIT, isPaid, type Plan } from '../../platform/plans.js';
import { sendPage } from '../account/frame.js';
import { alertsUrl } from '../collect/alerts.js';
import { type Html, html, raw } from '../html.js';
import { page as layout, type SurveyTab, surveyHeader, workspacePage } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pageArea } from '../page-area.js';
import { requireSignedIn } from '../session.js';
import { richText } from '../surveys/render-question.js';
import { planOf } from '../typed.js';
import { barChart, columnChart, gridChart, trendChart } from './charts.js';
import { compareForm, compareResult } from './compare.js';
import { dropOffSection, medianTimeFigure } from './dropoff.js';
import { filterForm, hiddenFilter, matchCount, STATUS_LABELS } from './filter-form.js';
import { quotaCounts } from './quota-counts.js';
import { reportSchedulePages, scheduleUrl } from './report-schedule.js';
import { shareResultsLink } from './share-results.js';
import { sentimentPanel, wordsPanel } from './text.js';

/** `f` without a collector that is not the survey's. */
function knownCollector(f: ResultFilter, collectors: Array<{ id: string }>): ResultFilter {
  return collectors.some((c) => c.id === f.collector) ? f : { ...f, collector: undefined };
}

/** The download form: the page's filter rides along; completeness can be chosen here. */
function downloadForm(token: string, f: ResultFilter, compare?: string): Html {
  return html`<form class="filters" method="get" action="/analyze/${token}/export" aria-label="Download responses">
${hiddenFilter(f, ['status'])}${compare ? html`<input type="hidden" name="compare" value="${compare}">` : ''}
<div><label for="format">File</label><select id="format" name="format"><option value="csv">All responses (CSV)</option><option value="xlsx">All responses (Excel XLSX)</option><option value="summary">Summary (CSV${compare ? ', compared' : ''})</option><option value="summary_xlsx">Summary (Excel XLSX${compare ? ', compared' : ''})</option><option value="spss">SPSS syntax (labels for the numeric CSV)</option><option value="pdf">Report (PDF${compare ? ', compared' : ''})</option><option value="pptx">Slides (PowerPoint PPTX${compare ? ', compared' : ''})</option></select></div>
<fieldset><legend>Values</legend><label><input type="radio" name="values" value="text" checked> Answer text</label><label><input type="radio" name="values" value="numeric"> Numerical value</label></fieldset>
<fieldset><legend>Responses to include</legend>${Object.entries(STATUS_LABELS).map(
    ([s, label]) =>
      html`<label><input type="checkbox" name="status" value="${s}"${f.status.some((x) => x === s) ? raw(' checked') : ''}> ${label}</label>`,
  )}</fieldset>
<div><label><input type="checkbox" name="bom" value="1"> Byte order mark (Excel)</label></div>
<div><button type="submit">Download</button></div></form>`;
}

/** The page as it stands (filter and compare) as a PDF report or a PowerPoint deck. */
function reportLinks(token: string, f: ResultFilter, compare?: string): Html {
  const href = (format: string) =>
    `/analyze/${token}/export?${filterQuery(f, compare ? { format, compare } : { format })}`;
  return html`<p class="report-links">Download these results as a <a href="${href('pdf')}" id="report-pdf">PDF report</a> or <a href="${href('pptx')}" id="report-pptx">PowerPoint slides</a> (with this filter${compare ? ' and comparison' : ''}).</p>`;
}

function send(reply: FastifyReply, status: number, title: string, body: Html): FastifyReply {
  return sendPage(reply, layout(title, body), status, { noindex: true });
}

/** A page of the survey's results: the workspace header, then the survey's own head and tabs. */
async function surveyPage(
  deps: Deps,
  reply: FastifyReply,
  found: Analyzable,
  tab: SurveyTab,
  title: string,
  body: Html,
): Promise<FastifyReply> {
  const markup = await workspacePage(
    deps,
    reply,
    found.user,
    title,
    html`${surveyHeader(found.survey, tab)}${body}`,
    {
      section: 'surveys',
    },
  );
  return sendPage(reply, markup, 200, { noindex: true });
}

interface Analyzable {
  survey: SurveyRow;
  plan: Plan;
  user: User;
}

const notFound = (reply: FastifyReply) =>
  send(
    reply,
    404,
    'Not found',
    html`<h1>Not found</h1><p>This link is not valid. Ask the survey’s owner for a new one.</p>`,
  );

/** The survey a manage token names, if the signed-in user may analyze it, and the user's plan
 * (which responses it may read); otherwise the reply is sent (sign-in redirect or not-found page)
 * and the result is null. */
async function surveyToAnalyze(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): Promise<Analyzable | null> {
  const user = await requireSignedIn(deps, request, reply);
  if (!user) return null;
  try {
    return {
      survey: await managedSurvey(deps, { user }, token, 'analyze', 'read'),
      plan: planOf(user),
      user,
    };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    notFound(reply);
    return null;
  }
}

/** Seconds a refused heavy request is told to wait. */
const HEAVY_RETRY_SECONDS = 5;

/** Admits one heavy results request of the signed-in account (deps.heavyRequests): its release, or
 * null with the 429 page sent when the account already runs as many as it may. */
function heavyRequest(deps: Deps, reply: FastifyReply, found: Analyzable): (() => void) | null {
  const release = deps.heavyRequests.enter(found.user.id);
  if (release) return release;
  deps.metrics.heavyRefused.inc();
  const most = deps.heavyRequests.perAccount;
  reply.header('retry-after', String(HEAVY_RETRY_SECONDS));
  send(
    reply,
    429,
    'Too many results pages at once',
    html`<h1>Too many results pages at once</h1><div role="alert" class="try-again"><p><strong>Your account is already loading ${most} results ${most === 1 ? 'page or download' : 'pages or downloads'}.</strong></p><p>Results of large surveys take a moment to compute. Wait until ${most === 1 ? 'it has' : 'they have'} finished (about ${HEAVY_RETRY_SECONDS} seconds), then reload this page.</p></div>`,
  );
  return null;
}

/** On a plan that cannot read every response, which ones the page shows. */
function planNotice(plan: Plan, survey: SurveyRow): Html | string {
  const hidden = hiddenByPlan(plan, survey);
  if (hidden === 0) return '';
  return html`<p class="notice" role="status">Your ${plan} plan shows the first ${FREE_RESPONSE_DETAIL_LIMIT} responses of this survey; ${hidden} more ${hidden === 1 ? 'is' : 'are'} not shown or counted. Upgrade to see them all.</p>`;
}

const plain = (text: string) => text.replace(/<[^>]*>/g, '');

/** One question's results: its chart (by family), figures and latest written answers. */
export function questionResult(
  q: IndexedQuestion,
  summary: QuestionSummary,
  texts: string[] | undefined,
  // Shares are of the responses shown the question (summary.answered + summary.skipped), not of this.
  _total: number,
  words: Html | string = '',
): Html {
  const title = plain(q.label);
  let chart: Html | string = '';
  if (q.family === 'single_choice' || q.family === 'multiple_choice') {
    const bars = [...q.choices.values()].map((c) => ({
      label: c.text || 'Image',
      count: summary.choices?.find((x) => x.id === c.id)?.count ?? 0,
    }));
    if (q.other) bars.push({ label: q.other.text, count: summary.other_answered ?? 0 });
    chart = barChart(title, bars, summary.answered);
  } else if (isNps(q)) {
    chart = npsResult(q, summary, title);
  } else if (q.family === 'matrix' && q.subtype === 'rating' && q.rows.size === 1) {
    chart = ratingResult(q, summary, title);
  } else if (q.family === 'matrix' && q.subtype !== 'menu') {
    const averages = ratingsOf(q, summary);
    const rows = [...q.rows.values()];
    const choices = [...q.choices.values()];
    chart = gridChart(
      title,
      rows.map((r) => r.text || title),
      choices.map((c) => c.text || String(c.weight ?? c.position)),
      rows.map((r) => {
        const rs = summary.rows?.find((x) => x.id === r.id);
        return choices.map((c) => rs?.choices?.find((x) => x.id === c.id)?.count ?? 0);
      }),
    );
    if (averages)
      chart = html`${chart}<ul class="averages">${averages.map(
        (r) =>
          html`<li>${plain(q.rows.get(r.rowId)?.text ?? '')}: average ${r.average === null ? '—' : round2(r.average)}</li>`,
      )}</ul>`;
  } else if (q.family === 'matrix') {
    const rows = [...q.rows.values()];
    const cols = [...q.cols.values()];
    const labels: string[] = [];
    const counts: number[][] = rows.map(() => []);
    for (const { col, choices } of cols)
      for (const c of choices.values()) {
        labels.push(`${col.text}: ${c.text}`);
        rows.forEach((r, i) => {
          const rs = summary.rows?.find((x) => x.id === r.id);
          counts[i].push(
            rs?.cols?.find((x) => x.id === col.id)?.choices.find((x) => x.id === c.id)?.count ?? 0,
          );
        });
      }
    chart = gridChart(
      title,
      rows.map((r) => r.text),
      labels,
      counts,
    );
  }
  // Of the responses shown the question (figures.ts): those its display logic hid are not counted.
  const answeredShare = percent(summary.answered, summary.answered + summary.skipped);
  const stats = summary.stats ?? summary.rows?.find((r) => r.stats)?.stats;
  const statsLine = stats
    ? html`<p>Minimum ${stats.min}, maximum ${stats.max}, mean ${Math.round(stats.mean * 100) / 100}, median ${stats.median}.</p>`
    : '';
  const list =
    texts && texts.length > 0
      ? html`<details open><summary>Latest answers (${texts.length})</summary><ul class="texts">${texts.map((t) => html`<li>${t}</li>`)}</ul></details>`
      : '';
  return html`<section class="q-result" id="r${q.id}" data-family="${q.family}"><h3>${richText(q.label)}</h3>
<p class="muted q-figures">Answered: ${summary.answered} · Skipped: ${summary.skipped}${summary.hidden > 0 ? ` · Hidden by display logic: ${summary.hidden}` : ''}${answeredShare === null ? '' : ` · ${answeredShare}% answered`}</p>
${chart}${statsLine}${list}${words}</section>`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const choiceLabel = (q: IndexedQuestion, c: Choice) => plain(labelOf(q, c));

/** A 0–10 question: the score (promoters − detractors), the three groups, then every answer. */
function npsResult(q: IndexedQuestion, summary: QuestionSummary, title: string): Html {
  const n = npsOf(q, summary);
  const groups = barChart(
    `${title}: promoters, passives, detractors`,
    [
      { label: 'Promoters (9–10)', count: n.promoters },
      { label: 'Passives (7–8)', count: n.passives },
      { label: 'Detractors (0–6)', count: n.detractors },
    ],
    n.answered,
  );
  const counts = summary.rows?.[0]?.choices ?? [];
  const each = barChart(
    `${title}: answers 0 to 10`,
    [...q.choices.values()].map((c) => ({
      label: choiceLabel(q, c),
      count: counts.find((x) => x.id === c.id)?.count ?? 0,
    })),
    n.answered,
  );
  return html`<div class="figures"><div class="figure nps-score" id="nps${q.id}"><span class="n">${n.answered > 0 ? (n.score > 0 ? `+${n.score}` : n.score) : '—'}</span>Net Promoter Score (−100 to 100)</div></div>
${groups}<details><summary>Every answer, 0 to 10</summary>${each}</details>`;
}

/** A one-row rating (stars): the average and how many gave each weight. */
function ratingResult(q: IndexedQuestion, summary: QuestionSummary, title: string): Html | string {
  const [r] = ratingsOf(q, summary) ?? [];
  if (!r) return '';
  const top = Math.max(0, ...r.distribution.map((d) => d.weight));
  const average = r.average === null ? '—' : round2(r.average);
  return html`<div class="figures"><div class="figure rating-average" id="avg${q.id}"><span class="n">${average}</span>Average rating (of ${top})</div></div>
${barChart(
  `${title}: distribution`,
  [...r.distribution].reverse().map((d) => ({
    label: choiceLabel(q, q.choices.get(d.choiceId)!),
    count: d.count,
  })),
  r.answered,
)}`;
}

/** Responses per period since the first one, and the share completed. */
function trendResult(t: Trend): Html | string {
  if (t.points.length === 0) return '';
  const per = { day: 'day', week: 'week (from Monday)', month: 'month' }[t.by];
  const pct = (p: TrendPoint) => {
    const r = percent(p.completed, p.total);
    return r === null ? '—' : `${r}%`;
  };
  const all = t.points.reduce(
    (a, p) => ({ completed: a.completed + p.completed, total: a.total + p.total }),
    { completed: 0, total: 0 },
  );
  return html`<section class="q-result" id="trend"><h3>Responses over time</h3>
<p>Completion rate: <strong id="trend-rate">${completionText(all)}</strong></p>
<p class="muted">Responses begun per ${per} (columns) and the share of them completed (line, on a scale of 0 to 100%).</p>
${trendChart(
  `Responses per ${t.by} and completion rate`,
  t.points.map((p) => ({ label: p.start, total: p.total, completed: p.completed })),
)}
<details><summary>Figures per ${t.by}</summary><table class="figures-table"><thead><tr><th scope="col">${t.by === 'day' ? 'Day' : 'From'}</th><th scope="col" class="num">Responses</th><th scope="col" class="num">Completed</th><th scope="col" class="num">Completion rate</th></tr></thead>
<tbody>${t.points.map((p) => html`<tr><th scope="row">${p.start}</th><td class="num">${p.total}</td><td class="num">${p.completed}</td><td class="num">${pct(p)}</td></tr>`)}</tbody></table></details></section>`;
}

/** A quiz: how the responses scored (bands of points) and the average. */
function quizResult(d: QuizDistribution): Html {
  const label = (b: { from: number; to: number }) =>
    b.from === b.to ? `${b.from} ${b.from === 1 ? 'point' : 'points'}` : `${b.from}–${b.to} points`;
  return html`<section class="q-result" id="quiz-distribution"><h2>Quiz scores</h2>
<div class="figures"><div class="figure" id="quiz-average"><span class="n">${d.average === null ? '—' : round2(d.average)}</span>Average score (of ${d.totalScore})</div>
<div class="figure"><span class="n">${d.responses}</span>Scored responses</div></div>
${barChart(
  'Responses per quiz score',
  d.bands.map((b) => ({ label: label(b), count: b.count })),
  d.responses,
)}</section>`;
}

/** `attachment` with the file's name: plain ASCII for old clients, UTF-8 (RFC 6266) for the rest. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A stream of a stored file, or null when it is missing. */
async function openFile(path: string) {
  const fh = await open(path, 'r').catch(() => null);
  return fh ? fh.createReadStream() : null;
}

export function analyzePages(deps: Deps) {
  return pageArea('analyze-pages', deps, [analyzeRoutes, reportSchedulePages]);
}

function analyzeRoutes(app: PageApp, deps: Deps): void {
  app.get<{ Params: { token: string }; Querystring: FilterQuery }>(
    '/analyze/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      const found = await surveyToAnalyze(deps, request, reply, request.params.token);
      if (!found) return reply;
      const { survey, plan } = found;
      const token = request.params.token;
      const [collectors, index, quotas] = await Promise.all([
        collectorNames(deps, survey.id),
        designIndex(deps, survey),
        listQuotas(deps, survey),
      ]);
      const f = knownCollector(parseFilter(request.query, index), collectors);
      const filters = readableFilters(plan, responseFilters(survey.id, f));
      const byId = typeof request.query.compare === 'string' ? request.query.compare : '';
      const confidence = confidenceOf(request.query.confidence);
      const release = heavyRequest(deps, reply, found);
      if (!release) return reply;
      let computed: Awaited<ReturnType<typeof analyzeResults>>;
      try {
        computed = await analyzeResults(deps, survey, index, filters, index.questions.get(byId));
      } finally {
        release();
      }
      reply.header('x-results-cache', computed.cache);
      const { total, items, compared, texts, words, quiz, trend, dropOff, sentiments, medianSeconds } =
        computed.results;
      const form = filterForm(
        `/analyze/${token}`,
        f,
        index,
        collectors,
        compared ? { compare: compared.by.id, confidence: String(confidence) } : {},
      );
      const download = downloadForm(token, f, compared?.by.id);
      const body = html`<h2>Results by question</h2>
${form}
${download}
${reportLinks(token, f, compared?.by.id)}
${shareResultsLink(token, f)}
<p><a href="${alertsUrl(token)}">Response alerts</a>: an email on each response, or a daily digest.</p>
<p><a href="${scheduleUrl(token)}">Scheduled summary</a>: the headline figures by email, every week or month.</p>
<p><a href="/analyze/${token}/flagged">Flagged responses</a>: responses that looked automated or duplicate, kept out of these results until you release them.</p>
${planNotice(plan, survey)}
${matchCount(total, f)}
${quotaCounts(quotas)}
${isFiltered(f) ? html`<p><a href="/analyze/${token}/responses${filterSearch(f)}">See the matching responses</a></p>` : ''}
${trendResult(trend)}
${medianTimeFigure(medianSeconds)}
${dropOffSection(index, dropOff)}
${compareForm(`/analyze/${token}`, f, index, compared?.by, confidence)}
${compared ? compareResult(compared, confidence) : ''}
${quiz ? quizResult(quiz) : ''}
${items.map((it) =>
  questionResult(
    it.question,
    it.summary,
    texts.get(it.question.id),
    total,
    html`${sentimentPanel(token, f, it.question, sentiments.get(it.question.id))}${wordsPanel(token, f, it.question, words.get(it.question.id), total)}`,
  ),
)}`;
      return surveyPage(deps, reply, found, 'analyze', `${survey.title}: results`, body);
    },
  );

  app.get<{ Params: { token: string }; Querystring: FilterQuery }>(
    '/analyze/:token/export',
    { schema: { hide: true } },
    async (request, reply) => {
      const found = await surveyToAnalyze(deps, request, reply, request.params.token);
      if (!found) return reply;
      const { survey, plan } = found;
      const q = request.query;
      const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
      const format = EXPORT_FORMATS.find((f) => f === one(q.format)) ?? 'csv';
      const index = await designIndex(deps, survey);
      const f = parseFilter(q, index);
      const filters = responseFilters(survey.id, f);
      const by = index.questions.get(one(q.compare));
      const spec: ExportSpec = {
        format,
        values: one(q.values) === 'numeric' ? 'numeric' : 'text',
        bom: one(q.bom) === '1',
        collectorIds: filters.collectorIds,
        status: filters.status,
        startCreated: filters.startCreated,
        endCreated: filters.endCreated,
        answers: filters.answers,
        // the compared question splits the summary (ignored by the other formats and when unfit)
        compare: by && isComparable(by) && isCompared(format) ? by.id : undefined,
      };
      let upTo: number;
      const release = heavyRequest(deps, reply, found);
      if (!release) return reply;
      try {
        upTo = await checkExportAllowed(deps, isPaid(plan), survey, spec);
      } catch (err) {
        release();
        if (!(err instanceof ApiError)) throw err;
        return send(
          reply,
          402,
          'Upgrade to download',
          html`<h1>Upgrade to download these responses</h1><p>${err.message}</p><p><a href="/analyze/${request.params.token}">Back to the results</a></p>`,
        );
      }
      const body = new PassThrough();
      // The account's slot is held until the file is written (or the download given up).
      writeExportTo(deps, survey, spec, upTo, body)
        .catch((err) => {
          request.log.error({ err }, 'export download failed');
          body.destroy(err instanceof Error ? err : new Error(String(err)));
        })
        .finally(release);
      return reply
        .type(FILE_TYPES[format].mime)
        .header('content-disposition', `attachment; filename="${downloadName(survey, format)}"`)
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .send(body);
    },
  );

  // The API's analyze_url for one response: the responses page shows it (after the same access check,
  // so someone without analyze access gets a 404 here, not a redirect).
  app.get<{ Params: { token: string }; Querystring: { respondent_id?: string } }>(
    '/analyze/browse/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      const found = await surveyToAnalyze(deps, request, reply, request.params.token);
      if (!found) return reply;
      const id = String(request.query.respondent_id ?? '');
      if (!/^\d{1,20}$/.test(id)) return notFound(reply);
      return reply.redirect(`/analyze/${encodeURIComponent(request.params.token)}/responses/${id}`, 303);
    },
  );

  // A file a respondent uploaded: to those who may analyze the survey (the owner, or a share with
  // analyze access), within the responses their plan reads; anyone else gets the not-found page.
  app.get<{ Params: { token: string; id: string } }>(
    '/analyze/:token/files/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const found = await surveyToAnalyze(deps, request, reply, request.params.token);
      if (!found) return reply;
      const file = await surveyUpload(
        deps,
        found.survey.id,
        request.params.id,
        readableUpTo(isPaid(found.plan)),
      );
      const stream = file && (await openFile(file.path));
      if (!file || !stream) return notFound(reply);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', attachment(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex, nofollow')
        .send(stream);
    },
  );

  /** `2026-11-21 05:24 UTC`, as the other pages write dates, with the exact time for machines. */
  const when = (at: string | Date) => {
    const iso = withOffset(at);
    return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
  };

  app.get<{ Params: { token: string }; Querystring: FilterQuery }>(
    '/summary/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      const found = await surveyToAnalyze(deps, request, reply, request.params.token);
      if (!found) return reply;
      const { survey, plan } = found;
      const token = request.params.token;
      const [collectors, index] = await Promise.all([
        collectorNames(deps, survey.id),
        designIndex(deps, survey),
      ]);
      const f = knownCollector(parseFilter(request.query, index), collectors);
      const h = await headline(
        deps,
        survey,
        readableFilters(plan, responseFilters(survey.id, f)),
        deps.clock.now(),
      );
      const counts = statusFigures(h.byStatus);
      const avg =
        h.averageSeconds === null
          ? '—'
          : h.averageSeconds >= 60
            ? `${Math.floor(h.averageSeconds / 60)} min ${Math.round(h.averageSeconds % 60)} s`
            : `${Math.round(h.averageSeconds)} s`;
      const figure = (label: string, value: string | number, id: string) =>
        html`<div class="figure" id="${id}"><span class="n">${value}</span>${label}</div>`;
      const body = html`<h2>Summary</h2>
${filterForm(`/summary/${token}`, f, index, collectors)}
${planNotice(plan, survey)}
${matchCount(h.total, f)}
<div class="figures">
${figure('Total responses', counts.total, 'f-total')}
${figure('Completed', counts.completed, 'f-completed')}
${figure('Partial', counts.partial, 'f-partial')}
${figure('Disqualified', counts.disqualified, 'f-disqualified')}
${figure(`Completion rate (${completionParts(counts).of})`, completionParts(counts).rate, 'f-rate')}
${figure('Typical time to complete', avg, 'f-time')}
${figure('Collectors (open)', `${h.collectors} (${h.openCollectors})`, 'f-collectors')}
${figure('Questions', survey.question_count, 'f-questions')}
</div>
<p>${h.first ? html`First completed response ${when(h.first)}; latest ${when(h.last!)}.` : 'No completed responses yet.'}</p>
<h2>Responses in the last 14 days</h2>
${columnChart(
  'Responses per day, last 14 days',
  h.perDay.map((d) => ({ label: d.day, count: d.count })),
)}`;
      return surveyPage(deps, reply, found, 'summary', `${survey.title}: summary`, body);
    },
  );
}
