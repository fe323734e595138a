// The builder's theme page (/create/theme?sm=…): the survey's look (domain/themes) as one form:
// ready themes, colours, font, button shape and logo, with a sample of a respondent page drawn in
// the theme. "Preview" draws the sample with the fields as typed, without saving; "Save" keeps
// them. Works without JavaScript; the form is multipart for the logo, received like a
// respondent's upload (domain/uploads: admitted before the body is read, into UPLOAD_DIR/tmp,
// then checked by content).
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import {
  BUTTON_SHAPES,
  checkTheme,
  FONTS,
  LOGO_MAX_BYTES,
  READY_THEMES,
  saveTheme,
  type ThemeFields,
  themeOfSurvey,
  themePaths,
} from '../../domain/themes/themes.js';
import { discardFiles, type IncomingFile, receiveFile } from '../../domain/uploads/uploads.js';
import { ApiError } from '../../platform/errors.js';
import { userPage } from '../account/frame.js';
import {
  errorFor,
  type FormErrorState,
  formText,
  hidden,
  type ManagedPage,
  managedFormPost,
  managedPage,
  pageMessages,
} from '../forms.js';
import { type Html, html } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { previewStylesheet } from '../respond/theme.js';
import { csrfToken, formField } from '../session.js';
import { editUrl } from './editor-page.js';

export const themeUrl = (token: string) => `/create/theme?sm=${encodeURIComponent(token)}`;

interface ThemeState extends FormErrorState {
  notice?: string;
  /** the fields as typed (after an error, or for a preview) */
  draft?: Record<string, string>;
  previewing?: boolean;
}

type Body = Record<string, string | IncomingFile | undefined>;
const FIELDS = ['primary_color', 'background_color', 'text_color', 'font', 'button_shape'] as const;
const textOf = (body: Body): Record<string, string> =>
  Object.fromEntries(FIELDS.map((f) => [f, typeof body[f] === 'string' ? body[f] : '']));

function sample(survey: SurveyRow, logo: string | null): Html {
  return html`<div class="theme-preview" aria-label="Sample of a respondent page in this theme" role="group">
<div class="sample-header">${logo ? html`<img class="survey-logo" src="${logo}" alt="">` : ''}<span class="brand">${survey.title}</span></div>
<div class="sample-body">
<p class="sample-heading">1. How likely are you to recommend us?</p>
<p>Text in the theme's colour, and <a href="#theme-form">a link in its primary colour</a>.</p>
<div class="check"><input type="radio" id="sample-a" name="sample" checked><label for="sample-a">Very likely</label></div>
<div class="check"><input type="radio" id="sample-b" name="sample"><label for="sample-b">Not likely</label></div>
<p class="actions"><button type="button">Next</button> <button type="button" class="secondary">Previous</button></p>
</div></div>`;
}

async function render(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: ThemeState,
): Promise<string> {
  const writable = await mayAccess(deps, { user }, survey.id, 'design', 'write');
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const theme = await themeOfSurvey(deps, survey);
  const saved: ThemeFields = theme ?? READY_THEMES.classic.fields;
  const v: Record<string, string> = { ...saved, ...state.draft };
  let shown: ThemeFields = saved;
  if (state.previewing) shown = checkTheme(v);
  const logo = theme ? themePaths(theme).logo : null;
  const act = `/create/theme?sm=${encodeURIComponent(token)}`;
  const colour = (name: string, label: string, hint: string) =>
    html`<div class="field"><label for="theme-${name}">${label}</label>
<p class="hint muted" id="theme-${name}-hint">${hint}</p>
<input type="color" id="theme-${name}" name="${name}" value="${v[name]}" aria-describedby="theme-${name}-hint"></div>`;
  const form = writable
    ? html`<form method="post" action="${act}" enctype="multipart/form-data" class="card" id="theme-form" aria-labelledby="theme-form-heading">${hidden(csrf)}
<h2 id="theme-form-heading">Your theme</h2>
${errorFor(state, 'theme')}
${colour('primary_color', 'Primary colour', 'Buttons, links and the header line. Needs 4.5:1 contrast with the background and with white.')}
${colour('background_color', 'Background colour', 'Behind the survey.')}
${colour('text_color', 'Text colour', 'Needs 4.5:1 contrast with the background and with the white answer fields.')}
<label for="theme-font">Font</label>
<select id="theme-font" name="font">${Object.entries(FONTS).map(([key, f]) => html`<option value="${key}"${key === v.font ? html` selected` : ''}>${f.label}</option>`)}</select>
<fieldset><legend>Button shape</legend>${Object.keys(BUTTON_SHAPES).map(
        (key) =>
          html`<div class="check"><input type="radio" id="theme-shape-${key}" name="button_shape" value="${key}"${key === v.button_shape ? html` checked` : ''}><label for="theme-shape-${key}">${key[0].toUpperCase()}${key.slice(1)}</label></div>`,
      )}</fieldset>
<label for="theme-logo">Logo (PNG, JPEG, GIF or WebP, at most ${LOGO_MAX_BYTES / 1024} KB)</label>
<input type="file" id="theme-logo" name="logo" accept=".png,.jpg,.jpeg,.gif,.webp">
${logo ? html`<div class="check"><input type="checkbox" id="theme-remove-logo" name="remove_logo" value="1"><label for="theme-remove-logo">Remove the current logo</label></div>` : ''}
<div class="actions"><button type="submit" name="intent" value="save">Save theme</button><button type="submit" name="intent" value="preview" class="secondary">Preview without saving</button></div>
</form>
<section class="card" aria-labelledby="ready-heading"><h2 id="ready-heading">Ready themes</h2>
<p class="muted">Applying one keeps your logo.</p>
<form method="post" action="${act}" enctype="multipart/form-data" class="ready-themes">${hidden(csrf)}
${Object.entries(READY_THEMES).map(([key, t]) => html`<button type="submit" name="intent" value="ready:${key}" class="secondary">Apply ${t.label}</button>`)}
</form></section>`
    : '';
  const body = html`${surveyHeader(survey, 'edit')}
<p><a href="${editUrl(token)}">Back to the questions</a></p>
${pageMessages(state, writable, 'theme')}
<div class="theme-page">
${form}
<section aria-labelledby="sample-heading"><h2 id="sample-heading">${state.previewing ? 'Preview (not saved)' : 'How respondents see it'}</h2>
${sample(survey, logo ?? survey.logo_url)}</section>
</div>`;
  return userPage(deps, reply, user, `Theme: ${survey.title}`, body, {
    section: 'surveys',
    styles: [previewStylesheet(shown)],
  });
}

export async function themePages(app: PageApp, deps: Deps): Promise<void> {
  const page: ManagedPage<ThemeState> = {
    area: 'design',
    url: themeUrl,
    notices: { theme: 'The theme was saved. Respondents see it on the next page they open.' },
    render: (_request, reply, user, survey, token, state) => render(deps, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create/theme', page);

  // The post's multipart body: fields as strings, the logo received into UPLOAD_DIR/tmp, and
  // only once sign-in, write access, the upload's admission and the CSRF token allowed it
  // (managedFormPost's `upload`).
  await app.register(async (scope) => {
    await scope.register(multipart, {
      // a logo over the limit is cut there and refused by name (logoProblem), not a bare 413
      throwFileSizeLimit: false,
      limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1, fields: 20, fieldSize: 1000 },
    });
    managedFormPost(scope, deps, page, {
      path: '/create/theme',
      body: {
        ...Object.fromEntries(FIELDS.map((f) => [f, formText(40)])),
        remove_logo: formText(5),
        intent: formText(40),
        logo: Type.Optional(Type.Unknown()),
      },
      failed: (request, error) => ({ error, errorAt: 'theme', draft: textOf(bodyOf(request)) }),
      upload: {
        // a photo too big for a logo still reaches the form's own message (cut at the logo's limit,
        // the rest drained unwritten); beyond any upload's size the post is refused unread
        maxBytes: Math.max(LOGO_MAX_BYTES, deps.config.uploads.maxBytes) + 64 * 1024,
        receive: async (part) => {
          if (part.filename) return receiveFile(deps, 'logo', part.filename, part.file);
          // an empty file input sends a part with no name and nothing in it
          for await (const _ of part.file);
          return '';
        },
        // a kept logo was renamed away from tmp; anything else received goes
        discard: (received) => discardFiles(received.filter(isFile)),
      },
      action: async (request, survey, actor, reply) => {
        const body = bodyOf(request);
        const logo = body.logo && typeof body.logo !== 'string' ? body.logo : undefined;
        const intent = typeof body.intent === 'string' ? body.intent : 'save';
        if (intent === 'preview') {
          const draft = textOf(body);
          checkTheme(draft);
          return {
            markup: await render(deps, reply, actor.user, survey, tokenOf(request), {
              draft,
              previewing: true,
            }),
          };
        }
        let fields: ThemeFields;
        if (intent.startsWith('ready:')) {
          const ready = READY_THEMES[intent.slice(6)];
          if (!ready) throw new ApiError(1002, 'intent: unknown ready theme.');
          fields = ready.fields;
        } else fields = checkTheme(textOf(body));
        await saveTheme(deps, survey, fields, logo ?? (body.remove_logo === '1' ? 'remove' : undefined));
        return { done: 'theme' };
      },
    });
  });
}

const tokenOf = (request: FastifyRequest) => formField(request.query, 'sm') ?? '';

const isFile = (v: unknown): v is IncomingFile => typeof v === 'object' && v !== null;

/** The theme form's fields: text, and under `logo` the file received (validated by the post). */
function bodyOf(request: FastifyRequest): Body {
  const body: Body = {};
  if (typeof request.body === 'object' && request.body !== null)
    for (const [k, v] of Object.entries(request.body)) if (typeof v === 'string' || isFile(v)) body[k] = v;
  return body;
}
