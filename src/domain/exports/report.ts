// The report of the analyze page, as one model both report writers render (report-pdf.ts,
// report-pptx.ts): the title page's facts (survey, period, the filter in words, response counts,
// median time to complete, where respondents stopped) and per question its chart, its table of
// counts and percentages (per compared group too), its averages or NPS, and for text questions the
// most used words and a few of the latest answers. Everything comes from the analyze page's own
// computation (analysis/results.ts, cached per results stamp) and the summary export's lines
// (summary.ts entries), so the report says what the page says.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Deps } from '../../context.js';
import { durationText } from '../analysis/completion-time.js';
import { statusFigures } from '../analysis/figures.js';
import { analyzeResults } from '../analysis/results.js';
import type { QuestionSummary } from '../analysis/rollups.js';
import { isNps, npsOf, ratingsOf } from '../analysis/scores.js';
import { collectorNames } from '../collectors/collectors.js';
import { type DesignIndex, designIndex, type IndexedQuestion } from '../responses/design-index.js';
import { choiceLabel } from '../responses/readable.js';
import { keyed, type ResponseFilters } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import { themeOfSurvey } from '../themes/themes.js';
import { plainText, rowLabel } from './layout.js';
import { type Entry, entries } from './summary.js';

export interface ReportChart {
  /** bar: one bar per category; stacked: per category (a matrix row) one segment per series */
  kind: 'bar' | 'stacked';
  categories: string[];
  series: Array<{ name: string; values: number[] }>;
}

export interface ReportTable {
  head: string[];
  rows: string[][];
}

export interface ReportQuestion {
  id: string;
  /** Q1, Q2… in the design's order */
  number: number;
  title: string;
  answered: number;
  skipped: number;
  chart: ReportChart | null;
  table: ReportTable | null;
  /** averages, NPS, minimum/maximum/mean/median, in words */
  figures: string[];
  words: Array<{ word: string; count: number }>;
  answers: string[];
}

export interface ReportModel {
  title: string;
  /** when the report was made (ISO) */
  made: string;
  /** the responses' dates: the filter's, or the first and latest response's */
  period: string;
  /** the filter in words, one line per condition ("All responses" when none) */
  filter: string[];
  /** "Compared by: …" with each group's responses, or null */
  compare: string | null;
  counts: { total: number; completed: number; partial: number; screenedOut: number };
  completionRate: string;
  medianTime: string;
  dropOff: ReportTable;
  theme: { primary: string; text: string; logo: { data: Buffer; type: 'png' | 'jpeg' } | null };
  questions: ReportQuestion[];
}

/** What a report is made of: the page's filters (already narrowed by the plan) and compare. */
export interface ReportSpec {
  filters: ResponseFilters;
  compare?: string;
}

/** Answers listed per text question. */
const ANSWERS_SHOWN = 5;
/** Words listed (and charted) per text question. */
const WORDS_SHOWN = 10;

const round2 = (n: number) => Math.round(n * 100) / 100;
/** A share to two decimals, as the summary export writes it. */
const pct = (n: number, of: number) => (of > 0 ? `${round2((n / of) * 100)}%` : '—');
const day = (iso: string) => iso.slice(0, 10);

/** The filter in words: dates, collector, statuses, then each answer condition. */
function filterWords(
  index: DesignIndex,
  f: ResponseFilters,
  collectors: Array<{ id: string; name: string }>,
) {
  const out: string[] = [];
  if (f.startCreated || f.endCreated)
    out.push(
      `Responses begun ${f.startCreated ? `from ${day(f.startCreated)} ` : ''}${f.endCreated ? `to ${day(f.endCreated)}` : ''}`.trim(),
    );
  const ids = f.collectorIds ?? (f.collectorId ? [f.collectorId] : []);
  if (ids.length > 0)
    out.push(`Collector: ${ids.map((id) => collectors.find((c) => c.id === id)?.name ?? id).join(', ')}`);
  if (f.status?.length) out.push(`Status: ${f.status.join(', ')}`);
  for (const c of f.answers ?? []) {
    const q = index.questions.get(c.question);
    const title = `“${q ? plainText(q.label) : c.question}”`;
    if (c.kind === 'choices') {
      const names = c.choices.map((id) => {
        const choice = q?.choices.get(id);
        return `“${choice && q ? plainText(choiceLabel(q, choice)) : q?.other?.id === id ? plainText(q.other.text || 'Other') : id}”`;
      });
      out.push(`${title} answered ${names.join(' or ')}`);
    } else if (c.kind === 'range')
      out.push(
        `${title} ${c.min !== undefined && c.max !== undefined ? `between ${c.min} and ${c.max}` : c.min !== undefined ? `at least ${c.min}` : `at most ${c.max}`}`,
      );
    else if (c.kind === 'sentiment')
      out.push(`${title} sentiment ${c.labels.map((l) => l.replace('_', ' ')).join(' or ')}`);
    else out.push(`${title} contains “${c.text}”`);
  }
  return out.length > 0 ? out : ['All responses'];
}

/** A question's chart: bars of its choices, stacked bars of a matrix, or its most used words. */
function chartOf(q: IndexedQuestion, s: QuestionSummary, lines: Entry[], words: ReportQuestion['words']) {
  if (isNps(q)) {
    const n = npsOf(q, s);
    return {
      kind: 'bar' as const,
      categories: ['Promoters (9–10)', 'Passives (7–8)', 'Detractors (0–6)'],
      series: [{ name: 'Responses', values: [n.promoters, n.passives, n.detractors] }],
    };
  }
  if (q.family === 'matrix' && q.subtype !== 'menu' && q.rows.size > 1) {
    const rows = [...q.rows.values()];
    return {
      kind: 'stacked' as const,
      categories: rows.map((r) => rowLabel(r)),
      series: [...q.choices.values()].map((c) => ({
        name: plainText(choiceLabel(q, c)),
        values: rows.map(
          (r) => s.rows?.find((x) => x.id === r.id)?.choices?.find((x) => x.id === c.id)?.count ?? 0,
        ),
      })),
    };
  }
  const counted = lines.filter((e) => e.of !== undefined && e.answer !== '');
  if (counted.length > 0)
    return {
      kind: 'bar' as const,
      categories: counted.map((e) => (e.row ? `${e.row}: ${e.answer}` : e.answer)),
      series: [{ name: 'Responses', values: counted.map((e) => Number(e.n)) }],
    };
  if (words.length > 0)
    return {
      kind: 'bar' as const,
      categories: words.map((w) => w.word),
      series: [{ name: 'Times used', values: words.map((w) => w.count) }],
    };
  return null;
}

/** Averages, NPS and number statistics in words. */
function figuresOf(q: IndexedQuestion, s: QuestionSummary): string[] {
  const out: string[] = [];
  if (isNps(q)) {
    const n = npsOf(q, s);
    out.push(
      `Net Promoter Score: ${n.answered > 0 ? (n.score > 0 ? `+${n.score}` : n.score) : '—'} (−100 to 100)`,
    );
  }
  for (const r of ratingsOf(q, s) ?? []) {
    const top = Math.max(0, ...r.distribution.map((d) => d.weight));
    const row = q.rows.size > 1 ? `${rowLabel(q.rows.get(r.rowId) ?? { text: '' })}: ` : '';
    out.push(`${row}average ${r.average === null ? '—' : round2(r.average)} (of ${top})`);
  }
  const stats = s.stats ?? s.rows?.find((r) => r.stats)?.stats;
  if (stats)
    out.push(
      `Minimum ${round2(stats.min)}, maximum ${round2(stats.max)}, mean ${round2(stats.mean)}, median ${round2(stats.median)}`,
    );
  return out;
}

/** The table of counts: the answer, its count and share, then per compared group the same. */
function tableOf(
  lines: Entry[],
  groups: Array<{ label: string; lines: Entry[] | undefined }>,
): ReportTable | null {
  if (lines.length === 0) return null;
  const cell = (e: Entry | undefined) =>
    !e || e.n === '' ? '—' : e.of === undefined ? String(e.n) : `${e.n} (${pct(e.n, e.of)})`;
  return {
    head: ['Answer', 'Responses', 'Percent', ...groups.map((g) => g.label)],
    rows: lines.map((e, i) => [
      [e.row, e.answer].filter(Boolean).join(': ') || 'Answered',
      String(e.n),
      e.of === undefined || e.n === '' ? '' : pct(e.n, e.of),
      ...groups.map((g) => cell(g.lines?.[i])),
    ]),
  };
}

async function logoOf(deps: Deps, survey: SurveyRow) {
  const theme = await themeOfSurvey(deps, survey);
  const type: 'png' | 'jpeg' | null =
    theme?.logo_type === 'image/png' ? 'png' : theme?.logo_type === 'image/jpeg' ? 'jpeg' : null;
  // GIF and WebP logos are left out: PDF takes PNG and JPEG images
  const data =
    theme?.logo_key && type
      ? await readFile(join(deps.config.uploads.dir, theme.logo_key)).catch(() => null)
      : null;
  return {
    primary: theme?.primary_color ?? '#0b5cad',
    text: theme?.text_color ?? '#1b1f24',
    logo: data && type ? { data, type } : null,
  };
}

/** The report of `survey` under `spec`: what the analyze page shows with that filter and compare. */
export async function reportModel(deps: Deps, survey: SurveyRow, spec: ReportSpec): Promise<ReportModel> {
  const index = await designIndex(deps, survey);
  const filters = { ...spec.filters, surveyId: survey.id };
  const by = spec.compare ? index.questions.get(spec.compare) : undefined;
  const [{ results }, collectors, theme, span] = await Promise.all([
    analyzeResults(deps, survey, index, filters, by),
    collectorNames(deps, survey.id),
    logoOf(deps, survey),
    dates(deps, filters),
  ]);
  const { total, items, compared, texts, words, dropOff, medianSeconds } = results;
  const byStatus = new Map<string, number>([
    ['completed', dropOff.finished],
    ['partial', dropOff.total - dropOff.finished - dropOff.screenedOut],
    ['disqualified', dropOff.screenedOut],
  ]);
  const status = statusFigures(byStatus);
  const groups = compared?.groups ?? [];
  const stops = dropOff.pages.map((p, i) => {
    const title = plainText(index.pages[i]?.title ?? '').trim();
    return [
      `Stopped on page ${i + 1}${title ? `: ${title}` : ''}`,
      String(p.stopped),
      pct(p.stopped, dropOff.total),
    ];
  });
  if (dropOff.elsewhere > 0)
    stops.push([
      'Stopped on a page since removed',
      String(dropOff.elsewhere),
      pct(dropOff.elsewhere, dropOff.total),
    ]);
  stops.push(['Finished', String(dropOff.finished), pct(dropOff.finished, dropOff.total)]);
  if (dropOff.screenedOut > 0)
    stops.push([
      'Disqualified or over quota',
      String(dropOff.screenedOut),
      pct(dropOff.screenedOut, dropOff.total),
    ]);
  const questions = items.map((it, i): ReportQuestion => {
    const q = it.question;
    const s = it.summary;
    const lines = entries(q, s, total);
    const top = (words.get(q.id)?.words ?? [])
      .slice(0, WORDS_SHOWN)
      .map((w) => ({ word: w.word, count: w.count }));
    return {
      id: q.id,
      number: i + 1,
      title: plainText(q.label).trim() || `Question ${i + 1}`,
      answered: s.answered,
      skipped: s.skipped,
      chart: chartOf(q, s, lines, top),
      table: tableOf(
        lines,
        compared && q.id !== compared.by.id
          ? groups.map((g) => {
              const gi = g.items.find((x) => x.question.id === q.id);
              return { label: plainText(g.label), lines: gi ? entries(q, gi.summary, g.total) : undefined };
            })
          : [],
      ),
      figures: figuresOf(q, s),
      words: top,
      answers: (texts.get(q.id) ?? []).slice(0, ANSWERS_SHOWN),
    };
  });
  return {
    title: plainText(survey.title),
    made: deps.clock.now().toISOString(),
    period: span,
    filter: filterWords(index, filters, collectors),
    compare: compared
      ? `Compared by “${plainText(compared.by.label)}”: ${groups.map((g) => `${plainText(g.label)} (${g.total})`).join(', ')}`
      : null,
    counts: {
      total: status.total,
      completed: status.completed,
      partial: status.partial,
      screenedOut: dropOff.screenedOut,
    },
    completionRate: pct(status.completed, status.total),
    medianTime: durationText(medianSeconds),
    dropOff: { head: ['Where', 'Responses', 'Share'], rows: dropOff.total > 0 ? stops : [] },
    theme,
    questions,
  };
}

/** The period the report covers: the filter's dates, else its responses' first and latest. */
async function dates(deps: Deps, f: ResponseFilters & { surveyId: string }): Promise<string> {
  if (f.startCreated && f.endCreated) return `${day(f.startCreated)} to ${day(f.endCreated)}`;
  const row = await keyed(deps, f)
    .select((eb) => [eb.fn.min('date_created').as('first'), eb.fn.max('date_created').as('last')])
    .executeTakeFirst();
  const first = f.startCreated ?? (row?.first ? String(row.first) : null);
  const last = f.endCreated ?? (row?.last ? String(row.last) : null);
  if (!first || !last) return 'No responses yet';
  return `${day(first)} to ${day(last)}`;
}
