// /analyze/share?sm=<manage token>: the owner's controls of a survey's shared results
// (domain/shared-results): on or off, a password, an expiry day, the questions shown (written
// answers off until chosen, the expiry day in the owner's time zone), a filter fixed into the page (the analyze page links here with its
// current filter), a new link; and the link itself in a field to copy. Anyone with analyze access
// sees the settings; only the owner on a paid plan changes them (the domain decides).
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  type FilterQuery,
  filterQuery,
  parseFilter,
  type ResultFilter,
} from '../../domain/analysis/filters.js';
import { collectorNames } from '../../domain/collectors/collectors.js';
import { type DesignIndex, designIndex } from '../../domain/responses/design-index.js';
import { choiceLabel } from '../../domain/responses/readable.js';
import { SENTIMENT_LABELS, SENTIMENTS } from '../../domain/responses/sentiment.js';
import {
  fixedFilter,
  isWrittenAnswers,
  queryOfText,
  saveSharedResults,
  shareableQuestions,
  sharedResultsOf,
} from '../../domain/shared-results/shared-results.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import { baseUrl } from '../../http/paging.js';
import { ApiError } from '../../platform/errors.js';
import { isOneOf } from '../../platform/lists.js';
import { isPlan, mayShareResults } from '../../platform/plans.js';
import { localTime } from '../../platform/time-zones.js';
import { sendPage, userPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { type Html, html, raw } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, currentUser, loginUrl } from '../session.js';
import { STATUS_LABELS } from './filter-form.js';

export const shareResultsUrl = (token: string) => `/analyze/share?sm=${encodeURIComponent(token)}`;

/** The analyze page's way here, carrying its filter (which the owner may fix into the shared page). */
export function shareResultsLink(token: string, f: ResultFilter): Html {
  const q = filterQuery(f).toString();
  return html`<p class="share-results-link"><a href="${shareResultsUrl(token)}${q ? `&${q}` : ''}">Share results by link</a></p>`;
}

const plain = (text: string) => text.replace(/<[^>]*>/g, '');

/** A results filter in words, one item per condition (`collectors` names them; without, "one collector"). */
export function filterInWords(
  f: ResultFilter,
  index: DesignIndex,
  collectors?: Array<{ id: string; name: string }>,
): string[] {
  const out: string[] = [];
  if (f.start) out.push(`From ${f.start}`);
  if (f.end) out.push(`Until ${f.end}`);
  if (f.collector)
    out.push(
      collectors
        ? `Collector: ${collectors.find((c) => c.id === f.collector)?.name ?? f.collector}`
        : 'Responses from one collector',
    );
  if (f.status.length) out.push(`Completeness: ${f.status.map((s) => STATUS_LABELS[s] ?? s).join(' or ')}`);
  for (const c of f.answers) {
    const q = index.questions.get(c.question);
    const title = q ? plain(q.label) : c.question;
    if (c.kind === 'choices') {
      const labels = c.choices.map((id) => {
        const choice =
          q?.choices.get(id) ?? [...(q?.cols.values() ?? [])].find((x) => x.choices.has(id))?.choices.get(id);
        if (choice && q) return plain(choiceLabel(q, choice));
        return q?.other?.id === id ? plain(q.other.text) || 'Other' : id;
      });
      out.push(`${title}: ${labels.join(' or ')}`);
    } else if (c.kind === 'range')
      out.push(
        `${title}: ${[c.min !== undefined ? `at least ${c.min}` : '', c.max !== undefined ? `at most ${c.max}` : ''].filter(Boolean).join(' and ')}`,
      );
    else if (c.kind === 'sentiment')
      out.push(
        `${title}: ${c.labels.map((l) => (isOneOf(SENTIMENTS, l) ? SENTIMENT_LABELS[l] : l)).join(' or ')}`,
      );
    else out.push(`${title} contains “${c.text}”`);
  }
  return out;
}

const Query = Type.Object(
  { sm: Type.String({ maxLength: 100 }), done: Type.Optional(Type.String({ maxLength: 10 })) },
  { additionalProperties: true },
);

const Body = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  state: Type.Union([Type.Literal('on'), Type.Literal('off')]),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  remove_password: Type.Optional(Type.String({ maxLength: 5 })),
  expires: Type.Optional(Type.String({ maxLength: 20 })),
  q: Type.Optional(
    Type.Union([
      Type.String({ maxLength: 30 }),
      Type.Array(Type.String({ maxLength: 30 }), { maxItems: 2000 }),
    ]),
  ),
  filter: Type.Optional(Type.Union([Type.Literal('keep'), Type.Literal('fix'), Type.Literal('none')])),
  fix_query: Type.Optional(Type.String({ maxLength: 8000 })),
  new_link: Type.Optional(Type.String({ maxLength: 5 })),
});
const DONE: Record<string, string> = {
  on: 'The results page is on: anyone with the link can see it.',
  off: 'The results page is off: its link no longer works.',
};

/** The analyze page's filter query, from this page's URL (everything but `sm` and `done`). */
function filterQueryOf(query: Record<string, unknown>): FilterQuery {
  const out: FilterQuery = {};
  for (const [k, v] of Object.entries(query))
    if (k === 'sm' || k === 'done') continue;
    else if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === 'string');
  return out;
}

export function shareResultsRoutes(app: PageApp, deps: Deps): void {
  async function render(
    reply: FastifyReply,
    user: User,
    survey: SurveyRow,
    current: FilterQuery,
    state: { notice?: string; error?: ApiError },
  ): Promise<FastifyReply> {
    const [index, collectors, csrf] = await Promise.all([
      designIndex(deps, survey),
      collectorNames(deps, survey.id),
      csrfToken(deps, reply),
    ]);
    const s = await sharedResultsOf(deps, survey, index);
    const owner = user.id === survey.owner_id;
    const plan = user.account_type;
    const allowed = isPlan(plan) && mayShareResults(plan);
    const link = s.token ? `${baseUrl(reply.request)}/results/${s.token}` : null;
    const fixed = filterInWords(fixedFilter(s.filterQuery, index), index, collectors);
    const asked = parseFilter(current, index);
    const askedWords = filterInWords(asked, index, collectors);
    const chosen = new Set(s.questionIds);
    const questions = shareableQuestions(index);
    const status = s.on
      ? html`<p class="share-state on" id="share-state" role="status"><strong>On.</strong> Anyone with the link can see the results below${s.hasPassword ? ' after giving the password' : ''}${s.expiresOn ? html`, through ${s.expiresOn} (${s.zone} time: until <time datetime="${s.expiresAt}">${localTime(s.expiresAt ?? '', s.zone)}</time>)` : ''}.${s.expired ? ' The link has expired: choose a later day to open it again.' : ''}${owner && !allowed ? ' Paused: the link answers “not found” while your plan does not include shared results.' : ''}</p>
<div class="share-link"><label for="share-link">Link to the results page</label>
<input type="url" id="share-link" class="copy" readonly value="${link}" aria-describedby="share-link-hint">
<p class="hint" id="share-link-hint">Select the link and copy it. It needs no sign-in; turning the page off or making a new link stops it at once.</p></div>`
      : html`<p class="share-state off" id="share-state" role="status"><strong>Off.</strong> No one can see the results without signing in.</p>`;
    const writable = owner && allowed;
    const disabled = writable ? '' : raw(' disabled');
    const form = html`<form method="post" action="${shareResultsUrl(survey.manage_token)}" class="share-results-form">${hidden(csrf)}
<fieldset><legend>Results page</legend>
<div class="check"><input type="radio" id="state-on" name="state" value="on"${raw(s.on ? ' checked' : '')}${disabled}><label for="state-on">On: share the results by link</label></div>
<div class="check"><input type="radio" id="state-off" name="state" value="off"${raw(s.on ? '' : ' checked')}${disabled}><label for="state-off">Off</label></div>
</fieldset>
<fieldset><legend>Questions shown</legend>
<p class="hint">Questions answered in words are not shown unless you choose them; their latest answers would be readable by anyone with the link.</p>
${questions.map(
  (q) =>
    html`<div class="check"><input type="checkbox" id="sq${q.id}" name="q" value="${q.id}"${raw(chosen.has(q.id) ? ' checked' : '')}${disabled}><label for="sq${q.id}">${plain(q.label) || `Question ${q.position}`}${isWrittenAnswers(q) ? html` <span class="muted">(written answers)</span>` : ''}</label></div>`,
)}
</fieldset>
<fieldset><legend>Responses counted</legend>
${
  fixed.length
    ? html`<div class="check"><input type="radio" id="filter-keep" name="filter" value="keep"${raw(askedWords.length ? '' : ' checked')}${disabled}><label for="filter-keep">Keep the fixed filter: ${fixed.join('; ')}</label></div>`
    : ''
}
${
  askedWords.length
    ? html`<div class="check"><input type="radio" id="filter-fix" name="filter" value="fix" checked${disabled}><label for="filter-fix">Fix the current filter: ${askedWords.join('; ')}</label></div>
<input type="hidden" name="fix_query" value="${queryText(current)}">`
    : ''
}
<div class="check"><input type="radio" id="filter-none" name="filter" value="none"${raw(!fixed.length && !askedWords.length ? ' checked' : '')}${disabled}><label for="filter-none">Every response${fixed.length ? ' (remove the fixed filter)' : ''}</label></div>
${askedWords.length || fixed.length ? '' : html`<p class="hint">To fix a filter, filter the results on the <a href="${`/analyze/${survey.manage_token}`}">analyze page</a> and follow its “Share results” link.</p>`}
</fieldset>
<fieldset><legend>Protection</legend>
<div><label for="share-password">${s.hasPassword ? 'New password (leave empty to keep the one set)' : 'Password (optional)'}</label>
<input type="password" id="share-password" name="password" maxlength="100" autocomplete="new-password"${disabled}></div>
${s.hasPassword ? html`<div class="check"><input type="checkbox" id="remove-password" name="remove_password" value="1"${disabled}><label for="remove-password">Remove the password</label></div>` : ''}
<div><label for="share-expires">Last day the link works (optional)</label>
<input type="date" id="share-expires" name="expires" value="${s.expiresOn ?? ''}" aria-describedby="share-expires-hint"${disabled}>
<p class="hint" id="share-expires-hint">The link stops at midnight at the end of that day in ${owner ? 'your' : "the owner's"} time zone, ${s.zone}${owner ? html` (<a href="/account">account settings</a>)` : ''}.</p></div>
${s.on ? html`<div class="check"><input type="checkbox" id="new-link" name="new_link" value="1"${disabled}><label for="new-link">Make a new link (the current one stops working)</label></div>` : ''}
</fieldset>
<div class="actions"><button type="submit"${disabled}>Save</button></div>
</form>`;
    const why = !owner
      ? html`<p class="notice readonly" role="status">Only the survey's owner can share its results.</p>`
      : !allowed
        ? html`<p class="notice warn" role="status">Sharing results by link needs a paid plan. Your ${plan} plan cannot share results${s.on ? '; the link stays off until the plan allows it' : ''}.</p>`
        : '';
    const body = html`${surveyHeader(survey, 'analyze')}
<h2>Share results</h2>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error ? html`<p class="notice danger" role="alert" id="share-error">${state.error.detail ?? state.error.message}</p>` : ''}
<p>A read-only page of this survey's results that anyone with its link can open without signing in: the number of responses and a chart for each question you choose. No names, addresses or individual responses are shown.</p>
${why}
${status}
${form}
<p><a href="/analyze/${survey.manage_token}">Back to the results</a></p>`;
    const code = state.error ? Math.min(state.error.status, 500) : 200;
    return sendPage(
      reply,
      await userPage(deps, reply, user, `Share results: ${survey.title}`, body, { section: 'surveys' }),
      code,
      { noindex: true },
    );
  }

  app.get('/analyze/share', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
    const query = request.query;
    const user = await currentUser(deps, request);
    if (!user) return reply.redirect(loginUrl(shareResultsUrl(query.sm)), 303);
    const survey = await managedSurvey(deps, { user }, query.sm, 'analyze', 'read');
    return render(reply, user, survey, filterQueryOf(query), {
      notice: query.done ? DONE[query.done] : undefined,
    });
  });

  app.post(
    '/analyze/share',
    { schema: { hide: true, querystring: Query, body: Body }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { sm } = request.query;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(shareResultsUrl(sm)), 303);
      const survey = await managedSurvey(deps, { user }, sm, 'analyze', 'read');
      const b = request.body;
      const index = await designIndex(deps, survey);
      const fixQuery = b.fix_query ?? '';
      try {
        await saveSharedResults(deps, { user }, survey, index, {
          on: b.state === 'on',
          password: b.password,
          removePassword: b.remove_password === '1',
          expiresOn: (b.expires ?? '').trim(),
          questionIds: b.q === undefined ? [] : [b.q].flat(),
          filter:
            b.filter === 'none' ? '' : b.filter === 'fix' ? filterQueryOf(queryOfText(fixQuery)) : undefined,
          newLink: b.new_link === '1',
        });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        const current = b.filter === 'fix' ? queryOfText(fixQuery) : {};
        return render(reply, user, survey, current, { error: err });
      }
      return reply.redirect(`${shareResultsUrl(sm)}&done=${b.state}`, 303);
    },
  );
}

/** A filter query as URL query text (repeated keys repeated). */
function queryText(q: FilterQuery): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const one of [v ?? []].flat()) p.append(k, one);
  return p.toString();
}
