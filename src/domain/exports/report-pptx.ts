// The PowerPoint deck of the report (pptxgenjs): a title slide with the counts, a slide of where
// respondents stopped, then one slide per question with a native chart (a chart part PowerPoint
// and LibreOffice edit, not a picture) beside its table of counts and percentages.
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ReportChart, ReportModel, ReportTable } from './report.js';

const require = createRequire(import.meta.url);
/** pptxgenjs's class: its CommonJS build exports it whole (its types describe the ES build's
 * default export as a module), so it is required, when the first deck is made. */
type PptxClass = typeof import('pptxgenjs').default;

const hex = (c: string) => c.replace('#', '').toUpperCase();
const PALETTE = ['E07B39', '3A9D5D', '8E5AB5', 'C23B4A', '2B9BB3', 'B5A33A', '6B7280'];
/** Table rows per slide (the rest would fall off it). */
const ROWS_SHOWN = 14;
const MAX_BARS = 20;

/** Writes the report `model` as a PPTX deck to `out`. */
export async function renderPptx(model: ReportModel, out: Writable): Promise<void> {
  const Pptx: PptxClass = require('pptxgenjs');
  const pptx = new Pptx();
  pptx.layout = 'LAYOUT_WIDE'; // 13.33 × 7.5 in
  pptx.title = `${model.title}: results`;
  pptx.company = 'Survey Service';
  const primary = hex(model.theme.primary);
  const text = hex(model.theme.text);
  const heading = (slide: ReturnType<typeof pptx.addSlide>, title: string, sub?: string) => {
    slide.addShape(pptx.ShapeType.rect, { x: 0, y: 0, w: 13.33, h: 0.12, fill: { color: primary } });
    slide.addText(title, {
      x: 0.5,
      y: 0.3,
      w: 12.3,
      h: 0.8,
      fontSize: 22,
      bold: true,
      color: primary,
      fit: 'shrink',
    });
    if (sub) slide.addText(sub, { x: 0.5, y: 1.05, w: 12.3, h: 0.4, fontSize: 12, color: '555B63' });
  };
  const table = (slide: ReturnType<typeof pptx.addSlide>, t: ReportTable, x: number, w: number) => {
    const rows = t.rows.slice(0, ROWS_SHOWN);
    slide.addTable(
      [
        t.head.map((h) => ({ text: h, options: { bold: true, color: text } })),
        ...rows.map((r) =>
          r.map((c, i) => ({ text: c, options: { align: i > 0 ? ('right' as const) : ('left' as const) } })),
        ),
      ],
      {
        x,
        y: 1.6,
        w,
        fontSize: t.head.length > 4 ? 9 : 11,
        color: text,
        border: { type: 'solid', pt: 0.5, color: 'C9CED6' },
      },
    );
    if (t.rows.length > ROWS_SHOWN)
      slide.addText(`${t.rows.length - ROWS_SHOWN} more lines in the PDF report and the summary export.`, {
        x,
        y: 6.9,
        w,
        h: 0.3,
        fontSize: 10,
        color: '555B63',
      });
  };
  const chart = (slide: ReturnType<typeof pptx.addSlide>, c: ReportChart, w: number) => {
    // a bar chart draws its first category at the bottom: reversed, the list reads from the top
    const labels = c.categories.slice(0, MAX_BARS).reverse();
    slide.addChart(
      pptx.ChartType.bar,
      c.series.map((s) => ({ name: s.name, labels, values: s.values.slice(0, MAX_BARS).reverse() })),
      {
        x: 0.5,
        y: 1.6,
        w,
        h: 5.4,
        barDir: 'bar',
        barGrouping: c.kind === 'stacked' ? 'percentStacked' : 'clustered',
        chartColors: c.kind === 'stacked' ? [primary, ...PALETTE] : [primary],
        showValue: c.kind === 'bar',
        showLegend: c.kind === 'stacked',
        legendPos: 'b',
        catAxisLabelFontSize: 10,
        valAxisLabelFontSize: 9,
        dataLabelFontSize: 9,
      },
    );
  };

  const first = pptx.addSlide();
  first.addShape(pptx.ShapeType.rect, { x: 0, y: 0, w: 13.33, h: 0.25, fill: { color: primary } });
  if (model.theme.logo)
    first.addImage({
      data: `image/${model.theme.logo.type};base64,${model.theme.logo.data.toString('base64')}`,
      x: 0.5,
      y: 0.5,
      w: 1.8,
      h: 0.9,
      sizing: { type: 'contain', w: 1.8, h: 0.9 },
    });
  first.addText(model.title, {
    x: 0.5,
    y: 1.6,
    w: 12.3,
    h: 1.2,
    fontSize: 34,
    bold: true,
    color: primary,
    fit: 'shrink',
  });
  const c = model.counts;
  first.addText(
    [
      { text: `Responses: ${model.period}`, options: { breakLine: true } },
      { text: `Filter: ${model.filter.join('; ')}`, options: { breakLine: true } },
      ...(model.compare ? [{ text: model.compare, options: { breakLine: true } }] : []),
      {
        text: `${c.total} responses: ${c.completed} completed, ${c.partial} partial, ${c.screenedOut} disqualified or over quota`,
        options: { breakLine: true },
      },
      {
        text: `Completion rate ${model.completionRate} · Median time to complete ${model.medianTime}`,
        options: { breakLine: true },
      },
      { text: `Made ${model.made.slice(0, 16).replace('T', ' ')} UTC`, options: { color: '555B63' } },
    ],
    { x: 0.5, y: 3, w: 12.3, h: 3.6, fontSize: 16, color: text, valign: 'top', paraSpaceAfter: 6 },
  );

  if (model.dropOff.rows.length > 0) {
    const slide = pptx.addSlide();
    heading(slide, 'Where respondents stopped', `Of ${c.total} responses`);
    chart(
      slide,
      {
        kind: 'bar',
        categories: model.dropOff.rows.map((r) => r[0]),
        series: [{ name: 'Responses', values: model.dropOff.rows.map((r) => Number(r[1])) }],
      },
      6.6,
    );
    table(slide, model.dropOff, 7.4, 5.4);
  }

  for (const q of model.questions) {
    const slide = pptx.addSlide();
    const figures = q.figures.length > 0 ? ` · ${q.figures.join(' · ')}` : '';
    heading(slide, `Q${q.number}. ${q.title}`, `Answered: ${q.answered} · Skipped: ${q.skipped}${figures}`);
    const wide = (q.table?.head.length ?? 0) > 3;
    if (q.chart) chart(slide, q.chart, q.table ? (wide ? 5.4 : 6.6) : 12.3);
    if (q.table)
      table(slide, q.table, q.chart ? (wide ? 6.1 : 7.4) : 0.5, q.chart ? (wide ? 6.7 : 5.4) : 12.3);
    const notes = [
      q.words.length > 0 ? `Most used words: ${q.words.map((w) => `${w.word} (${w.count})`).join(', ')}` : '',
      ...q.answers.map((a) => `“${a.replace(/\s+/g, ' ').slice(0, 200)}”`),
    ].filter(Boolean);
    if (notes.length > 0 && !q.table)
      slide.addText(notes.join('\n'), {
        x: 0.5,
        y: q.chart ? 5.2 : 1.6,
        w: 12.3,
        h: 1.8,
        fontSize: 12,
        color: text,
        valign: 'top',
      });
    else if (notes.length > 0) slide.addNotes(notes.join('\n'));
  }
  const data = await pptx.write({ outputType: 'nodebuffer' });
  out.end(data);
  await finished(out);
}
