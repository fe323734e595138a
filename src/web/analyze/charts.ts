// Server-rendered SVG charts: horizontal bars for choices and distributions, a shaded grid for
// matrices, columns for counts per day. Every chart has a title and per-mark titles, and its
// numbers are also printed as text, so it reads without colour or script.
//
// Text is never scaled down with the chart (at 390 px a scaled 640-unit drawing would print 13 px
// text at 7 px): bar charts have no viewBox and place their marks in percentages of the page's
// width, with the label above each bar; the grid and column charts keep their pixel size and
// scroll sideways inside their own box (`.chart-scroll`, app.css) when the screen is narrower.
import { type Html, html } from '../html.js';

const W = 640;

export interface Bar {
  label: string;
  count: number;
}

function pct(n: number, total: number): string {
  return total > 0 ? `${Math.round((n / total) * 1000) / 10}%` : '0%';
}

function clip(text: string, n = 34): string {
  const plain = text.replace(/<[^>]*>/g, '');
  return plain.length > n ? `${plain.slice(0, n - 1)}…` : plain;
}

export function barChart(title: string, bars: Bar[], total: number): Html {
  const rowH = 46;
  const max = Math.max(1, ...bars.map((b) => b.count));
  const h = bars.length * rowH + 4;
  const marks = bars.map((b, i) => {
    const y = i * rowH;
    // The bar takes at most 75% of the width, leaving room for its figure after it.
    const w = Math.round((b.count / max) * 750) / 10;
    return html`<g class="bar"><title>${b.label}: ${b.count} (${pct(b.count, total)})</title>
<text x="0" y="${y + 16}">${clip(b.label, 44)}</text>
<rect x="0" y="${y + 23}" width="${b.count > 0 ? `${Math.max(w, 0.5)}%` : '0'}" height="16" rx="3" class="mark"></rect>
<text x="${w + 1.5}%" y="${y + 37}">${b.count} (${pct(b.count, total)})</text></g>`;
  });
  return html`<svg class="chart bars" role="img" width="100%" height="${h}" aria-label="${title}"><title>${title}</title>${marks}</svg>`;
}

export function gridChart(title: string, rows: string[], cols: string[], counts: number[][]): Html {
  const labelW = 150;
  const headH = 44;
  const cellW = Math.max(48, Math.floor((W - labelW) / Math.max(1, cols.length)));
  const cellH = 34;
  const max = Math.max(1, ...counts.flat());
  const width = labelW + cellW * cols.length;
  const h = headH + cellH * rows.length + 4;
  const head = cols.map(
    (c, j) =>
      html`<text x="${labelW + j * cellW + cellW / 2}" y="${headH - 10}" text-anchor="middle">${clip(c, Math.max(4, Math.floor(cellW / 8)))}</text>`,
  );
  const body = rows.map((r, i) => {
    const y = headH + i * cellH;
    const cells = cols.map((c, j) => {
      const n = counts[i]?.[j] ?? 0;
      const opacity = n === 0 ? 0.04 : 0.15 + 0.85 * (n / max);
      const dark = opacity > 0.55;
      return html`<g class="cell"><title>${r} / ${c}: ${n}</title><rect x="${labelW + j * cellW + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" class="mark" fill-opacity="${opacity.toFixed(2)}"></rect><text x="${labelW + j * cellW + cellW / 2}" y="${y + cellH / 2 + 5}" text-anchor="middle" class="${dark ? 'on-mark' : ''}">${n}</text></g>`;
    });
    return html`<text x="${labelW - 8}" y="${y + cellH / 2 + 5}" text-anchor="end">${clip(r, 18)}</text>${cells}`;
  });
  return html`<div class="chart-scroll" role="group" tabindex="0" aria-label="${title} (scrolls sideways)"><svg class="chart grid" role="img" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" aria-label="${title}"><title>${title}</title>${head}${body}</svg></div>`;
}

export function columnChart(title: string, points: Array<{ label: string; count: number }>): Html {
  const h = 160;
  const colW = Math.max(44, Math.floor(W / Math.max(1, points.length)));
  const width = colW * points.length;
  const max = Math.max(1, ...points.map((p) => p.count));
  const marks = points.map((p, i) => {
    const bh = Math.round((p.count / max) * (h - 44));
    return html`<g class="col"><title>${p.label}: ${p.count}</title><rect x="${i * colW + 4}" y="${h - 22 - bh}" width="${colW - 8}" height="${bh}" class="mark"></rect><text x="${i * colW + colW / 2}" y="${h - 4}" text-anchor="middle">${p.label.slice(5)}</text>${p.count > 0 ? html`<text x="${i * colW + colW / 2}" y="${h - 27 - bh}" text-anchor="middle">${p.count}</text>` : ''}</g>`;
  });
  return html`<div class="chart-scroll" role="group" tabindex="0" aria-label="${title} (scrolls sideways)"><svg class="chart columns" role="img" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" aria-label="${title}"><title>${title}</title>${marks}</svg></div>`;
}

export interface TrendMark {
  label: string;
  total: number;
  completed: number;
}

/** Responses per period as columns, and the share of them completed as a line on a 0–100% scale;
 * every figure is also in each mark's title (and the page prints them as a table). */
export function trendChart(title: string, points: TrendMark[]): Html {
  const h = 200;
  const top = 24;
  const base = h - 22;
  const colW = Math.max(16, Math.min(44, Math.floor(W / Math.max(1, points.length))));
  const width = Math.max(W, colW * points.length + 40);
  const max = Math.max(1, ...points.map((p) => p.total));
  const rate = (p: TrendMark) => (p.total > 0 ? p.completed / p.total : null);
  const every = Math.ceil(points.length / Math.floor(width / 90));
  const marks = points.map((p, i) => {
    const bh = Math.round((p.total / max) * (base - top));
    const r = rate(p);
    return html`<g class="col"><title>${p.label}: ${p.total} ${p.total === 1 ? 'response' : 'responses'}${r === null ? '' : `, ${Math.round(r * 100)}% completed`}</title><rect x="${i * colW + 2}" y="${base - bh}" width="${colW - 4}" height="${bh}" class="mark"></rect>${i % every === 0 ? html`<text x="${i * colW + 2}" y="${h - 4}">${p.label.slice(5)}</text>` : ''}</g>`;
  });
  const line = points
    .map((p, i) => {
      const r = rate(p);
      return r === null ? null : `${i * colW + colW / 2},${Math.round(base - r * (base - top))}`;
    })
    .filter((x) => x !== null)
    .join(' ');
  return html`<div class="chart-scroll" role="group" tabindex="0" aria-label="${title} (scrolls sideways)"><svg class="chart trend" role="img" width="${width}" height="${h}" viewBox="0 0 ${width} ${h}" aria-label="${title}"><title>${title}</title>
<line x1="0" x2="${width}" y1="${top}" y2="${top}" class="axis"></line><text x="${width - 4}" y="${top - 6}" text-anchor="end">100%</text><text x="4" y="${top - 6}">${max} ${max === 1 ? 'response' : 'responses'}</text>
${marks}${line ? html`<polyline points="${line}" class="rate"></polyline>` : ''}</svg></div>`;
}
