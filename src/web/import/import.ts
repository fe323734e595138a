// The import page (/import): moving in from SurveyMonkey (or another Survey Service) for a
// signed-in owner. A form (source, token, daily budget) with a dry run and a start; each import's
// page (/import/<id>) with its progress, refreshed by the Refresh header while it runs (no script
// needed; "Stop updating" turns it off), and its final report. The rules live in
// src/domain/import/ (the same functions the CLI runs); the token stays in the memory of the
// process that runs the import (src/domain/import/background.ts), never in the database or logs.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  DEFAULT_DAILY_BUDGET,
  DEFAULT_SOURCE,
  type ImportRunner,
  importRunner,
  MAX_DAILY_BUDGET,
  planPageImport,
} from '../../domain/import/background.js';
import {
  type DryRun,
  type ImportStatus,
  importStatus,
  listImports,
  type Progress,
} from '../../domain/import/importer.js';
import { DRAFT_APP_DAY, DRAFT_APP_MINUTE, SOURCE_SCOPES } from '../../domain/import/plan.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import { workspacePage } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pageArea } from '../page-area.js';
import { csrfToken, formField, signedInOnly } from '../session.js';
import { type FileFormState, fileImportRoutes, fileResume, fileSection, sourceLabel } from './files.js';

/** Seconds between refreshes of a running import's page. */
const REFRESH_SECONDS = 3;

const Form = Type.Object(
  {
    _csrf: Type.String({ maxLength: 200 }),
    from: Type.Optional(Type.String({ maxLength: 500 })),
    token: Type.String({ maxLength: 2000 }),
    daily_budget: Type.String({ maxLength: 12 }),
    action: Type.Optional(Type.Union([Type.Literal('dry-run'), Type.Literal('start')])),
  },
  { additionalProperties: false },
);

const STATES: Record<string, [string, string]> = {
  running: ['Copying', 'accent'],
  paused: ['Paused: the day’s budget is spent', 'accent'],
  done: ['Done', 'ok'],
  failed: ['Failed', 'danger'],
  stopped: ['Stopped', 'danger'],
};

/** The kinds of things copied, as the page names them (counts over every run of the import). */
const KINDS: [string, string, keyof Progress['totals'] | null][] = [
  ['surveys', 'Surveys', 'surveys'],
  ['surveys_updated', 'Surveys updated', null],
  ['responses', 'Responses', 'responses'],
  ['responses_updated', 'Responses updated', null],
  ['collectors', 'Collectors', null],
  ['collectors_updated', 'Collectors updated', null],
  ['folders', 'Folders', null],
  ['contacts', 'Contacts', 'contacts'],
  ['contact_lists', 'Contact lists', null],
];

const duration = (s: number) => {
  if (s <= 0) return 'within today’s budget';
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.ceil((s % 3600) / 60);
  return `about ${d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`}`;
};
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const budgetOf = (raw: string) => (/^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN);

export function importPages(deps: Deps) {
  return pageArea('import-pages', deps, [
    async (app: PageApp) => {
      const runner = importRunner(deps);
      app.addHook('onClose', () => runner.stop());
      await importRoutes(app, deps, runner);
    },
  ]);
}

async function importRoutes(app: PageApp, deps: Deps, runner: ImportRunner): Promise<void> {
  const signedIn = signedInOnly(deps);

  async function frame(reply: FastifyReply, user: User, title: string, body: Html, status = 200) {
    return sendPage(
      reply,
      await workspacePage(deps, reply, user, title, body, { section: 'account' }),
      status,
    );
  }

  function startForm(
    csrf: string,
    values: { from?: string; budget?: string; token?: string },
    error?: ApiError,
    action = '/import',
    resume?: string,
  ): Html {
    const described = error
      ? html` aria-invalid="true" aria-describedby="import-error import-token-hint"`
      : html` aria-describedby="import-token-hint"`;
    return html`<form method="post" action="${action}" class="card import-form" novalidate>${hidden(csrf)}
${error ? html`<p class="notice danger" role="alert" id="import-error">${error.detail ?? error.message}</p>` : ''}
${
  resume
    ? ''
    : html`<label for="import-from">Source API address</label>
<input id="import-from" name="from" type="url" required value="${values.from ?? DEFAULT_SOURCE}" aria-describedby="import-from-hint">
<p class="hint" id="import-from-hint">SurveyMonkey’s API is ${DEFAULT_SOURCE}.</p>`
}
<label for="import-token">Access token of the account to copy</label>
<input id="import-token" name="token" type="password" autocomplete="off" required value="${values.token ?? ''}"${described}>
<p class="hint" id="import-token-hint">Kept only in the memory of the server process that runs the import, never stored: if the server restarts, this page asks for it again. After a dry run it stays in this form (only in that page) so that you can start at once.</p>
<label for="import-budget">Requests a day</label>
<input id="import-budget" name="daily_budget" type="number" inputmode="numeric" min="1" max="${MAX_DAILY_BUDGET}" required value="${values.budget ?? String(DEFAULT_DAILY_BUDGET)}" aria-describedby="import-budget-hint">
<p class="hint" id="import-budget-hint">SurveyMonkey allows a draft app ${DEFAULT_DAILY_BUDGET} requests a day; a large account is copied over several days.</p>
<div class="actions">${
      resume
        ? html`<button type="submit">${resume}</button>`
        : html`<button type="submit" name="action" value="start">Start the import</button>
<button type="submit" name="action" value="dry-run" class="secondary">Dry run: count only</button>`
    }</div>
</form>`;
  }

  function dryRunReport(plan: DryRun, budget: number): Html {
    return html`<section class="notice ok import-plan" aria-labelledby="plan-heading" role="status">
<h2 id="plan-heading">Dry run: what would be copied</h2>
<ul>
<li>${plural(plan.surveys, 'survey')} with ${plural(plan.responses, 'response')}</li>
<li>${plural(plan.folders, 'folder')}</li>
<li>${plural(plan.contacts, 'contact')} and ${plural(plan.contactLists, 'contact list')}</li>
</ul>
<p id="plan-days">About <strong>${plural(plan.requests, 'request')}</strong> to the source: <strong>${plural(plan.days, 'day')} at ${budget} a day</strong> to finish${
      budget === DRAFT_APP_DAY
        ? ''
        : html` (${plural(plan.draftAppDays, 'day')} at the ${DRAFT_APP_DAY} a day of a SurveyMonkey draft app)`
    }. This dry run made ${plural(plan.requestsMade, 'request')} and copied nothing. The token is still in the form below: start when you are ready.</p>
</section>`;
  }

  /** How to get a SurveyMonkey token that can read everything the importer reads. */
  function tokenHelp(): Html {
    return html`<details class="card import-help" id="token-help">
<summary>How to get a SurveyMonkey access token</summary>
<ol>
<li>Sign in to <a href="https://developer.surveymonkey.com/apps/">SurveyMonkey’s developer portal</a> with the account you are moving, and choose <strong>Add a New App</strong>. A draft app is enough: it is yours alone and needs no review.</li>
<li>In the app’s <strong>Settings</strong>, under <strong>Scopes</strong>, tick each of these (a token with the default scopes is refused with 403), then <strong>Update Scopes</strong>:
<ul>${SOURCE_SCOPES.map(
      (s) =>
        html`<li><strong>${s.label}</strong> (<code>${s.scope}</code>): read for ${s.endpoints.map((e, i) => html`${i > 0 ? ', ' : ''}<code>${e}</code>`)}</li>`,
    )}</ul></li>
<li>On the app’s <strong>Settings</strong> page, copy the <strong>Access Token</strong> under Credentials and paste it below.</li>
<li>Run a <strong>dry run</strong> first: it counts what would be copied and says how many days it takes. A draft app may make ${DRAFT_APP_DAY} requests a day and ${DRAFT_APP_MINUTE} a minute, so an account with many responses or contacts is copied over several days; the import goes on by itself each day while this server runs.</li>
</ol>
</details>`;
  }

  function importList(imports: ImportStatus[]): Html {
    if (imports.length === 0) return html``;
    return html`<section aria-labelledby="imports-heading"><h2 id="imports-heading">Your imports</h2>
<ul class="plain import-list">${imports.map(
      (i) =>
        html`<li><a href="/import/${i.id}">${sourceLabel(i.sourceUrl)}</a> ${stateBadge(i)} <span class="muted small">started ${i.createdAt.slice(0, 10)}</span></li>`,
    )}</ul></section>`;
  }

  function stateBadge(i: ImportStatus): Html {
    const [label, tone] = STATES[i.state] ?? [i.state, 'accent'];
    const waiting = !i.live && (i.state === 'running' || i.state === 'paused');
    const wanted = i.sourceUrl.startsWith('file:') ? 'Waiting for the file' : 'Waiting for the token';
    return html`<span class="badge ${waiting ? 'danger' : tone}">${waiting ? wanted : label}</span>`;
  }

  async function renderStart(
    request: FastifyRequest,
    reply: FastifyReply,
    state: { from?: string; budget?: string; token?: string; error?: ApiError; plan?: DryRun } = {},
    file: FileFormState = {},
  ) {
    const user = request.sessionUser;
    const csrf = await csrfToken(deps, reply);
    const body = html`<h1>Import</h1>
<section aria-labelledby="sm-heading"><h2 id="sm-heading">From SurveyMonkey</h2>
<p>Copies your surveys with their design, collectors and responses, your folders, contact fields, contacts and contact lists into this account, through the source’s API and within its daily request limit. Running it again later copies only what is new or changed.</p>
${tokenHelp()}
${state.plan ? dryRunReport(state.plan, budgetOf(state.budget ?? String(DEFAULT_DAILY_BUDGET))) : ''}
${startForm(csrf, state, state.error)}</section>
${fileSection(csrf, file)}
${importList(await listImports(deps, user.id))}`;
    const error = state.error ?? file.error;
    return frame(reply, user, 'Import', body, error ? error.status : 200);
  }

  await fileImportRoutes(app, deps, runner, (request, reply, file) => renderStart(request, reply, {}, file));

  app.get('/import', { schema: { hide: true }, preHandler: signedIn }, (request, reply) =>
    renderStart(request, reply),
  );

  app.post(
    '/import',
    { schema: { hide: true, body: Form }, preHandler: [signedIn, app.csrfProtection] },
    async (request, reply) => {
      const form = request.body;
      const values = { from: form.from ?? DEFAULT_SOURCE, budget: form.daily_budget };
      const options = {
        from: values.from,
        token: form.token.trim(),
        dailyBudget: budgetOf(form.daily_budget),
      };
      try {
        if (!options.token) throw new ApiError(1002, 'Enter the access token of the account to copy.');
        if (form.action === 'dry-run')
          return renderStart(request, reply, {
            ...values,
            // the token goes back into the password field of this one answer, never stored
            token: options.token,
            plan: await planPageImport(deps, options),
          });
        const id = await runner.start({ ...options, owner: request.sessionUser });
        return reply.redirect(`/import/${id}`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return renderStart(request, reply, { ...values, error: err });
      }
    },
  );

  const Params = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,20}$' }) });

  function progressView(s: ImportStatus): Html {
    const p = s.progress;
    const total = p.totals.responses;
    const counts = KINDS.filter(([k, , t]) => (p.copied[k] ?? 0) > 0 || (t && p.totals[t] > 0));
    return html`<section aria-labelledby="progress-heading" class="import-progress">
<h2 id="progress-heading">Progress</h2>
<label for="import-bar">Responses copied: ${p.responsesHere} of ${total}</label>
<progress id="import-bar" max="${Math.max(total, 1)}" value="${total > 0 ? p.responsesHere : s.state === 'done' ? 1 : 0}">${
      total > 0 ? Math.floor((100 * p.responsesHere) / total) : 0
    }%</progress>
<table class="cards import-counts"><caption>Copied so far, by kind</caption>
<thead><tr><th scope="col">Kind</th><th scope="col" class="num">Copied</th><th scope="col" class="num">In the source</th></tr></thead>
<tbody>${counts.map(
      ([k, label, t]) =>
        html`<tr><th scope="row" data-label="Kind">${label}</th><td data-label="Copied" class="num">${
          k === 'responses' ? p.responsesHere : (p.copied[k] ?? 0)
        }</td><td data-label="In the source" class="num">${t ? p.totals[t] : '—'}</td></tr>`,
    )}</tbody></table>
${
  s.sourceUrl.startsWith('file:')
    ? ''
    : html`<dl class="facts">
<dt>Requests today</dt><dd>${p.requestsToday} of ${p.dailyBudget}</dd>
<dt>Requests in all</dt><dd>${p.requestsTotal}</dd>
${
  s.state === 'done'
    ? ''
    : html`<dt>Time left</dt><dd>${duration(p.etaSeconds)} at ${p.dailyBudget} requests a day (about ${plural(p.requestsLeft, 'request')} to go)</dd>`
}
</dl>`
}</section>`;
  }

  function finalReport(s: ImportStatus): Html {
    if (s.skipped.length === 0)
      return s.state === 'done'
        ? html`<p>Everything was copied.</p>`
        : html`<p class="muted">Nothing has been left out so far.</p>`;
    return html`<section aria-labelledby="skipped-heading"><h2 id="skipped-heading">Not copied (${s.skipped.length})</h2>
<table class="cards import-skipped"><caption class="visually-hidden">What could not be copied, by name</caption>
<thead><tr><th scope="col">What</th><th scope="col">Name</th><th scope="col">Why</th></tr></thead>
<tbody>${s.skipped.map(
      (x) =>
        html`<tr><td data-label="What">${x.kind.replace('_', ' ')}</td><th scope="row" data-label="Name" class="break">${x.name}</th><td data-label="Why">${x.reason}</td></tr>`,
    )}</tbody></table></section>`;
  }

  async function renderJob(request: FastifyRequest, reply: FastifyReply, s: ImportStatus, error?: ApiError) {
    const user = request.sessionUser;
    const live = s.live && (s.state === 'running' || s.state === 'paused');
    const updating = live && formField(request.query, 'live') !== 'off';
    // The Refresh header reloads the page without any script; a header, not a <meta>, so it can be
    // turned off (WCAG 2.2.1) with the link below.
    if (updating) reply.header('refresh', String(s.state === 'paused' ? 60 : REFRESH_SECONDS));
    const needsToken = !live && s.state !== 'done';
    const csrf = await csrfToken(deps, reply);
    const status = html`<p class="import-state">${stateBadge(s)} ${
      s.state === 'paused' && live
        ? 'It goes on by itself when the budget renews at midnight UTC.'
        : s.state === 'running' && live
          ? 'Copying now.'
          : s.state === 'done'
            ? s.sourceUrl.startsWith('file:')
              ? 'The import is complete.'
              : 'The import is complete. Run it again later to copy what is new or changed.'
            : ''
    }</p>
${s.lastError ? html`<p class="notice danger" role="alert">The last run failed: ${s.lastError}</p>` : ''}
${
  live
    ? html`<p class="actions">${
        updating
          ? html`<a class="button secondary" href="/import/${s.id}?live=off">Stop updating</a>`
          : html`<a class="button secondary" href="/import/${s.id}">Update every few seconds</a>`
      }</p>`
    : ''
}`;
    const body = html`<p class="muted small"><a href="/import">Imports</a></p>
<h1>Import from ${sourceLabel(s.sourceUrl)}</h1>
${status}
${progressView(s)}
${finalReport(s)}
${
  s.sourceUrl.startsWith('file:')
    ? fileResume(s.state !== 'done' && !live)
    : needsToken || s.state === 'done'
      ? html`<section aria-labelledby="resume-heading"><h2 id="resume-heading">${
          s.state === 'done' ? 'Copy what changed' : 'Resume'
        }</h2>
<p>${
          s.state === 'done'
            ? 'Runs the import again: only what is new or changed at the source is copied.'
            : 'The import is not running in any server process (the server may have restarted, or the run stopped). Enter the token again to go on from where it stopped.'
        }</p>
${startForm(
  csrf,
  { budget: String(s.progress.dailyBudget) },
  error,
  `/import/${s.id}/resume`,
  s.state === 'done' ? 'Run the import again' : 'Resume the import',
)}</section>`
      : ''
}`;
    return frame(reply, user, 'Import', body, error ? error.status : 200);
  }

  app.get(
    '/import/:id',
    {
      schema: {
        hide: true,
        params: Params,
        querystring: Type.Object({ live: Type.Optional(Type.String({ maxLength: 5 })) }),
      },
      preHandler: signedIn,
    },
    async (request, reply) => {
      const { id } = request.params;
      return renderJob(request, reply, await importStatus(deps, request.sessionUser.id, id));
    },
  );

  app.post(
    '/import/:id/resume',
    { schema: { hide: true, params: Params, body: Form }, preHandler: [signedIn, app.csrfProtection] },
    async (request, reply) => {
      const user = request.sessionUser;
      const { id } = request.params;
      const form = request.body;
      const s = await importStatus(deps, user.id, id);
      try {
        if (!form.token.trim()) throw new ApiError(1002, 'Enter the access token of the account to copy.');
        const started = await runner.start({
          owner: user,
          from: s.sourceUrl,
          token: form.token.trim(),
          dailyBudget: budgetOf(form.daily_budget),
        });
        return reply.redirect(`/import/${started}`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return renderJob(request, reply, s, err);
      }
    },
  );
}
