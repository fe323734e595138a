// The survey preview (the `preview` URL of a survey, and templates' preview_link): the survey as a
// respondent sees it, page by page, reached by the unguessable token in the URL, no sign-in, and
// nothing entered is saved. Navigation posts the page back only to move between pages.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import { oneAtATime, screensOf } from '../../domain/responses/screens.js';
import { mayAccess, type SurveyRow, surveyByPreviewToken } from '../../domain/surveys/access.js';
import type { ButtonsText } from '../../domain/surveys/blueprint.js';
import { normalizeQuestion } from '../../domain/surveys/question-rules.js';
import { loadDesign, settingsOf } from '../../domain/surveys/surveys.js';
import { findTemplate } from '../../domain/surveys/templates/index.js';
import { sendPage } from '../account/frame.js';
import { type Html, html, inlineStyle } from '../html.js';
import { page as layout, surveyPaths, workspaceHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { pageArea } from '../page-area.js';
import { lookOf, withTheme } from '../respond/theme.js';
import { currentUser } from '../session.js';
import { type RenderableQuestion, renderQuestion, richText } from './render-question.js';

interface PreviewPage {
  title: string;
  description: string;
  questions: RenderableQuestion[];
}

interface PreviewSurvey {
  title: string;
  language: string;
  buttons: ButtonsText;
  footer: boolean;
  /** its pages, or its screens when it is shown one question at a time */
  pages: PreviewPage[];
  /** what the progress counts */
  unit: 'Page' | 'Question';
  /** Where the page's form posts to (carries the token). */
  action: string;
  /** What the banner says this is. */
  kind: 'survey' | 'template';
  /** The survey's look (its theme's stylesheet), as on its respondent pages. */
  styles?: string[];
  /** For a signed-in visitor: their workspace header, and the builder's URL when they may design. */
  owner?: { header: Html; design?: string };
}

const STYLE = inlineStyle(`
.preview-banner { background: #fff4ce; border: 1px solid #e0c060; padding: .5rem .75rem; border-radius: 4px; margin-bottom: 1rem; justify-content: space-between; }
.preview-banner p { margin: 0; }
.page-title { margin-top: 0; }
nav.survey-nav { display: flex; gap: .75rem; margin-top: 1.5rem; }
.progress { color: var(--muted); }
footer.powered { margin-top: 2rem; color: var(--muted); font-size: .9rem; }
`);

function send(reply: FastifyReply, status: number, body: string): FastifyReply {
  return sendPage(reply, body, status, { noindex: true });
}

function banner(s: PreviewSurvey): Html {
  const back = s.owner?.design;
  return html`<div class="preview-banner spread" role="status"><p><strong>Preview</strong>: this is how respondents see the ${s.kind}. Answers entered here are not saved.</p>${back ? html`<a class="button secondary" href="${back}">Back to design</a>` : ''}</div>`;
}

const layoutOf = (s: PreviewSurvey) => ({
  lang: s.language,
  styles: s.styles,
  ...(s.owner ? { header: s.owner.header } : {}),
});

function renderPage(s: PreviewSurvey, index: number, values: Record<string, string | string[]>): string {
  const total = s.pages.length;
  const p = s.pages[index];
  let number = s.pages
    .slice(0, index)
    .reduce((n, x) => n + x.questions.filter((q) => q.family !== 'presentation').length, 0);
  const questions = p.questions.map((q) =>
    renderQuestion(q, { number: q.family === 'presentation' ? undefined : ++number, values }),
  );
  const isLast = index === total - 1;
  const body = html`${STYLE}${banner(s)}
<h1>${s.title}</h1>
<form method="post" action="${s.action}" novalidate>
<input type="hidden" name="p" value="${index + 1}">
${p.title ? html`<h2 class="page-title">${richText(p.title)}</h2>` : ''}
${p.description ? html`<p>${richText(p.description)}</p>` : ''}
${questions.length > 0 ? questions : html`<p class="muted">This page has no questions yet.</p>`}
<nav class="survey-nav" aria-label="Survey pages">
${index > 0 ? html`<button type="submit" name="nav" value="prev" class="secondary">${s.buttons.prev_button}</button>` : ''}
<button type="submit" name="nav" value="${isLast ? 'done' : 'next'}">${isLast ? s.buttons.done_button : s.buttons.next_button}</button>
${s.buttons.exit_button ? html`<button type="submit" name="nav" value="exit" class="secondary">${s.buttons.exit_button}</button>` : ''}
</nav>
<p class="progress">${s.unit} ${index + 1} of ${total}</p>
</form>
${s.footer ? html`<footer class="powered">Powered by Survey Service</footer>` : ''}`;
  return layout(`${s.title} (preview)`, body, layoutOf(s));
}

function renderEnd(s: PreviewSurvey, exited: boolean): string {
  const body = html`${STYLE}${banner(s)}
<h1>${s.title}</h1>
<p role="status">${exited ? 'You left the survey.' : 'Thank you for completing the survey.'} This was a preview: nothing was saved.</p>
<p><a href="${s.action}">Start the preview again</a></p>`;
  return layout(`${s.title} (preview)`, body, layoutOf(s));
}

function notFound(reply: FastifyReply): FastifyReply {
  return send(
    reply,
    404,
    layout(
      'Survey not found',
      html`<h1>Survey not found</h1><p>This preview link is not valid. Ask the survey’s owner for a new one.</p>`,
    ),
  );
}

/** The signed-in visitor's frame: their header, and "Back to design" when they may read the design. */
async function ownerOf(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  survey?: SurveyRow,
): Promise<PreviewSurvey['owner']> {
  const user = await currentUser(deps, request);
  if (!user) return undefined;
  const header = await workspaceHeader(deps, reply, user, 'surveys');
  const design =
    survey && (await mayAccess(deps, { user }, survey.id, 'design', 'read'))
      ? surveyPaths(survey).edit
      : undefined;
  return { header, design };
}

async function surveyPreview(
  deps: Deps,
  token: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<PreviewSurvey | undefined> {
  const survey = await surveyByPreviewToken(deps, token);
  if (!survey) return undefined;
  const settings = settingsOf(survey);
  const { pages, questions } = await loadDesign(deps, survey.id);
  const asPages = pages.map((p) => ({
    title: p.title,
    description: p.description,
    questions: questions.get(p.id) ?? [],
  }));
  const screens = oneAtATime(survey);
  return {
    title: survey.title,
    language: survey.language,
    buttons: settings.buttons_text,
    footer: settings.footer,
    pages: screens ? asPages.flatMap(asScreens) : asPages,
    unit: screens ? 'Question' : 'Page',
    action: `/r/Preview/?sm=${encodeURIComponent(token)}`,
    kind: 'survey',
    styles: lookOf(await withTheme(deps, survey)).styles,
    owner: await ownerOf(deps, request, reply, survey),
  };
}

/** A page as the live survey shows it one question at a time (domain/responses/screens.ts): one
 * preview page per screen, the page's title on each and its description on the first. */
function asScreens(p: PreviewPage): PreviewPage[] {
  return screensOf(p.questions).map((questions, i) => ({
    title: p.title,
    description: i === 0 ? p.description : '',
    questions,
  }));
}

function templatePreview(id: string): PreviewSurvey | undefined {
  const t = findTemplate(id);
  if (!t) return undefined;
  let n = 0;
  const next = () => `${id}${String(++n).padStart(4, '0')}`;
  return {
    title: t.title,
    language: 'en',
    buttons: { next_button: 'Next', prev_button: 'Prev', exit_button: 'Exit', done_button: 'Done' },
    footer: true,
    unit: 'Page',
    pages: t.pages.map((p) => ({
      title: p.title ?? '',
      description: p.description ?? '',
      questions: p.questions.map((q) => ({
        id: next(),
        family: q.family,
        subtype: q.subtype,
        doc: normalizeQuestion(q, next),
      })),
    })),
    action: `/r/Template/${encodeURIComponent(id)}`,
    kind: 'template',
  };
}

type Form = Record<string, string | string[] | undefined>;

/** The page to show after a navigation post (1-based page in, 0-based index out), or an end state. */
function navigate(s: PreviewSurvey, form: Form): number | 'done' | 'exit' {
  const current = Math.max(1, Math.min(s.pages.length, Number.parseInt(String(form.p ?? '1'), 10) || 1)) - 1;
  switch (form.nav) {
    case 'prev':
      return Math.max(0, current - 1);
    case 'next':
      return Math.min(s.pages.length - 1, current + 1);
    case 'done':
      return 'done';
    case 'exit':
      return 'exit';
    default:
      return current;
  }
}

/** Answers typed on the page are echoed back only when the respondent stays on it. */
function echo(form: Form): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(form).filter(([k, v]) => k.startsWith('q_') && v !== undefined),
  ) as Record<string, string | string[]>;
}

export function surveyWebPages(deps: Deps) {
  return pageArea('survey-preview-pages', deps, [previewRoutes]);
}

function previewRoutes(app: PageApp, deps: Deps): void {
  const show = (
    reply: FastifyReply,
    s: PreviewSurvey,
    index: number | 'done' | 'exit',
    values: Form = {},
  ) => {
    if (s.pages.length === 0 || index === 'done' || index === 'exit')
      return send(reply, 200, renderEnd(s, index === 'exit'));
    return send(reply, 200, renderPage(s, index, echo(values)));
  };

  app.get<{ Querystring: { sm?: string; p?: string } }>(
    '/r/Preview/',
    { schema: { hide: true } },
    async (request, reply) => {
      const s = await surveyPreview(deps, String(request.query.sm ?? ''), request, reply);
      if (!s) return notFound(reply);
      const p = Math.max(
        1,
        Math.min(s.pages.length, Number.parseInt(String(request.query.p ?? '1'), 10) || 1),
      );
      return show(reply, s, p - 1);
    },
  );

  app.post<{ Querystring: { sm?: string }; Body: Form }>(
    '/r/Preview/',
    { schema: { hide: true } },
    async (request, reply) => {
      const s = await surveyPreview(deps, String(request.query.sm ?? ''), request, reply);
      if (!s) return notFound(reply);
      const to = navigate(s, request.body ?? {});
      const stays = typeof to === 'number' && to + 1 === Number(request.body?.p);
      return show(reply, s, to, stays ? request.body : {});
    },
  );

  app.get<{ Params: { id: string }; Querystring: { p?: string } }>(
    '/r/Template/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const s = templatePreview(request.params.id);
      if (!s) return notFound(reply);
      s.owner = await ownerOf(deps, request, reply);
      const p = Math.max(
        1,
        Math.min(s.pages.length, Number.parseInt(String(request.query.p ?? '1'), 10) || 1),
      );
      return show(reply, s, p - 1);
    },
  );

  app.post<{ Params: { id: string }; Body: Form }>(
    '/r/Template/:id',
    { schema: { hide: true } },
    async (request, reply) => {
      const s = templatePreview(request.params.id);
      if (!s) return notFound(reply);
      s.owner = await ownerOf(deps, request, reply);
      return show(reply, s, navigate(s, request.body ?? {}));
    },
  );
}
