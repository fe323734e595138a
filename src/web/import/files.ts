// The import page's second source: a survey file exported by another tool (LimeSurvey .lss or
// .lsa, and the tools registered in src/domain/import/files/converters.ts), uploaded with an
// optional responses file. A dry run shows what would come over and what would not; a start runs
// the same background import as SurveyMonkey's and leads to the same run page and report. The
// upload is read into memory only (never to disk), at most IMPORT_FILE_MAX_MB a file.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { ImportRunner } from '../../domain/import/background.js';
import { BadImportFile } from '../../domain/import/files/converted.js';
import { FILE_TOOLS } from '../../domain/import/files/converters.js';
import {
  checkFileSize,
  convertFile,
  type FileDryRun,
  fileToolOf,
  planFileImport,
  TOOL_NAMES,
} from '../../domain/import/files/import-file.js';
import { ApiError } from '../../platform/errors.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { signedInOnly } from '../session.js';
import { csrfRefusal, readMultipart } from '../uploads.js';

export interface FileFormState {
  tool?: string;
  error?: ApiError;
  plan?: FileDryRun;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How to export from each tool (the page's help). */
function exportHelp(): Html {
  return html`<details class="card import-help" id="file-help">
<summary>How to export a survey from LimeSurvey</summary>
<ol>
<li>In LimeSurvey, open the survey and choose <strong>Display/Export</strong> (LimeSurvey 3: <strong>Export</strong>; LimeSurvey 5 and 6: the survey’s <strong>Export</strong> menu).</li>
<li>For the questions and their answers, choose <strong>Survey archive (.lsa)</strong>: it holds the survey structure and its responses. A <strong>Survey structure (.lss)</strong> alone brings the questions without responses; a responses export (<strong>.lsr</strong>, from the archive) can go beside it.</li>
<li>Upload it below and run a dry run first: it lists what will not come over (other languages, equations, conditions this service cannot show, participant tokens…).</li>
</ol>
</details>`;
}

export function fileForm(csrf: string, state: FileFormState): Html {
  const error = state.error;
  const described = error
    ? html` aria-invalid="true" aria-describedby="file-error import-file-hint"`
    : html` aria-describedby="import-file-hint"`;
  return html`<form method="post" action="/import/file" enctype="multipart/form-data" class="card import-form" id="file-form" novalidate>${hidden(csrf)}
${error ? html`<p class="notice danger" role="alert" id="file-error">${error.detail ?? error.message}</p>` : ''}
<label for="import-tool">Exported by</label>
<select id="import-tool" name="tool">${FILE_TOOLS.map(
    (t) => html`<option value="${t}"${state.tool === t ? html` selected` : ''}>${TOOL_NAMES[t]}</option>`,
  )}</select>
<label for="import-file">Survey file</label>
<input id="import-file" name="file" type="file" required${described}>
<p class="hint" id="import-file-hint">LimeSurvey: a survey archive (.lsa) or a survey structure file (.lss).</p>
<label for="import-responses">Responses file (optional)</label>
<input id="import-responses" name="responses" type="file" aria-describedby="import-responses-hint">
<p class="hint" id="import-responses-hint">For a structure file alone: its responses export (LimeSurvey .lsr). Files are read in memory, never stored; each may be up to the server’s limit.</p>
<div class="actions"><button type="submit" name="action" value="start">Import the survey</button>
<button type="submit" name="action" value="dry-run" class="secondary">Dry run: list only</button></div>
</form>`;
}

function planView(plan: FileDryRun): Html {
  return html`<section class="notice ok import-plan" aria-labelledby="file-plan-heading" role="status">
<h3 id="file-plan-heading">Dry run: what would come over</h3>
<p>“${plan.title}” from ${TOOL_NAMES[plan.tool]}: ${plural(plan.pages, 'page')}, ${plural(plan.questions, 'question')} and ${plural(plan.responses, 'response')}. Nothing was written; choose the file again to import it.</p>
${
  plan.skipped.length
    ? html`<table class="cards import-skipped"><caption>What would not come over (${plan.skipped.length})</caption>
<thead><tr><th scope="col">What</th><th scope="col">Name</th><th scope="col">Why</th></tr></thead>
<tbody>${plan.skipped.map(
        (x) =>
          html`<tr><td data-label="What">${x.kind}</td><th scope="row" data-label="Name" class="break">${x.name}</th><td data-label="Why">${x.reason}</td></tr>`,
      )}</tbody></table>`
    : html`<p>Everything would come over.</p>`
}
</section>`;
}

/** The file import's part of the start page: help, the dry run's answer and the form. */
export function fileSection(csrf: string, state: FileFormState): Html {
  return html`<section aria-labelledby="file-heading" class="import-files">
<h2 id="file-heading">Import a survey from another tool</h2>
<p>Brings one survey, with its pages, questions and responses, from a file another tool exported. Every answer that has a place here comes over; the report names whatever does not.</p>
${exportHelp()}
${state.plan ? planView(state.plan) : ''}
${fileForm(csrf, state)}
</section>`;
}

interface Received {
  name: string;
  bytes: Buffer;
  truncated: boolean;
}

const isReceived = (v: unknown): v is Received =>
  typeof v === 'object' && v !== null && 'bytes' in v && Buffer.isBuffer(v.bytes) && 'truncated' in v;

/** POST /import/file: the upload read in memory, converted, then a dry run or a start. */
export async function fileImportRoutes(
  app: PageApp,
  deps: Deps,
  runner: ImportRunner,
  renderStart: (request: FastifyRequest, reply: FastifyReply, file: FileFormState) => Promise<unknown>,
): Promise<void> {
  const signedIn = signedInOnly(deps);
  await app.register(async (scope) => {
    await scope.register(multipart, {
      // a file past the limit is cut just past it and refused by name, not a bare 413
      throwFileSizeLimit: false,
      limits: { fileSize: deps.config.importFileMaxBytes + 1, files: 2, fields: 10, fieldSize: 1000 },
    });
    scope.post('/import/file', { schema: { hide: true }, preHandler: signedIn }, async (request, reply) => {
      if (!request.isMultipart())
        return renderStart(request, reply, { error: new ApiError(1002, 'Choose a file to upload.') });
      const read = await readMultipart<Received>(request, {
        allowed: (fields) => csrfRefusal(app, request, fields._csrf) === null,
        receive: async (part: MultipartFile) => {
          const chunks: Buffer[] = [];
          for await (const chunk of part.file) chunks.push(chunk);
          return { name: part.fieldname, bytes: Buffer.concat(chunks), truncated: part.file.truncated };
        },
        discard: async () => {},
      });
      if (read.refused) throw csrfRefusal(app, request, read.fields._csrf);
      const tool = typeof read.fields.tool === 'string' ? read.fields.tool : '';
      const action = read.fields.action === 'dry-run' ? 'dry-run' : 'start';
      const part = (name: string) =>
        read.items.find((x) => isReceived(x) && x.name === name && x.bytes.length > 0);
      const file = part('file');
      const responses = part('responses');
      try {
        if (!file) throw new BadImportFile('Choose the survey file to upload.');
        if (file.truncated) checkFileSize(deps, deps.config.importFileMaxBytes + 1);
        if (responses?.truncated) checkFileSize(deps, deps.config.importFileMaxBytes + 1, 'responses file');
        const input = { tool, file: file.bytes, responses: responses?.bytes };
        if (action === 'dry-run')
          return renderStart(request, reply, { tool, plan: await planFileImport(deps, input) });
        const id = await runner.startFile(request.sessionUser, await convertFile(deps, input));
        return reply.redirect(`/import/${id}`, 303);
      } catch (err) {
        if (err instanceof BadImportFile)
          return renderStart(request, reply, { tool, error: new ApiError(1002, err.message) });
        if (err instanceof ApiError && err.status < 500)
          return renderStart(request, reply, { tool, error: err });
        throw err;
      }
    });
  });
}

/** How an import's source is named on its pages: the tool's file, or the source API's address. */
export function sourceLabel(sourceUrl: string): string {
  const tool = fileToolOf(sourceUrl);
  return tool ? `a ${TOOL_NAMES[tool]} file` : sourceUrl;
}

/** A file import's page, once it stopped before the end: the file is needed again to go on. */
export function fileResume(stopped: boolean): Html {
  return stopped
    ? html`<section aria-labelledby="resume-heading"><h2 id="resume-heading">Resume</h2>
<p>The import is not running in any server process (the server may have restarted, or the run stopped). <a href="/import#file-form">Upload the same file again</a>: the import goes on from where it stopped, and nothing is copied twice.</p></section>`
    : html``;
}
