// The audit log as a page: a filter form (actor, action, target, time) and one page of rows, newest
// first. Shared by the team owner's /account/audit and the operators' /operator/audit; the rows
// come from domain/audit, the rule of who reads which rows from the caller.
import { type Static, Type } from 'typebox';
import type { Deps } from '../context.js';
import { type AuditFilter, listAudit } from '../domain/audit/log.js';
import { ApiError } from '../platform/errors.js';
import { type Html, html } from './html.js';

export const AUDIT_PER_PAGE = 50;

export const AuditQuery = Type.Object({
  actor: Type.Optional(Type.String({ maxLength: 200 })),
  action: Type.Optional(Type.String({ maxLength: 200 })),
  target: Type.Optional(Type.String({ maxLength: 200 })),
  since: Type.Optional(Type.String({ maxLength: 40 })),
  until: Type.Optional(Type.String({ maxLength: 40 })),
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
});
export type AuditQueryOf = Static<typeof AuditQuery>;

/** A day (YYYY-MM-DD, its start in UTC) or an ISO time, as an ISO time; empty is none. */
function timeOf(value: string | undefined, field: string): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  const t = /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : Number.NaN;
  if (Number.isNaN(t)) throw new ApiError(1003, `"${v}" is not a date for ${field}: write it as 2026-01-31.`);
  return new Date(t).toISOString();
}

/** The form's query as the domain's filter: `target` is a type, or `type:id`. */
export function auditFilterOf(q: AuditQueryOf): AuditFilter {
  const [targetType, targetId] = (q.target?.trim() ?? '').split(':', 2);
  return {
    actor: q.actor?.trim() || undefined,
    action: q.action?.trim() || undefined,
    targetType: targetType || undefined,
    targetId: targetId || undefined,
    since: timeOf(q.since, 'From'),
    until: timeOf(q.until, 'Before'),
  };
}

const OUTCOME_WORDS: Record<string, string> = { ok: 'done', denied: 'refused', failed: 'failed' };

/** The filter form, the rows and the paging links of one page of `path`. */
export async function auditLogBody(
  deps: Deps,
  path: string,
  q: AuditQueryOf,
  scope: { teamId?: string },
): Promise<Html> {
  const filter = { ...auditFilterOf(q), ...scope };
  const pageNo = Number(q.page ?? 1);
  const { total, rows } = await listAudit(deps, filter, {
    limit: AUDIT_PER_PAGE,
    offset: (pageNo - 1) * AUDIT_PER_PAGE,
  });
  const last = Math.max(1, Math.ceil(total / AUDIT_PER_PAGE));
  const link = (n: number) => {
    const p = new URLSearchParams();
    for (const k of ['actor', 'action', 'target', 'since', 'until'] as const) {
      const v = q[k]?.trim();
      if (v) p.set(k, v);
    }
    if (n > 1) p.set('page', String(n));
    const s = p.toString();
    return `${path}${s ? `?${s}` : ''}`;
  };
  return html`<form class="filters" method="get" action="${path}" role="search" aria-label="Filter the audit log">
<div><label for="audit-actor">Actor</label><input id="audit-actor" name="actor" value="${q.actor ?? ''}" autocomplete="off" placeholder="username or cli"></div>
<div><label for="audit-action">Action starts with</label><input id="audit-action" name="action" value="${q.action ?? ''}" autocomplete="off" placeholder="POST /v3/surveys"></div>
<div><label for="audit-target">Target</label><input id="audit-target" name="target" value="${q.target ?? ''}" autocomplete="off" placeholder="survey or survey:123"></div>
<div><label for="audit-since">From (UTC)</label><input id="audit-since" name="since" type="date" value="${q.since ?? ''}"></div>
<div><label for="audit-until">Before (UTC)</label><input id="audit-until" name="until" type="date" value="${q.until ?? ''}"></div>
<button type="submit">Filter</button>
</form>
<p>${String(total)} row(s), newest first (UTC).</p>
${
  rows.length
    ? html`<table class="cards"><caption class="visually-hidden">Audit log</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">How</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Result</th></tr></thead>
<tbody>${rows.map(
        (
          r,
        ) => html`<tr><td data-label="When"><time datetime="${r.at}">${r.at.slice(0, 19).replace('T', ' ')}</time></td>
<td data-label="Who"><strong>${r.actor_name ?? 'unknown'}</strong>${r.address ? html` <span class="muted">${r.address}</span>` : ''}</td>
<td data-label="How">${r.via}${r.app_id ? html` <span class="muted">(app ${r.app_id})</span>` : ''}</td>
<td data-label="Action" class="break"><code>${r.action}</code></td>
<td data-label="Target" class="break">${r.target_type ?? ''}${r.target_id ? html` ${r.target_id}` : ''}</td>
<td data-label="Result">${OUTCOME_WORDS[r.outcome] ?? r.outcome}${r.status ? html` <span class="muted">(${String(r.status)})</span>` : ''}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="empty">No rows match.</p>`
}
${
  last > 1
    ? html`<nav aria-label="Audit log pages" class="actions">${pageNo > 1 ? html`<a class="button secondary" href="${link(pageNo - 1)}">Newer</a>` : ''}
<span>Page ${String(pageNo)} of ${String(last)}</span>${pageNo < last ? html`<a class="button secondary" href="${link(pageNo + 1)}">Older</a>` : ''}</nav>`
    : ''
}`;
}
