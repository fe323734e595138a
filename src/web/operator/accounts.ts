// GET /operator/accounts: every account, searchable by username or email, 25 a page; each with a
// form changing its plan, state, operator flag and daily send cap (domain/accounts/operator-accounts.ts holds the
// rules and records each change as activity). Only operators reach it (the guard of apps.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import {
  ACCOUNTS_PER_PAGE,
  changeAccount,
  listAccounts,
  OPERATOR_STATES,
} from '../../domain/accounts/operator-accounts.js';
import type { User } from '../../domain/accounts/users.js';
import { ApiError } from '../../platform/errors.js';
import { PLANS } from '../../platform/plans.js';
import { sendPage, userPage } from '../account/frame.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken } from '../session.js';

const STATE_WORDS: Record<string, string> = {
  active: 'active',
  soft_deleted: 'suspended (soft deleted: cannot sign in or use the API)',
  deleted: 'deleted',
};

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
  done: Type.Optional(Type.String({ maxLength: 300 })),
});

const ChangeBody = Type.Object({
  _csrf: Type.String(),
  plan: Type.String({ maxLength: 50 }),
  state: Type.String({ maxLength: 50 }),
  operator: Type.Union([Type.Literal('yes'), Type.Literal('no')]),
  send_limit: Type.Optional(Type.String({ maxLength: 20 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$' })),
});

const options = (values: readonly string[], current: string, words: (v: string) => string = (v) => v) =>
  values.map((v) => html`<option value="${v}"${v === current ? html` selected` : ''}>${words(v)}</option>`);

const listUrl = (q: string, page: number, done?: string) => {
  const p = new URLSearchParams();
  if (q) p.set('q', q);
  if (page > 1) p.set('page', String(page));
  if (done) p.set('done', done);
  const s = p.toString();
  return `/operator/accounts${s ? `?${s}` : ''}`;
};

/** The send-cap field: empty = the server's caps (null), else a whole number (0 = no cap). */
function sendLimitOf(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return null;
  if (!/^[0-9]{1,9}$/.test(v))
    throw new ApiError(
      1002,
      `"${v}" is not a daily send cap: give a whole number of recipients (0 = no cap), or leave it empty for the server's caps.`,
    );
  return Number(v);
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<User | null>;

export function operatorAccountPages(app: PageApp, deps: Deps, operator: Guard, nav: Html): void {
  async function render(
    reply: FastifyReply,
    user: User,
    q: string,
    page: number,
    message?: { done?: string; error?: string },
  ) {
    const { total, items } = await listAccounts(deps, q, page);
    const pages = Math.max(1, Math.ceil(total / ACCOUNTS_PER_PAGE));
    const csrf = await csrfToken(deps, reply);
    const limits = deps.config.sendLimits;
    const cap = (n: number) => (n === 0 ? 'no cap' : String(n));
    const defaults = `${cap(limits.newAccountPerDay)} a day in an account's first ${limits.newAccountDays} days, then ${cap(limits.perDay)}`;
    const cards = items.map((a) => {
      const f = `acct-${a.id}`;
      const states = (OPERATOR_STATES as readonly string[]).includes(a.status)
        ? OPERATOR_STATES
        : [a.status, ...OPERATOR_STATES];
      return html`<section class="card" id="account-${a.id}" aria-labelledby="${f}-name">
<h2 id="${f}-name" class="spread"><span>${a.username}</span> <span class="badge">${a.account_type}</span></h2>
<p class="muted">${a.email} · id ${a.id} · since ${a.date_created.slice(0, 10)} · ${STATE_WORDS[a.status] ?? a.status}${a.operator ? ' · operator' : ''}</p>
<form method="post" action="/operator/accounts/${a.id}">
<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="q" value="${q}"><input type="hidden" name="page" value="${String(page)}">
<div class="contact-fields">
<div><label for="${f}-plan">Plan</label><select id="${f}-plan" name="plan">${options(PLANS, a.account_type)}</select></div>
<div><label for="${f}-state">State</label><select id="${f}-state" name="state">${options(states, a.status, (v) => STATE_WORDS[v] ?? v)}</select></div>
<div><label for="${f}-op">Operator</label><select id="${f}-op" name="operator">${options(['no', 'yes'], a.operator ? 'yes' : 'no')}</select></div>
<div><label for="${f}-send">Daily send cap</label><input id="${f}-send" name="send_limit" inputmode="numeric" pattern="[0-9]*" placeholder="default" value="${a.send_limit === null ? '' : String(a.send_limit)}" aria-describedby="send-help"></div>
</div>
<p><button type="submit" aria-label="Save ${a.username}">Save</button></p>
</form></section>`;
    });
    const body = html`<h1>Operator: accounts</h1>
${nav}
${message?.done ? html`<p class="notice" role="status">Saved: ${message.done}.</p>` : ''}
${message?.error ? html`<p class="error" role="alert">${message.error}</p>` : ''}
<form method="get" action="/operator/accounts" class="row contacts-search" role="search">
<div class="field"><label for="account-search">Username or email contains</label>
<input id="account-search" name="q" type="search" value="${q}"></div>
<button type="submit">Search</button>
</form>
<p id="send-help" class="muted">Daily send cap: recipients of invitations, reminders and test sends an account may mail in 24 hours. Empty: this server's caps (${defaults}, and the plan's); 0: no cap.</p>
<p>${String(total)} account(s)${q ? html` matching “${q}”` : ''}. New accounts from sign-up get the <strong>${deps.config.defaultPlan}</strong> plan (<code>DEFAULT_PLAN</code>).</p>
${cards.length ? cards : html`<p class="empty">No account matches.</p>`}
${
  pages > 1
    ? html`<nav aria-label="Pages" class="actions">${page > 1 ? html`<a class="button secondary" href="${listUrl(q, page - 1)}">Previous</a>` : ''}<span>Page ${String(page)} of ${String(pages)}</span>${page < pages ? html`<a class="button secondary" href="${listUrl(q, page + 1)}">Next</a>` : ''}</nav>`
    : ''
}`;
    return sendPage(
      reply,
      await userPage(deps, reply, user, 'Operator: accounts', body, { section: 'operator' }),
      message?.error ? 400 : 200,
    );
  }

  app.get(
    '/operator/accounts',
    { schema: { hide: true, querystring: ListQuery } },
    async (request, reply) => {
      const user = await operator(request, reply);
      if (!user) return reply;
      const query = request.query;
      return render(reply, user, query.q?.trim() ?? '', Number(query.page ?? 1), { done: query.done });
    },
  );

  app.post(
    '/operator/accounts/:userId',
    {
      schema: {
        hide: true,
        params: Type.Object({ userId: Type.String({ pattern: '^[0-9]{1,30}$' }) }),
        body: ChangeBody,
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const user = await operator(request, reply);
      if (!user) return reply;
      const form = request.body;
      const q = form.q?.trim() ?? '';
      const page = Number(form.page ?? 1);
      try {
        const changed = await changeAccount(
          deps,
          user,
          request.params.userId,
          {
            plan: form.plan,
            state: form.state,
            operator: form.operator === 'yes',
            sendLimit: sendLimitOf(form.send_limit),
          },
          request.ip ?? null,
        );
        return reply.redirect(listUrl(q, page, changed.length ? changed.join(', ') : 'nothing changed'), 303);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return render(reply, user, q, page, { error: err.message });
      }
    },
  );
}
