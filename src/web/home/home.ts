// The home page `/`: signed out, a short landing page; signed in, the owner's workspace: their
// surveys and those shared with them (listWorkspaceSurveys: the listSurveys GET /v3/surveys uses,
// with each survey's collector states), searched by title, sorted, filtered by folder and paged at
// 50, with per-survey actions (copy through createSurvey's from_survey_id, move to a folder through
// updateSurvey, delete through deleteSurvey after a confirmation), the owner's folders (the
// domain of /v3/survey_folders) and the "New survey" form (createSurvey, then the edit page).
// Every form works without script; a form answers with a 303 back to the list it came from.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  listWorkspaceSurveys,
  surveyDeletion,
  type WorkspaceSurvey,
} from '../../domain/collectors/states.js';
import { type SharedWithMe, sharedWithMe } from '../../domain/sharing/survey-shares.js';
import {
  createFolder,
  deleteFolder,
  type Folder,
  getFolder,
  listFolders,
  renameFolder,
} from '../../domain/surveys/folders.js';
import {
  copySurvey,
  createSurvey,
  deleteSurvey,
  type ListQuery,
  updateSurvey,
} from '../../domain/surveys/surveys.js';
import { CATEGORIES, TEMPLATES } from '../../domain/surveys/templates/index.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage, userPage } from '../account/frame.js';
import { askFirst, confirmed, type Destruction, destructiveForm } from '../confirm.js';
import { editUrl } from '../design/edit.js';
import { type Html, html, raw } from '../html.js';
import { page, surveyPaths } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, currentUser, loginUrl, safeNext } from '../session.js';
import { shareUrl } from '../sharing/share.js';
import { planOf } from '../typed.js';

const PER_PAGE = 50;
/** Folders shown on the page (the API pages them; an owner with more finds them by the API). */
const MAX_FOLDERS = 500;

const SORTS = {
  modified: { label: 'Recently modified', by: 'date_modified', order: 'DESC' },
  modified_asc: { label: 'Least recently modified', by: 'date_modified', order: 'ASC' },
  title: { label: 'Title A–Z', by: 'title', order: 'ASC' },
  title_desc: { label: 'Title Z–A', by: 'title', order: 'DESC' },
  responses: { label: 'Most responses', by: 'num_responses', order: 'DESC' },
  responses_asc: { label: 'Fewest responses', by: 'num_responses', order: 'ASC' },
} as const;
type Sort = keyof typeof SORTS;

const NOTICES: Record<string, string> = {
  copied: 'The survey was copied. The copy is named “Copy of …”.',
  moved: 'The survey was moved.',
  deleted: 'The survey was deleted.',
  'folder-created': 'The folder was created.',
  'folder-renamed': 'The folder was renamed.',
  'folder-deleted': 'The folder was deleted. Its surveys are kept, in no folder.',
};

const text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const HomeQuery = Type.Object({
  page: text(10),
  q: text(200),
  folder: text(20),
  sort: text(20),
  view: text(10),
  done: text(40),
});

/** Which surveys the list shows: all, the user's own, or those others shared with them. */
const VIEWS = { all: 'All surveys', mine: 'Mine', shared: 'Shared with me' } as const;
type View = keyof typeof VIEWS;
const VIEW_KEYS: View[] = ['all', 'mine', 'shared'];
const NewSurveyBody = Type.Object(
  { _csrf: Type.String({ maxLength: 200 }), title: text(100_000), template: text(100) },
  { additionalProperties: false },
);
const SurveyAction = <F extends TProperties>(fields: F) =>
  Type.Object(
    {
      _csrf: Type.String({ maxLength: 200 }),
      survey: Type.String({ pattern: '^[0-9]{1,20}$' }),
      back: text(1000),
      ...fields,
    },
    { additionalProperties: false },
  );
const FolderTitle = Type.String({ maxLength: 250, pattern: '^[^\\u0000]*$' });
const FolderBody = <F extends TProperties>(fields: F) =>
  Type.Object(
    { _csrf: Type.String({ maxLength: 200 }), back: text(1000), ...fields },
    { additionalProperties: false },
  );
const FolderId = Type.String({ pattern: '^[0-9]{1,20}$' });

/** The list's state, from its query string. */
interface ListState {
  q: string;
  folder: string;
  sort: Sort;
  view: View;
  page: number;
}

function listState(query: Record<string, string | undefined>): ListState {
  const n = Number.parseInt(query.page ?? '1', 10);
  return {
    q: (query.q ?? '').trim(),
    folder: /^[0-9]{1,20}$/.test(query.folder ?? '') ? query.folder! : '',
    sort: query.sort && query.sort in SORTS ? (query.sort as Sort) : 'modified',
    view: query.view === 'mine' || query.view === 'shared' ? query.view : 'all',
    page: Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1,
  };
}

/** The list's URL for a state (defaults left out). */
function listUrl(s: ListState, change: Partial<ListState> = {}): string {
  const next = { ...s, ...change };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  if (next.folder) params.set('folder', next.folder);
  if (next.sort !== 'modified') params.set('sort', next.sort);
  if (next.view !== 'all') params.set('view', next.view);
  if (next.page > 1) params.set('page', String(next.page));
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

/** Where a form posted from the list returns: the list it came from (never another site), with a notice. */
function backTo(back: string | undefined, done: string): string {
  const url = new URL(safeNext(back, '/'), 'http://local.invalid');
  url.searchParams.set('done', done);
  return url.pathname + url.search;
}

function landing(): string {
  return page(
    'Welcome',
    html`<section class="landing">
<h1>Survey Service</h1>
<p class="lead">Design surveys, collect responses and analyze the results. Everything can also be done through a REST API compatible with the SurveyMonkey API v3.</p>
<div class="actions"><a class="button" href="${loginUrl('/')}">Sign in</a><a class="button secondary" href="/signup">Create an account</a></div>
<ul class="links"><li><a href="/docs">API documentation</a></li><li><a href="/apps">App directory</a></li></ul>
</section>`,
  );
}

function when(iso: string): Html {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function collectorStatus(c: WorkspaceSurvey['collectors']): string {
  if (c.open + c.closed === 0) return 'No collector yet';
  return [c.open ? `${c.open} open` : '', c.closed ? `${c.closed} closed` : ''].filter(Boolean).join(' · ');
}

/** What deleting a survey loses, in the dialog and on the confirmation page. */
function surveyDestruction(s: {
  title: string;
  response_count: number;
  page_count: number;
  question_count: number;
  collectors: number;
}): Destruction {
  const name = s.title || 'Untitled survey';
  return {
    title: `Delete the survey “${name}”?`,
    lost: [
      `The survey “${name}” and its design: ${plural(s.page_count, 'page')} and ${plural(s.question_count, 'question')}.`,
      `${plural(s.response_count, 'response')}.`,
      `${plural(s.collectors, 'collector')}${s.collectors === 1 ? ': its link stops working' : s.collectors > 1 ? ': their links stop working' : ''}.`,
    ],
    button: 'Delete survey',
  };
}

function folderDestruction(f: Folder): Destruction {
  return {
    title: `Delete the folder “${f.title}”?`,
    lost: [
      `The folder “${f.title}”. ${
        f.num_surveys === 0
          ? 'It holds no survey.'
          : f.num_surveys === 1
            ? 'Its survey is kept, in no folder.'
            : `Its ${f.num_surveys} surveys are kept, in no folder.`
      }`,
    ],
    button: 'Delete folder',
  };
}

/** How a survey shared with the user reaches them: who shared it, with which role. */
function sharedNote(shared: SharedWithMe | undefined): Html {
  if (!shared) return html` <span class="badge accent">Shared with you</span>`;
  return html` <span class="badge accent">Shared with you</span>
<p class="small shared-by">Shared by ${shared.sharedBy.join(', ')} · ${shared.roles.join(', ')}${shared.workgroups.length ? html`<span class="muted"> (through ${shared.workgroups.join(', ')})</span>` : ''}</p>`;
}

function surveyRow(
  s: WorkspaceSurvey,
  user: User,
  folders: Folder[],
  csrf: string,
  back: string,
  shared: SharedWithMe | undefined,
): Html {
  const paths = surveyPaths(s);
  const name = s.title || 'Untitled survey';
  const own = s.owner_id === user.id;
  const mayShare = own || !!shared?.mayShare;
  const folder = folders.find((f) => f.id === s.folder_id);
  const fields = { survey: s.id, back };
  const moveId = `move-${s.id}`;
  return html`<tr>
<th scope="row"><a class="survey-title" href="${paths.edit}">${name}</a>
${own ? '' : sharedNote(shared)}${folder ? html` <span class="badge">${folder.title}</span>` : ''}
<ul class="links small" aria-label="Pages of ${name}"><li><a href="${paths.preview}">Preview</a></li><li><a href="${paths.collect}">Collect</a></li><li><a href="${paths.analyze}">Analyze</a></li><li><a href="${paths.responses}">Responses</a></li>${mayShare ? html`<li><a href="${shareUrl(s.manage_token)}">Share<span class="visually-hidden"> ${name}</span></a></li>` : ''}</ul></th>
<td data-label="Responses" class="num">${s.response_count}</td>
<td data-label="Collectors">${collectorStatus(s.collectors)}</td>
<td data-label="Modified">${when(s.date_modified)}</td>
<td class="survey-actions"><div class="row">
<form method="post" action="/surveys/copy" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="survey" value="${s.id}"><input type="hidden" name="back" value="${back}"><button type="submit" class="secondary" aria-label="Copy ${name}">Copy</button></form>
${
  own
    ? destructiveForm(
        '/surveys/delete',
        csrf,
        surveyDestruction({ ...s, collectors: s.collectors.open + s.collectors.closed }),
        { label: 'Delete', name: `Delete ${name}`, fields },
      )
    : ''
}
</div>
${
  own && folders.length > 0
    ? html`<details class="move"><summary>Move<span class="visually-hidden"> ${name} to a folder</span></summary>
<form method="post" action="/surveys/move" class="row">
<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="survey" value="${s.id}"><input type="hidden" name="back" value="${back}">
<label for="${moveId}" class="visually-hidden">Folder for ${name}</label>
<select id="${moveId}" name="folder"><option value="0"${s.folder_id ? '' : raw(' selected')}>No folder</option>${folders.map(
        (f) =>
          html`<option value="${f.id}"${f.id === s.folder_id ? raw(' selected') : ''}>${f.title}</option>`,
      )}</select>
<button type="submit" class="secondary">Move</button>
</form></details>`
    : ''
}</td>
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

function newSurveyForm(
  csrf: string,
  first: boolean,
  form: { title?: string; template?: string; error?: string },
): Html {
  const heading = first ? 'Create your first survey' : 'New survey';
  return html`<section class="card new-survey" aria-labelledby="new-heading">
<h2 id="new-heading">${heading}</h2>
<form method="post" action="/surveys/new">
<input type="hidden" name="_csrf" value="${csrf}">
${form.error ? html`<p role="alert" class="error" id="new-error">${form.error}</p>` : ''}
<label for="new-title">Title</label>
<p class="hint" id="new-title-help">Leave empty to use the template's title (or "New Survey").</p>
<input id="new-title" name="title" type="text" maxlength="250" value="${form.title ?? ''}" aria-describedby="new-title-help${form.error ? ' new-error' : ''}">
<label for="new-template">Start from</label>
<select id="new-template" name="template">${templateOptions(form.template)}</select>
<div class="actions"><button type="submit">Create survey</button></div>
</form>
</section>`;
}

function foldersSection(folders: Folder[], state: ListState, csrf: string, back: string): Html {
  const current = folders.find((f) => f.id === state.folder);
  return html`<section class="card folders" aria-labelledby="folders-heading">
<h2 id="folders-heading">Folders</h2>
${
  folders.length
    ? html`<ul class="links folder-list">${folders.map(
        (f) =>
          html`<li><a href="${listUrl(state, { folder: f.id, page: 1 })}"${f.id === state.folder ? raw(' aria-current="page"') : ''}>${f.title} <span class="muted">(${f.num_surveys})</span></a></li>`,
      )}</ul>`
    : html`<p class="hint">Folders group your surveys. A survey moves into one with its “Move” action.</p>`
}
${
  current
    ? html`<form method="post" action="/folders/rename" class="folder-rename">
<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="folder" value="${current.id}"><input type="hidden" name="back" value="${back}">
<label for="rename-folder">Rename “${current.title}”</label>
<div class="row"><input id="rename-folder" name="title" type="text" required maxlength="250" value="${current.title}"><button type="submit" class="secondary">Rename</button></div>
</form>
<div class="actions">${destructiveForm('/folders/delete', csrf, folderDestruction(current), {
        label: 'Delete this folder',
        fields: { folder: current.id, back: listUrl(state, { folder: '', page: 1 }) },
      })}</div>`
    : ''
}
<form method="post" action="/folders/new">
<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="back" value="${back}">
<label for="new-folder">New folder</label>
<div class="row"><input id="new-folder" name="title" type="text" required maxlength="250"><button type="submit" class="secondary">Create folder</button></div>
</form>
</section>`;
}

function viewTabs(state: ListState): Html {
  return html`<nav class="survey-tabs list-views" aria-label="Whose surveys"><ul>${VIEW_KEYS.map(
    (k) =>
      html`<li><a href="${listUrl(state, { view: k, page: 1 })}"${k === state.view ? raw(' aria-current="page"') : ''}>${VIEWS[k]}</a></li>`,
  )}</ul></nav>`;
}

function filterForm(state: ListState, folders: Folder[]): Html {
  return html`<form method="get" action="/" class="filter-bar" role="search" aria-label="Find surveys">
${state.view === 'all' ? '' : html`<input type="hidden" name="view" value="${state.view}">`}
<div><label for="q">Search titles</label><input id="q" name="q" type="search" maxlength="200" value="${state.q}"></div>
<div><label for="folder">Folder</label><select id="folder" name="folder"><option value="">All surveys</option>${folders.map(
    (f) => html`<option value="${f.id}"${f.id === state.folder ? raw(' selected') : ''}>${f.title}</option>`,
  )}</select></div>
<div><label for="sort">Sort by</label><select id="sort" name="sort">${Object.entries(SORTS).map(
    ([k, v]) => html`<option value="${k}"${k === state.sort ? raw(' selected') : ''}>${v.label}</option>`,
  )}</select></div>
<div><button type="submit">Show</button></div>
</form>`;
}

async function home(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  state: ListState,
  notice?: string,
  form: { title?: string; template?: string; error?: string } = {},
): Promise<string> {
  const sort = SORTS[state.sort];
  const query: ListQuery = {
    offset: (state.page - 1) * PER_PAGE,
    limit: PER_PAGE,
    filters: state.view === 'mine' ? ['owned'] : state.view === 'shared' ? ['shared_with'] : [],
    title: state.q || undefined,
    folderId: state.folder || undefined,
    sortBy: sort.by,
    sortOrder: sort.order,
  };
  const [[total, rows], [, folders]] = await Promise.all([
    listWorkspaceSurveys(deps, user.id, query),
    listFolders(deps, user.id, 0, MAX_FOLDERS),
  ]);
  const shared = await sharedWithMe(
    deps,
    user.id,
    rows.filter((r) => r.owner_id !== user.id).map((r) => r.id),
  );
  const filtered = Boolean(state.q || state.folder || state.view !== 'all');
  const first = total === 0 && !filtered;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const csrf = await csrfToken(deps, reply);
  const back = listUrl(state);
  const list =
    rows.length > 0
      ? html`<table class="cards survey-list">
<caption class="visually-hidden">Surveys (${SORTS[state.sort].label.toLowerCase()})</caption>
<thead><tr><th scope="col">Survey</th><th scope="col" class="num">Responses</th><th scope="col">Collectors</th><th scope="col">Modified</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows.map((s) => surveyRow(s, user, folders, csrf, back, shared.get(s.id)))}</tbody>
</table>
${
  pages > 1
    ? html`<nav class="paging" aria-label="Survey list pages">
${state.page > 1 ? html`<a href="${listUrl(state, { page: state.page - 1 })}" rel="prev">Previous page</a>` : ''}
<span>Page ${state.page} of ${pages}</span>
${state.page < pages ? html`<a href="${listUrl(state, { page: state.page + 1 })}" rel="next">Next page</a>` : ''}
</nav>`
    : ''
}`
      : first
        ? html`<div class="empty"><p><strong>You have no surveys yet</strong>, and none are shared with you.</p><p><a class="button" href="#new-title">Create your first survey</a></p><p>Moving from SurveyMonkey? <a href="/import">Import your surveys, responses and contacts</a>.</p></div>`
        : state.view === 'shared' && !state.q && !state.folder
          ? html`<div class="empty" id="none-shared"><p>No survey is shared with you yet. When someone shares a survey with a workgroup you are in, it appears here.</p></div>`
          : html`<div class="empty"><p>No surveys match${state.q ? html` “${state.q}”` : ''}${state.folder ? ' in this folder' : ''}${state.page > 1 ? ' on this page' : ''}.</p><p><a href="/">Show all surveys</a></p></div>`;
  const summary = first
    ? ''
    : html`<p class="muted" role="status" id="survey-count">${plural(total, 'survey')}${filtered ? ' found' : ''}${pages > 1 ? `, page ${state.page} of ${pages}` : ''}.</p>`;
  const body = html`<h1>Your surveys</h1>
${notice ? html`<p class="notice ok" role="status">${notice}</p>` : ''}
${first ? '' : viewTabs(state)}
${first ? '' : filterForm(state, folders)}
<section aria-labelledby="list-heading">
<h2 id="list-heading" class="visually-hidden">Survey list</h2>
${summary}
${list}
</section>
<div class="workspace-panels">
${newSurveyForm(csrf, first, form)}
${first && folders.length === 0 ? '' : foldersSection(folders, state, csrf, back)}
</div>`;
  return userPage(deps, reply, user, 'Your surveys', body, { section: 'surveys' });
}

/** The signed-in user of a form post, as the domain's actor; a visitor is sent to sign in. */
async function postingUser(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const user = await currentUser(deps, request);
  if (!user) {
    reply.redirect(loginUrl('/'), 303);
    return null;
  }
  return { user, plan: planOf(user), ip: request.ip ?? null };
}

export async function homePages(app: PageApp, deps: Deps): Promise<void> {
  const post = { schema: { hide: true }, preHandler: app.csrfProtection };

  app.get('/', { schema: { hide: true, querystring: HomeQuery } }, async (request, reply) => {
    const user = await currentUser(deps, request);
    if (!user) return sendPage(reply, landing());
    const query = request.query;
    const notice = query.done ? NOTICES[query.done] : undefined;
    return sendPage(reply, await home(deps, reply, user, listState(query), notice));
  });

  app.post(
    '/surveys/new',
    { schema: { hide: true, body: NewSurveyBody }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const form = request.body;
      const title = (form.title ?? '').trim();
      const template = form.template || undefined;
      try {
        if (title.includes('\u0000'))
          throw new ApiError(1002, 'The title contains a character that is not allowed.');
        if (title.length > 250) throw new ApiError(1002, 'The title is longer than 250 characters.');
        if (template && !TEMPLATES.some((t) => t.id === template))
          throw new ApiError(1002, 'Choose a template from the list.');
        const survey = await createSurvey(deps, actor, {
          ...(title ? { title } : {}),
          ...(template ? { from_template_id: template } : {}),
        });
        return reply.redirect(editUrl(survey.manage_token), 303);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return sendPage(
          reply,
          await home(deps, reply, actor.user, listState({}), undefined, {
            title,
            template,
            error: err.detail ?? err.message,
          }),
          Math.min(err.status, 500),
        );
      }
    },
  );

  app.post(
    '/surveys/copy',
    { ...post, schema: { hide: true, body: SurveyAction({}) } },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const body = request.body;
      await copySurvey(deps, actor, body.survey);
      // The copy is the most recently modified survey: the first row of the default list.
      return reply.redirect(backTo('/', 'copied'), 303);
    },
  );

  app.post(
    '/surveys/move',
    { ...post, schema: { hide: true, body: SurveyAction({ folder: text(20) }) } },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const body = request.body;
      await updateSurvey(deps, actor, body.survey, { folder_id: body.folder || '0' }, 'patch');
      return reply.redirect(backTo(body.back, 'moved'), 303);
    },
  );

  app.post(
    '/surveys/delete',
    { ...post, schema: { hide: true, body: SurveyAction({ confirm: text(10) }) } },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const body = request.body;
      if (!confirmed(body)) {
        const { survey, collectors } = await surveyDeletion(deps, actor, body.survey);
        const back = safeNext(body.back, '/');
        return askFirst(deps, reply, actor.user, {
          action: '/surveys/delete',
          destruction: surveyDestruction({ ...survey, collectors }),
          cancelHref: back,
          fields: { survey: survey.id, back },
        });
      }
      await deleteSurvey(deps, actor, body.survey);
      return reply.redirect(backTo(body.back, 'deleted'), 303);
    },
  );

  app.post(
    '/folders/new',
    { ...post, schema: { hide: true, body: FolderBody({ title: FolderTitle }) } },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const body = request.body;
      await createFolder(deps, actor.user.id, body.title.trim() || undefined);
      return reply.redirect(backTo(body.back, 'folder-created'), 303);
    },
  );

  app.post(
    '/folders/rename',
    { ...post, schema: { hide: true, body: FolderBody({ folder: FolderId, title: FolderTitle }) } },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const body = request.body;
      await renameFolder(deps, actor.user.id, body.folder, body.title.trim() || undefined);
      return reply.redirect(backTo(body.back, 'folder-renamed'), 303);
    },
  );

  app.post(
    '/folders/delete',
    { ...post, schema: { hide: true, body: FolderBody({ folder: FolderId, confirm: text(10) }) } },
    async (request, reply) => {
      const actor = await postingUser(deps, request, reply);
      if (!actor) return reply;
      const body = request.body;
      if (!confirmed(body)) {
        const folder = await getFolder(deps, actor.user.id, body.folder);
        const back = safeNext(body.back, '/');
        return askFirst(deps, reply, actor.user, {
          action: '/folders/delete',
          destruction: folderDestruction(folder),
          cancelHref: back,
          fields: { folder: folder.id, back },
        });
      }
      await deleteFolder(deps, actor.user.id, body.folder);
      return reply.redirect(backTo(body.back, 'folder-deleted'), 303);
    },
  );
}
