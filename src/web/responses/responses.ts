// The responses page of a survey (/analyze/<manage_token>/responses): its individual responses,
// newest first, paged, filtered by status, collector and date range (the filters of GET
// /v3/surveys/{id}/responses); one response with every answer in readable form (the API's
// `simple_text`: src/domain/responses/readable.ts); and deleting one after a confirmation (the
// domain path of DELETE /v3/surveys/{id}/responses/{id}). Reading needs analyze access (owner, or a
// share with analyze rights), deleting analyze write access; the basic plan reads only the first
// responses of a survey, as on the analyze page (src/domain/responses/plan-limit.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { countFromDays } from '../../domain/analysis/days.js';
import {
  filterSearch,
  isFiltered,
  parseFilter,
  type ResultFilter,
  responseFilters,
} from '../../domain/analysis/filters.js';
import { type Collector, listCollectors } from '../../domain/collectors/collectors.js';
import type { StoredPage } from '../../domain/responses/answers.js';
import { designIndex } from '../../domain/responses/design-index.js';
import { assertResponsesReadable, hiddenByPlan, readableFilters } from '../../domain/responses/plan-limit.js';
import { answerText } from '../../domain/responses/readable.js';
import {
  deleteResponses,
  getResponse,
  listResponses,
  type ResponseRow,
  storedPages,
} from '../../domain/responses/responses.js';
import { managedSurvey, mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { FREE_RESPONSE_DETAIL_LIMIT, isPaid, type Plan } from '../../platform/plans.js';
import { sendPage, userPage } from '../account/frame.js';
import { filterForm, STATUS_LABELS } from '../analyze/filter-form.js';
import { askFirst, confirmed, type Destruction, destructiveForm } from '../confirm.js';
import { type Html, html } from '../html.js';
import { surveyHeader, surveyPaths } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pageArea } from '../page-area.js';
import { csrfToken, formField, requireSignedIn } from '../session.js';
import { richText } from '../surveys/render-question.js';
import { planOf } from '../typed.js';
import { fileLink } from './file-link.js';
import { flaggedRoutes } from './flagged.js';

const PER_PAGE = 50;
/** Collectors offered in the filter (a survey rarely has more). */
const MAX_COLLECTORS = 1000;

const text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const Token = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' });
const Params = Type.Object({ token: Token });
const OneParams = Type.Object({ token: Token, id: Type.String({ pattern: '^[0-9]{1,20}$' }) });
const ListQuery = Type.Object({ page: text(10), done: text(20) });
const DeleteBody = Type.Object(
  { _csrf: Type.String({ maxLength: 200 }), confirm: text(10) },
  { additionalProperties: false },
);

function pageOf(q: Record<string, unknown>): number {
  const n = Number.parseInt(typeof q.page === 'string' ? q.page : '1', 10);
  return Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1;
}

function listUrl(token: string, f: ResultFilter, page: number): string {
  return `/analyze/${token}/responses${filterSearch(f, page > 1 ? { page: String(page) } : {})}`;
}

function when(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m} min ${seconds % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function respondent(r: ResponseRow): string {
  const name = [r.first_name, r.last_name].filter(Boolean).join(' ');
  return [name, r.email_address].filter(Boolean).join(' · ') || 'Anonymous';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function responseDestruction(r: ResponseRow, collectorName: string): Destruction {
  const answered = storedPages(r).reduce((n, p) => n + p.questions.length, 0);
  return {
    title: `Delete response #${r.ordinal}?`,
    lost: [
      `Response #${r.ordinal} (${STATUS_LABELS[r.response_status] ?? r.response_status}, ${collectorName}, started ${r.date_created.slice(0, 16).replace('T', ' ')} UTC).`,
      `Its answers to ${plural(answered, 'question')}; the survey's results no longer count them.`,
    ],
    button: 'Delete response',
  };
}

/** On a plan that cannot read every response, which ones the page shows. */
function planNotice(plan: Plan, survey: SurveyRow): Html | string {
  const hidden = hiddenByPlan(plan, survey);
  if (hidden === 0) return '';
  return html`<p class="notice warn" role="status">Your ${plan} plan shows the first ${FREE_RESPONSE_DETAIL_LIMIT} responses of this survey; ${hidden} more ${hidden === 1 ? 'is' : 'are'} not shown or counted. Upgrade to see them all.</p>`;
}

/** The signed-in user and the survey the token names, if they may work on its responses at `level`
 * (404 for a survey they may not see, 403 without analyze rights: the page scope's error pages). */
async function surveyOf(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  level: 'read' | 'write',
): Promise<{ user: User; survey: SurveyRow; plan: Plan } | null> {
  const user = await requireSignedIn(deps, request, reply);
  if (!user) return null;
  const token = formField(request.params, 'token') ?? '';
  const survey = await managedSurvey(deps, { user }, token, 'analyze', level);
  return { user, survey, plan: planOf(user) };
}

async function collectorsOf(deps: Deps, survey: SurveyRow): Promise<Collector[]> {
  const [, collectors] = await listCollectors(deps, survey.id, {
    offset: 0,
    limit: MAX_COLLECTORS,
    sortBy: 'name',
  });
  return collectors;
}

export async function responsesRoutes(app: PageApp, deps: Deps): Promise<void> {
  app.get(
    '/analyze/:token/responses',
    { schema: { hide: true, params: Params, querystring: ListQuery } },
    async (request, reply) => {
      const found = await surveyOf(deps, request, reply, 'read');
      if (!found) return reply;
      const { user, survey, plan } = found;
      const { token } = request.params;
      const q = request.query;
      const [collectors, index] = await Promise.all([collectorsOf(deps, survey), designIndex(deps, survey)]);
      const names = new Map(collectors.map((c) => [c.id, c.name]));
      const parsed = parseFilter(q, index);
      const f = collectors.some((c) => c.id === parsed.collector)
        ? parsed
        : { ...parsed, collector: undefined };
      const page = pageOf(q);
      const filters = readableFilters(plan, { ...responseFilters(survey.id, f), sortOrder: 'DESC' });
      const [total, rows] = await listResponses(
        deps,
        filters,
        (page - 1) * PER_PAGE,
        PER_PAGE,
        'all',
        await countFromDays(deps, filters),
      );
      const pages = Math.max(1, Math.ceil(total / PER_PAGE));
      const filtered = isFiltered(f);
      const paths = surveyPaths(survey);
      const list = rows.length
        ? html`<table class="cards response-list">
<caption class="visually-hidden">Responses, newest first</caption>
<thead><tr><th scope="col">Response</th><th scope="col">Status</th><th scope="col">Collector</th><th scope="col">Respondent</th><th scope="col">Started</th><th scope="col" class="num">Time taken</th></tr></thead>
<tbody>${rows.map(
            (r) => html`<tr>
<th scope="row"><a href="${paths.responses}/${r.id}">Response #${r.ordinal}</a></th>
<td data-label="Status"><span class="badge status-${r.response_status}">${STATUS_LABELS[r.response_status] ?? r.response_status}</span></td>
<td data-label="Collector">${names.get(r.collector_id) ?? r.collector_id}</td>
<td data-label="Respondent">${respondent(r)}</td>
<td data-label="Started">${when(r.date_created)}</td>
<td data-label="Time taken" class="num">${duration(r.total_time)}</td>
</tr>`,
          )}</tbody></table>
${
  pages > 1
    ? html`<nav class="paging" aria-label="Response list pages">
${page > 1 ? html`<a href="${listUrl(token, f, page - 1)}" rel="prev">Newer responses</a>` : ''}
<span>Page ${page} of ${pages}</span>
${page < pages ? html`<a href="${listUrl(token, f, page + 1)}" rel="next">Older responses</a>` : ''}
</nav>`
    : ''
}`
        : html`<div class="empty"><p>${
            filtered
              ? 'No responses match these filters.'
              : survey.response_count > 0
                ? 'No responses on this page.'
                : html`No responses yet. <a href="${paths.collect}">Collect responses</a> with a collector.`
          }</p>${filtered ? html`<p><a href="${paths.responses}">Show all responses</a></p>` : ''}</div>`;
      const body = html`${surveyHeader(survey, 'responses')}
${q.done === 'deleted' ? html`<p class="notice ok" role="status">The response was deleted.</p>` : ''}
<h2>Individual responses</h2>
${planNotice(plan, survey)}
${filterForm(`/analyze/${token}/responses`, f, index, collectors)}
<p role="status" id="response-count"><strong>${total}</strong> ${total === 1 ? 'response' : 'responses'}${filtered ? ' match' : ''}${pages > 1 ? `, page ${page} of ${pages}` : ''}.</p>
${list}`;
      return sendPage(
        reply,
        await userPage(deps, reply, user, `${survey.title}: responses`, body, { section: 'surveys' }),
        200,
        { noindex: true },
      );
    },
  );

  app.get(
    '/analyze/:token/responses/:id',
    { schema: { hide: true, params: OneParams } },
    async (request, reply) => {
      const found = await surveyOf(deps, request, reply, 'read');
      if (!found) return reply;
      const { user, survey, plan } = found;
      const { id } = request.params;
      const row = await getResponse(deps, { surveyId: survey.id }, id);
      assertResponsesReadable(isPaid(plan), [row]);
      const [index, collectors, writable] = await Promise.all([
        designIndex(deps, survey),
        collectorsOf(deps, survey),
        mayAccess(deps, { user }, survey.id, 'analyze', 'write'),
      ]);
      const collectorName = collectors.find((c) => c.id === row.collector_id)?.name ?? row.collector_id;
      const paths = surveyPaths(survey);
      const answered = (JSON.parse(row.pages) as StoredPage[]).filter((p) => p.questions.length > 0);
      const answers = answered.map((p) => {
        const pageTitle = index.pageById.get(p.id)?.title;
        return html`<section class="response-page">${pageTitle ? html`<h3>${pageTitle}</h3>` : ''}
${p.questions.map((qa) => {
  const q = index.questions.get(qa.id);
  return html`<div class="answer"><h4>${q ? richText(q.label) : 'A question no longer in the survey'}</h4>
<ul>${qa.answers.map((a) => html`<li>${a.upload_id ? fileLink(survey.manage_token, a) : answerText(index, qa.id, a as Record<string, unknown>) || '—'}</li>`)}</ul></div>`;
})}</section>`;
      });
      const body = html`${surveyHeader(survey, 'responses')}
<p><a href="${paths.responses}">All responses</a></p>
<h2>Response #${row.ordinal}</h2>
<dl class="response-meta">
<div><dt>Status</dt><dd><span class="badge status-${row.response_status}">${STATUS_LABELS[row.response_status] ?? row.response_status}</span></dd></div>
<div><dt>Collector</dt><dd>${collectorName}</dd></div>
<div><dt>Respondent</dt><dd>${respondent(row)}</dd></div>
<div><dt>Started</dt><dd>${when(row.date_created)}</dd></div>
<div><dt>Last modified</dt><dd>${when(row.date_modified)}</dd></div>
<div><dt>Time taken</dt><dd>${duration(row.total_time)}</dd></div>
${row.ip_address ? html`<div><dt>IP address</dt><dd>${row.ip_address}</dd></div>` : ''}
</dl>
<h2>Answers</h2>
${answers.length ? answers : html`<p class="empty">This response has no answers.</p>`}
${
  writable
    ? html`<div class="actions">${destructiveForm(
        `${paths.responses}/${row.id}/delete`,
        await csrfToken(deps, reply),
        responseDestruction(row, collectorName),
        { label: 'Delete this response' },
      )}</div>`
    : ''
}`;
      return sendPage(
        reply,
        await userPage(deps, reply, user, `${survey.title}: response #${row.ordinal}`, body, {
          section: 'surveys',
        }),
        200,
        { noindex: true },
      );
    },
  );

  app.post(
    '/analyze/:token/responses/:id/delete',
    { schema: { hide: true, params: OneParams, body: DeleteBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const found = await surveyOf(deps, request, reply, 'write');
      if (!found) return reply;
      const { user, survey } = found;
      const { id } = request.params;
      const row = await getResponse(deps, { surveyId: survey.id }, id);
      const paths = surveyPaths(survey);
      if (!confirmed(request.body)) {
        const collectors = await collectorsOf(deps, survey);
        const name = collectors.find((c) => c.id === row.collector_id)?.name ?? row.collector_id;
        return askFirst(
          deps,
          reply,
          user,
          {
            action: `${paths.responses}/${row.id}/delete`,
            destruction: responseDestruction(row, name),
            cancelHref: `${paths.responses}/${row.id}`,
          },
          { noindex: true },
        );
      }
      await deleteResponses(deps, { userId: user.id, ip: request.ip ?? null }, [row]);
      return reply.redirect(`${paths.responses}?done=deleted`, 303);
    },
  );
}

export function responsesPages(deps: Deps) {
  return pageArea('responses-pages', deps, [responsesRoutes, flaggedRoutes]);
}
