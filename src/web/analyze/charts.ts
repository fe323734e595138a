// Server-rendered SVG charts: horizontal bars for choices, a shaded grid for matrices, columns for
// counts per day. Every chart has a title and per-mark titles, and its numbers are also printed as
// text, so it reads without colour or script.
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
  const rowH = 30;
  const labelW = 230;
  const barW = W - labelW - 110;
  const max = Math.max(1, ...bars.map((b) => b.count));
  const h = bars.length * rowH + 10;
  const marks = bars.map((b, i) => {
    const y = 5 + i * rowH;
    const w = Math.round((b.count / max) * barW);
    return html`<g class="bar"><title>${b.label}: ${b.count} (${pct(b.count, total)})</title>
<text x="${labelW - 8}" y="${y + 19}" text-anchor="end">${clip(b.label)}</text>
<rect x="${labelW}" y="${y + 4}" width="${Math.max(w, b.count > 0 ? 2 : 0)}" height="${rowH - 10}" rx="3" fill="#0b5cad"></rect>
<text x="${labelW + w + 6}" y="${y + 19}">${b.count} (${pct(b.count, total)})</text></g>`;
  });
  return html`<svg class="chart bars" role="img" viewBox="0 0 ${W} ${h}" width="100%" preserveAspectRatio="xMinYMin meet" aria-label="${title}"><title>${title}</title>${marks}</svg>`;
}

export function gridChart(title: string, rows: string[], cols: string[], counts: number[][]): Html {
  const labelW = 170;
  const headH = 44;
  const cellW = Math.max(40, Math.floor((W - labelW) / Math.max(1, cols.length)));
  const cellH = 34;
  const max = Math.max(1, ...counts.flat());
  const width = labelW + cellW * cols.length;
  const h = headH + cellH * rows.length + 4;
  const head = cols.map(
    (c, j) =>
      html`<text x="${labelW + j * cellW + cellW / 2}" y="${headH - 10}" text-anchor="middle">${clip(c, Math.max(6, Math.floor(cellW / 8)))}</text>`,
  );
  const body = rows.map((r, i) => {
    const y = headH + i * cellH;
    const cells = cols.map((c, j) => {
      const n = counts[i]?.[j] ?? 0;
      const opacity = n === 0 ? 0.04 : 0.15 + 0.85 * (n / max);
      const dark = opacity > 0.55;
      return html`<g class="cell"><title>${r} / ${c}: ${n}</title><rect x="${labelW + j * cellW + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="#0b5cad" fill-opacity="${opacity.toFixed(2)}"></rect><text x="${labelW + j * cellW + cellW / 2}" y="${y + cellH / 2 + 5}" text-anchor="middle" fill="${dark ? '#fff' : '#1b1f24'}">${n}</text></g>`;
    });
    return html`<text x="${labelW - 8}" y="${y + cellH / 2 + 5}" text-anchor="end">${clip(r, 22)}</text>${cells}`;
  });
  return html`<svg class="chart grid" role="img" viewBox="0 0 ${width} ${h}" width="100%" preserveAspectRatio="xMinYMin meet" aria-label="${title}"><title>${title}</title>${head}${body}</svg>`;
}

export function columnChart(title: string, points: Array<{ label: string; count: number }>): Html {
  const h = 160;
  const colW = Math.floor(W / Math.max(1, points.length));
  const max = Math.max(1, ...points.map((p) => p.count));
  const marks = points.map((p, i) => {
    const bh = Math.round((p.count / max) * (h - 40));
    return html`<g class="col"><title>${p.label}: ${p.count}</title><rect x="${i * colW + 4}" y="${h - 20 - bh}" width="${colW - 8}" height="${bh}" fill="#0b5cad"></rect><text x="${i * colW + colW / 2}" y="${h - 4}" text-anchor="middle" font-size="11">${p.label.slice(5)}</text>${p.count > 0 ? html`<text x="${i * colW + colW / 2}" y="${h - 24 - bh}" text-anchor="middle" font-size="11">${p.count}</text>` : ''}</g>`;
  });
  return html`<svg class="chart columns" role="img" viewBox="0 0 ${W} ${h}" width="100%" aria-label="${title}"><title>${title}</title>${marks}</svg>`;
}
