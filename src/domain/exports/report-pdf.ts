// The PDF report (pdfkit): a title page (the theme's logo and colour, the survey, period, filter in
// words, response counts, median time to complete, where respondents stopped), then per question
// its chart drawn as vectors, its table of counts and percentages (with a column per compared
// group), its averages or NPS, and for text questions the most used words and a few answers.
// Text is set in the fonts of report-fonts.ts, each character in the first that has it.
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import type { Deps } from '../../context.js';
import type { ReportChart, ReportModel, ReportQuestion, ReportTable } from './report.js';
import { fontRuns, type ReportFonts, reportFonts } from './report-fonts.js';

type Doc = PDFKit.PDFDocument;

const MARGIN = 50;
const MUTED = '#555b63';
const RULE = '#c9ced6';
/** Bars drawn per chart; a longer list is in the table below it. */
const MAX_BARS = 20;
/** Colours of a stacked chart's series after the theme's own. */
const PALETTE = ['#e07b39', '#3a9d5d', '#8e5ab5', '#c23b4a', '#2b9bb3', '#b5a33a', '#6b7280'];

interface Say {
  size: number;
  bold?: boolean;
  color?: string;
  x?: number;
  y?: number;
  width?: number;
  /** one line, cut with an ellipsis */
  oneLine?: boolean;
  align?: 'left' | 'right' | 'center';
}

class Writer {
  constructor(
    readonly doc: Doc,
    readonly fonts: ReportFonts,
    readonly model: ReportModel,
  ) {}

  get left() {
    return this.doc.page.margins.left;
  }
  get width() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Room for `h` more points on this page, or a new page. */
  room(h: number) {
    if (this.doc.y + h > this.bottom) this.doc.addPage();
  }

  /** Text in runs of the fonts that have its characters. */
  say(text: string, o: Say) {
    const doc = this.doc;
    const runs = fontRuns(text, o.bold ? this.fonts.bold : this.fonts.regular, this.fonts);
    doc.fontSize(o.size).fillColor(o.color ?? this.model.theme.text);
    const opts: PDFKit.Mixins.TextOptions = {
      width: o.width,
      align: o.align,
      ...(o.oneLine ? { height: o.size * 1.3, ellipsis: true, lineBreak: false } : {}),
    };
    runs.forEach((r, i) => {
      doc.font(r.font.name);
      const continued = i < runs.length - 1;
      if (i === 0 && o.x !== undefined) doc.text(r.text, o.x, o.y, { ...opts, continued });
      else doc.text(r.text, { ...opts, continued });
    });
  }

  heightOf(text: string, size: number, width: number): number {
    this.doc.font(this.fonts.regular.name).fontSize(size);
    return this.doc.heightOfString(text || ' ', { width });
  }

  /** A table: header row in bold on a rule, then rows (a new page repeats the header). */
  table(t: ReportTable, first = 0.46) {
    const doc = this.doc;
    const size = 9;
    const rest = t.head.length - 1;
    const widths = [this.width * (rest > 0 ? first : 1)];
    for (let i = 0; i < rest; i++) widths.push((this.width * (1 - first)) / rest);
    const pad = 3;
    const row = (cells: string[], bold: boolean) => {
      const h = Math.max(...cells.map((c, i) => this.heightOf(c, size, widths[i] - 2 * pad))) + 2 * pad;
      if (doc.y + h > this.bottom) {
        doc.addPage();
        if (!bold) row(t.head, true);
      }
      const y = doc.y;
      let x = this.left;
      cells.forEach((c, i) => {
        this.say(c, {
          size,
          bold,
          x: x + pad,
          y: y + pad,
          width: widths[i] - 2 * pad,
          align: i > 0 ? 'right' : 'left',
        });
        x += widths[i];
      });
      doc
        .moveTo(this.left, y + h)
        .lineTo(this.left + this.width, y + h)
        .lineWidth(bold ? 1 : 0.5)
        .strokeColor(RULE)
        .stroke();
      doc.x = this.left;
      doc.y = y + h;
    };
    row(t.head, true);
    for (const r of t.rows) row(r, false);
    doc.moveDown(0.6);
  }

  /** Horizontal bars (one series) or stacked bars (a matrix: one segment per series), as vectors. */
  chart(c: ReportChart) {
    const doc = this.doc;
    const categories = c.categories.slice(0, MAX_BARS);
    const colours = [this.model.theme.primary, ...PALETTE];
    const barH = 12;
    const gap = 6;
    const labelW = this.width * 0.38;
    const barX = this.left + labelW + 8;
    const barW = this.width - labelW - 8 - 40;
    const legend = c.kind === 'stacked' ? Math.ceil(c.series.length / 3) * 14 + 6 : 0;
    this.room(Math.min(categories.length, 6) * (barH + gap) + legend);
    const totals = categories.map((_, i) => c.series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
    const max = Math.max(1, ...c.series[0].values.slice(0, MAX_BARS));
    categories.forEach((label, i) => {
      this.room(barH + gap);
      const y = doc.y;
      this.say(label, { size: 8.5, x: this.left, y: y + 1, width: labelW, oneLine: true });
      doc.rect(barX, y, barW, barH).fillColor('#eef0f3').fill();
      if (c.kind === 'bar') {
        const v = c.series[0].values[i] ?? 0;
        doc
          .rect(barX, y, (barW * v) / max, barH)
          .fillColor(colours[0])
          .fill();
        this.say(String(v), { size: 8.5, x: barX + barW + 4, y: y + 1, width: 36 });
      } else {
        let x = barX;
        c.series.forEach((s, k) => {
          const w = totals[i] > 0 ? (barW * (s.values[i] ?? 0)) / totals[i] : 0;
          doc
            .rect(x, y, w, barH)
            .fillColor(colours[k % colours.length])
            .fill();
          x += w;
        });
        this.say(String(totals[i]), { size: 8.5, x: barX + barW + 4, y: y + 1, width: 36 });
      }
      doc.x = this.left;
      doc.y = y + barH + gap;
    });
    if (c.kind === 'stacked') {
      const col = this.width / 3;
      c.series.forEach((s, k) => {
        const y = doc.y + Math.floor(k / 3) * 14;
        const x = this.left + (k % 3) * col;
        doc
          .rect(x, y + 1, 9, 9)
          .fillColor(colours[k % colours.length])
          .fill();
        this.say(s.name, { size: 8.5, x: x + 13, y, width: col - 16, oneLine: true });
      });
      doc.x = this.left;
      doc.y += legend;
    }
    if (c.categories.length > MAX_BARS)
      this.say(`The first ${MAX_BARS} of ${c.categories.length} are drawn; the table lists them all.`, {
        size: 8.5,
        color: MUTED,
      });
    doc.moveDown(0.5);
  }

  titlePage() {
    const { doc, model: m } = this;
    if (m.theme.logo) {
      try {
        doc.image(m.theme.logo.data, this.left, MARGIN, { fit: [160, 60] });
        doc.y = MARGIN + 70;
      } catch {
        // an image pdfkit cannot read (a damaged upload): the report goes on without it
      }
    }
    doc.rect(this.left, doc.y, this.width, 4).fillColor(m.theme.primary).fill();
    doc.y += 14;
    this.say(m.title, { size: 24, bold: true, color: m.theme.primary, x: this.left, width: this.width });
    doc.moveDown(0.3);
    this.say(`Results report, made ${m.made.slice(0, 16).replace('T', ' ')} UTC`, { size: 10, color: MUTED });
    doc.moveDown(0.8);
    this.say('Responses', { size: 13, bold: true });
    this.say(m.period, { size: 10.5 });
    doc.moveDown(0.5);
    this.say('Filter', { size: 13, bold: true });
    for (const line of m.filter) this.say(line, { size: 10.5 });
    if (m.compare) {
      doc.moveDown(0.5);
      this.say('Compare', { size: 13, bold: true });
      this.say(m.compare, { size: 10.5 });
    }
    doc.moveDown(0.8);
    const c = m.counts;
    this.table(
      {
        head: ['Responses', 'Count'],
        rows: [
          ['Total', String(c.total)],
          ['Completed', String(c.completed)],
          ['Partial', String(c.partial)],
          ['Disqualified or over quota', String(c.screenedOut)],
          ['Completion rate', m.completionRate],
          ['Median time to complete', m.medianTime],
        ],
      },
      0.6,
    );
    if (m.dropOff.rows.length > 0) {
      this.room(120);
      this.say('Where respondents stopped', { size: 13, bold: true, x: this.left });
      doc.moveDown(0.3);
      this.chart({
        kind: 'bar',
        categories: m.dropOff.rows.map((r) => r[0]),
        series: [{ name: 'Responses', values: m.dropOff.rows.map((r) => Number(r[1])) }],
      });
      this.table(m.dropOff, 0.6);
    }
  }

  question(q: ReportQuestion) {
    const doc = this.doc;
    const { theme } = this.model;
    this.room(140);
    doc.x = this.left;
    this.say(`Q${q.number}. ${q.title}`, { size: 13, bold: true, color: theme.primary, width: this.width });
    this.say(`Answered: ${q.answered} · Skipped: ${q.skipped}`, { size: 9.5, color: MUTED });
    doc.moveDown(0.4);
    for (const f of q.figures) this.say(f, { size: 10.5, bold: true });
    if (q.figures.length > 0) doc.moveDown(0.4);
    if (q.chart) this.chart(q.chart);
    if (q.table) this.table(q.table);
    if (q.words.length > 0) {
      this.room(40);
      this.say('Most used words', { size: 10.5, bold: true, x: this.left });
      this.say(q.words.map((w) => `${w.word} (${w.count})`).join(', '), { size: 9.5, width: this.width });
      doc.moveDown(0.4);
    }
    if (q.answers.length > 0) {
      this.room(40);
      this.say('Latest answers', { size: 10.5, bold: true, x: this.left });
      for (const a of q.answers) {
        this.room(14);
        this.say(`• ${a.replace(/\s+/g, ' ').slice(0, 400)}`, {
          size: 9.5,
          x: this.left + 6,
          width: this.width - 6,
        });
      }
      doc.moveDown(0.4);
    }
    doc.moveDown(0.8);
  }
}

/** Writes the report `model` as a PDF to `out`. */
export async function renderPdf(
  model: ReportModel,
  fontsDir: string | undefined,
  out: Writable,
): Promise<void> {
  const fonts = reportFonts(fontsDir);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `${model.title}: results`, Creator: 'Survey Service' },
  });
  doc.pipe(out);
  for (const f of [fonts.regular, fonts.bold, ...fonts.fallbacks])
    doc.registerFont(f.name, f.file, f.member ?? '');
  const w = new Writer(doc, fonts, model);
  w.titlePage();
  for (const q of model.questions) {
    if (q === model.questions[0]) doc.addPage();
    w.question(q);
  }
  doc.end();
  await finished(out);
}

/** The fonts directory the report writers read (REPORT_FONTS_DIR). */
export const fontsDirOf = (deps: Deps) => deps.config.exports.reportFontsDir;
