// The home page `/`: signed out, a short landing page; signed in, the user's own surveys and those
// shared with them (the same listSurveys / sharedSurveyIds that GET /v3/surveys uses) with links
// to each survey's pages, and a "New survey" form that creates a survey through createSurvey
// (the path POST /v3/surveys takes) and opens its edit page.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { sharedSurveyIds } from '../../domain/surveys/access.js';
import { createSurvey, listSurveys, type SurveyListRow } from '../../domain/surveys/surveys.js';
import { CATEGORIES, TEMPLATES } from '../../domain/surveys/templates/index.js';
import { ApiError } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import { sendPage, userPage } from '../account/frame.js';
import { editUrl } from '../design/edit.js';
import { type Html, html, inlineStyle, raw } from '../html.js';
import { page } from '../layout.js';
import { csrfToken, currentUser, loginUrl } from '../session.js';
import { surveyLinks } from './links.js';

const PER_PAGE = 50;
const HomeQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });
const NewSurveyBody = Type.Object(
  {
    _csrf: Type.String({ maxLength: 200 }),
    title: Type.Optional(Type.String({ maxLength: 100_000 })),
    template: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

const STYLE = inlineStyle(`
.survey-links { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; padding: 0; margin: 0; }
.badge { display: inline-block; font-size: .8rem; padding: 0 .4rem; border-radius: 3px; border: 1px solid var(--muted); color: var(--fg); }
.badge.shared { background: #e8f0fb; }
nav.paging { display: flex; gap: 1rem; margin: 1rem 0; }
td.num { text-align: right; }
.landing ul { line-height: 2; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`);

function landing(): string {
  return page(
    'Welcome',
    html`${STYLE}<div class="landing">
<h1>Survey Service</h1>
<p>Design surveys, collect responses and analyze the results. Everything can also be done through a REST API compatible with the SurveyMonkey API v3.</p>
<ul>
<li><a href="${loginUrl('/')}">Sign in</a> to see and create your surveys</li>
<li><a href="/docs">API documentation</a></li>
<li><a href="/apps">App directory</a></li>
</ul>
</div>`,
  );
}

function when(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

function surveyRow(s: SurveyListRow, shared: boolean): Html {
  const links = surveyLinks(s);
  const name = s.title || 'Untitled survey';
  return html`<tr>
<th scope="row"><a href="${links.edit_url}">${name}</a></th>
<td>${shared ? html`<span class="badge shared">Shared with you</span>` : html`<span class="badge">Yours</span>`}</td>
<td class="num">${s.question_count}</td>
<td class="num">${s.response_count}</td>
<td>${when(s.date_modified)}</td>
<td><ul class="survey-links" aria-label="Pages of ${name}">
<li><a href="${links.preview}">Preview</a></li>
<li><a href="${links.edit_url}">Edit</a></li>
<li><a href="${links.collect_url}">Collect</a></li>
<li><a href="${links.analyze_url}">Analyze</a></li>
<li><a href="${links.summary_url}">Summary</a></li>
</ul></td>
</tr>`;
}

function templateOptions(selected: string | undefined): Html {
  return html`<option value="">Blank survey</option>
${CATEGORIES.map((c) => {
  const list = TEMPLATES.filter((t) => t.category === c.id);
  return list.length
    ? html`<optgroup label="${c.name}">${list.map((t) => html`<option value="${t.id}"${t.id === selected ? raw(' selected') : ''}>${t.name}</option>`)}</optgroup>`
    : '';
})}`;
}

async function home(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  pageNumber: number,
  form: { title?: string; template?: string; error?: string } = {},
): Promise<string> {
  const offset = (pageNumber - 1) * PER_PAGE;
  const [[total, rows], shared] = await Promise.all([
    listSurveys(deps, user.id, { offset, limit: PER_PAGE, filters: [] }),
    sharedSurveyIds(deps, user.id),
  ]);
  const sharedSet = new Set(shared);
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const csrf = await csrfToken(deps, reply);
  const list = rows.length
    ? html`<table>
<caption class="muted">Your surveys and the surveys shared with you, most recently changed first${pages > 1 ? ` (page ${pageNumber} of ${pages})` : ''}.</caption>
<thead><tr><th scope="col">Title</th><th scope="col">Access</th><th scope="col">Questions</th><th scope="col">Responses</th><th scope="col">Modified</th><th scope="col">Pages</th></tr></thead>
<tbody>${rows.map((s) => surveyRow(s, sharedSet.has(s.id)))}</tbody>
</table>
${
  pages > 1
    ? html`<nav class="paging" aria-label="Survey list pages">
${pageNumber > 1 ? html`<a href="/?page=${pageNumber - 1}" rel="prev">Previous page</a>` : ''}
${pageNumber < pages ? html`<a href="/?page=${pageNumber + 1}" rel="next">Next page</a>` : ''}
</nav>`
    : ''
}`
    : html`<p>You have no surveys yet, and none are shared with you. Create one below.</p>`;
  const body = html`${STYLE}
<h1>Your surveys</h1>
<section aria-labelledby="list-heading">
<h2 id="list-heading" class="visually-hidden">Survey list</h2>
${list}
</section>
<section aria-labelledby="new-heading">
<h2 id="new-heading">New survey</h2>
<form method="post" action="/surveys/new">
<input type="hidden" name="_csrf" value="${csrf}">
${form.error ? html`<p role="alert" class="error" id="new-error">${form.error}</p>` : ''}
<label for="new-title">Title</label>
<p class="muted" id="new-title-help">Leave empty to use the template's title (or "New Survey").</p>
<input id="new-title" name="title" type="text" maxlength="250" value="${form.title ?? ''}" aria-describedby="new-title-help${form.error ? ' new-error' : ''}">
<label for="new-template">Start from</label>
<select id="new-template" name="template">${templateOptions(form.template)}</select>
<p><button type="submit">Create survey</button></p>
</form>
</section>`;
  return userPage(deps, reply, user, 'Your surveys', body, { section: 'surveys' });
}

export async function homePages(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/', { schema: { hide: true, querystring: HomeQuery } }, async (request, reply) => {
    const user = await currentUser(deps, request);
    if (!user) return sendPage(reply, landing());
    const n = Number.parseInt((request.query as { page?: string }).page ?? '1', 10);
    const pageNumber = Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1;
    return sendPage(reply, await home(deps, reply, user, pageNumber));
  });

  app.post(
    '/surveys/new',
    { schema: { hide: true, body: NewSurveyBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl('/'), 303);
      const form = request.body as { title?: string; template?: string };
      const title = (form.title ?? '').trim();
      const template = form.template || undefined;
      try {
        if (title.includes('\u0000'))
          throw new ApiError(1002, 'The title contains a character that is not allowed.');
        if (title.length > 250) throw new ApiError(1002, 'The title is longer than 250 characters.');
        if (template && !TEMPLATES.some((t) => t.id === template))
          throw new ApiError(1002, 'Choose a template from the list.');
        const survey = await createSurvey(
          deps,
          { user, plan: user.account_type as Plan, ip: request.ip ?? null },
          { ...(title ? { title } : {}), ...(template ? { from_template_id: template } : {}) },
        );
        return reply.redirect(editUrl(survey.manage_token), 303);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return sendPage(
          reply,
          await home(deps, reply, user, 1, { title, template, error: err.detail ?? err.message }),
          Math.min(err.status, 500),
        );
      }
    },
  );
}
