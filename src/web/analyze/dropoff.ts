// The analyze page's "Where respondents stopped" (domain/analysis/dropoff.ts): a bar per page of the
// partial responses left there, then finished and screened out, and the same figures as a table
// (the chart is an image to assistive technology; the table reads cell by cell).
import { durationText } from '../../domain/analysis/completion-time.js';
import type { DropOff } from '../../domain/analysis/dropoff.js';
import type { DesignIndex } from '../../domain/responses/design-index.js';
import { type Html, html } from '../html.js';
import { type Bar, barChart } from './charts.js';

const share = (n: number, total: number) => (total > 0 ? `${Math.round((n / total) * 1000) / 10}%` : '—');

export function dropOffSection(index: DesignIndex, d: DropOff): Html | string {
  if (d.total === 0 || index.pages.length === 0) return '';
  const label = (i: number) => {
    const title = index.pages[i].title.replace(/<[^>]*>/g, '').trim();
    return `Page ${i + 1}${title ? `: ${title}` : ''}`;
  };
  const bars: Bar[] = d.pages.map((p, i) => ({ label: `Stopped on ${label(i)}`, count: p.stopped }));
  if (d.elsewhere > 0) bars.push({ label: 'Stopped on a page since removed', count: d.elsewhere });
  bars.push({ label: 'Finished', count: d.finished });
  if (d.screenedOut > 0) bars.push({ label: 'Disqualified or over quota', count: d.screenedOut });
  const row = (b: Bar) =>
    html`<tr><th scope="row">${b.label}</th><td class="num">${b.count}</td><td class="num">${share(b.count, d.total)}</td></tr>`;
  return html`<section class="q-result" id="drop-off"><h3>Where respondents stopped</h3>
<p class="muted">Partial responses by the page they were on when they left; completed responses count as finished. Of ${d.total} ${d.total === 1 ? 'response' : 'responses'}.</p>
${barChart('Where respondents stopped, page by page', bars, d.total)}
<table class="figures-table drop-off"><caption class="visually-hidden">Where respondents stopped</caption><thead><tr><th scope="col">Where</th><th scope="col" class="num">Responses</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${bars.map(row)}</tbody></table></section>`;
}

/** The completed responses' median time to complete (domain/analysis/completion-time.ts). */
export function medianTimeFigure(seconds: number | null): Html {
  return html`<div class="figures"><div class="figure" id="median-time"><span class="n">${durationText(seconds)}</span>Median time to complete (completed responses)</div></div>`;
}
