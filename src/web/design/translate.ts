// The builder's translations page (/create/translate?sm=…): the survey's languages with how much of
// each is translated, a download of the survey's texts for a target language as XLIFF 2.0 or CSV
// (domain/surveys/translation-files.ts), and an upload of the translated file, stored through the
// same saveTranslation the /v3 translation routes call; the answer names every text still without
// a translation. Works without JavaScript: a GET form downloads, a multipart form uploads.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { managedSurvey, mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { LANGUAGES } from '../../domain/surveys/languages.js';
import {
  exportTranslationFile,
  importTranslationFile,
  TRANSLATION_FILE_MAX_BYTES,
  type TranslationImport,
} from '../../domain/surveys/translation-files.js';
import { listTranslations } from '../../domain/surveys/translations.js';
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
import { csrfToken, currentUser, formField, loginUrl } from '../session.js';
import { editUrl } from './editor-page.js';

export const translateUrl = (token: string) => `/create/translate?sm=${encodeURIComponent(token)}`;

interface TranslateState extends FormErrorState {
  notice?: string;
  result?: TranslationImport;
  lang?: string;
}

/** The uploaded file read into memory, cut one byte past the limit (so an oversized one shows). */
interface Received {
  bytes: Buffer;
  truncated: boolean;
}

const contextName: Record<string, string> = {
  survey_title_html: 'Survey title',
  survey_next: 'Next button',
  survey_prev: 'Previous button',
  survey_done: 'Done button',
  survey_exit: 'Exit button',
  collector_disqualification: 'Disqualification message',
  question_heading: 'Question',
  question_option_text: 'Answer choice',
};

function languageSelect(id: string, survey: SurveyRow, chosen: string | undefined): Html {
  return html`<label for="${id}">Target language</label>
<select id="${id}" name="lang">${LANGUAGES.filter((l) => l.id !== survey.language).map(
    (l) =>
      html`<option value="${l.id}"${l.id === chosen ? html` selected` : ''}>${l.name} (${l.native_name})</option>`,
  )}</select>`;
}

function resultSection(r: TranslationImport): Html {
  const list = (items: TranslationImport['untranslated']) =>
    html`<ul>${items.map((t) => html`<li><span class="muted">${contextName[t.context] ?? t.context}:</span> ${t.default}</li>`)}</ul>`;
  return html`<section class="card" id="import-result" aria-labelledby="import-result-heading">
<h2 id="import-result-heading">${r.saved.language.name}: ${r.stored} ${r.stored === 1 ? 'text' : 'texts'} stored</h2>
<p>${r.saved.counts.translated_string_count} of ${r.saved.counts.string_count} texts are translated.</p>
${
  r.untranslated.length
    ? html`<h3>Not translated yet (${r.untranslated.length})</h3><p class="muted">Respondents see these in the survey’s own language.</p>${list(r.untranslated)}`
    : html`<p>Every text is translated.</p>`
}
${r.changed.length ? html`<h3>Changed since the file was made (${r.changed.length}, not stored)</h3>${list(r.changed)}` : ''}
</section>`;
}

async function render(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  survey: SurveyRow,
  token: string,
  state: TranslateState,
): Promise<string> {
  const writable = await mayAccess(deps, { user }, survey.id, 'design', 'write');
  const csrf = writable ? await csrfToken(deps, reply) : '';
  const existing = await listTranslations(deps, survey);
  const chosen = state.lang ?? existing[0]?.language.id;
  const table = existing.length
    ? html`<table><caption>The survey’s translations</caption><thead><tr><th scope="col">Language</th><th scope="col">Translated</th><th scope="col">Offered to respondents</th></tr></thead><tbody>${existing.map(
        (t) =>
          html`<tr><td>${t.language.name} (${t.language.native_name})</td><td>${t.counts.translated_string_count} of ${t.counts.string_count}</td><td>${t.enabled ? 'Yes' : 'No'}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">The survey has no translations yet.</p>`;
  const body = html`${surveyHeader(survey, 'edit')}
<p><a href="${editUrl(token)}">Back to the questions</a></p>
${pageMessages(state, writable, 'translate')}
${state.result ? resultSection(state.result) : ''}
<section class="card" aria-labelledby="languages-heading"><h2 id="languages-heading">Languages</h2>
<p>The survey is written in ${LANGUAGES.find((l) => l.id === survey.language)?.name ?? survey.language}. Respondents see it in the language their browser asks for, or the one they pick on the page.</p>
${table}</section>
<form method="get" action="/create/translate/file" class="card" aria-labelledby="download-heading">
<h2 id="download-heading">Download the texts to translate</h2>
<input type="hidden" name="sm" value="${token}">
${languageSelect('download-lang', survey, chosen)}
<fieldset><legend>File format</legend>
<div class="check"><input type="radio" id="format-xliff" name="format" value="xliff" checked><label for="format-xliff">XLIFF 2.0 (translation tools)</label></div>
<div class="check"><input type="radio" id="format-csv" name="format" value="csv"><label for="format-csv">CSV (spreadsheets)</label></div>
</fieldset>
<div class="actions"><button type="submit">Download</button></div>
</form>
${
  writable
    ? html`<form method="post" action="${translateUrl(token)}" enctype="multipart/form-data" class="card" id="upload-form" aria-labelledby="upload-heading">${hidden(csrf)}
<h2 id="upload-heading">Upload a translated file</h2>
${errorFor(state, 'translate')}
${languageSelect('upload-lang', survey, chosen)}
<label for="translation-file">XLIFF 2.0 or CSV file (at most ${TRANSLATION_FILE_MAX_BYTES / 1024 / 1024} MB)</label>
<input type="file" id="translation-file" name="file" accept=".xlf,.xliff,.csv,.xml" required>
<div class="actions"><button type="submit">Upload and save</button></div>
</form>`
    : ''
}`;
  return userPage(deps, reply, user, `Translations: ${survey.title}`, body, { section: 'surveys' });
}

const FileQuery = Type.Object({
  sm: Type.String({ maxLength: 100 }),
  lang: Type.String({ maxLength: 10 }),
  format: Type.Union([Type.Literal('xliff'), Type.Literal('csv')]),
});

export async function translatePages(app: PageApp, deps: Deps): Promise<void> {
  const page: ManagedPage<TranslateState> = {
    area: 'design',
    url: translateUrl,
    notices: {},
    render: (_request, reply, user, survey, token, state) => render(deps, reply, user, survey, token, state),
  };
  managedPage(app, deps, '/create/translate', page);

  app.get(
    '/create/translate/file',
    { schema: { hide: true, querystring: FileQuery } },
    async (request, reply) => {
      const { sm, lang, format } = request.query;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(translateUrl(sm)), 303);
      const survey = await managedSurvey(deps, { user }, sm, 'design', 'read');
      const file = await exportTranslationFile(deps, survey, lang, format);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  await app.register(async (scope) => {
    await scope.register(multipart, {
      // an oversized file is cut just past the limit and refused by name, not a bare 413
      throwFileSizeLimit: false,
      limits: { fileSize: TRANSLATION_FILE_MAX_BYTES + 1, files: 1, fields: 10, fieldSize: 1000 },
    });
    managedFormPost(scope, deps, page, {
      path: '/create/translate',
      body: { lang: formText(10), file: Type.Optional(Type.Unknown()) },
      failed: (request, error) => ({ error, errorAt: 'translate', lang: formField(request.body, 'lang') }),
      upload: {
        maxBytes: TRANSLATION_FILE_MAX_BYTES + 64 * 1024,
        receive: async (part: MultipartFile): Promise<Received> => {
          const chunks: Buffer[] = [];
          for await (const chunk of part.file) chunks.push(chunk as Buffer);
          return { bytes: Buffer.concat(chunks), truncated: part.file.truncated };
        },
        // read into memory only: nothing to remove
        discard: async () => {},
      },
      action: async (request, survey, actor, reply) => {
        const lang = formField(request.body, 'lang') ?? '';
        const file = request.body.file;
        if (!isReceived(file)) throw new ApiError(1002, 'Choose a translated file to upload.');
        const result = await importTranslationFile(deps, survey, lang, file.bytes, file.truncated);
        return {
          markup: await render(deps, reply, actor.user, survey, tokenOf(request), {
            result,
            lang,
            notice: `The ${result.saved.language.name} translation was saved.`,
          }),
        };
      },
    });
  });
}

const isReceived = (v: unknown): v is Received =>
  typeof v === 'object' && v !== null && 'bytes' in v && Buffer.isBuffer(v.bytes) && 'truncated' in v;

const tokenOf = (request: FastifyRequest) => formField(request.query, 'sm') ?? '';
