// The analyze page's quotas (domain/quotas): each quota's count of its limit. The counts are the
// quotas' own counters (all collectors, whatever the page's filter), as the builder shows them.
import type { Quota } from '../../domain/quotas/quotas.js';
import { type Html, html } from '../html.js';

export function quotaCounts(quotas: Quota[]): Html | '' {
  if (quotas.length === 0) return '';
  return html`<section class="card" aria-labelledby="quota-counts-heading"><h2 id="quota-counts-heading">Quotas</h2>
<p class="hint">Completed responses each quota counted, of its limit (every collector, not filtered).</p>
<ul class="stack">${quotas.map(
    (q) =>
      html`<li id="quota-count-${q.id}"><label for="quota-progress-${q.id}">${q.name}: <strong>${q.count} of ${q.limit}</strong>${q.count >= q.limit ? ' (full)' : ''}</label>
<progress id="quota-progress-${q.id}" value="${String(Math.min(q.count, q.limit))}" max="${String(q.limit)}">${q.count} of ${q.limit}</progress></li>`,
  )}</ul></section>`;
}
