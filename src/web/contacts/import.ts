// Importing contacts from a CSV file on the Contacts page, in three steps: choose a file (or paste
// the CSV), check the preview of where each column goes (the mapping is guessed from the header
// and can be changed), then the result of every row: created, updated, already there, invalid
// with the reason, or a duplicate of an earlier row. The rules live in the contacts domain
// (src/domain/contacts/import.ts), which imports through the same bulk path as the API. The
// contacts can go into an existing list or a new one named on the preview.
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { listFields } from '../../domain/contacts/fields.js';
import {
  checkMapping,
  guessMapping,
  IMPORT_MAX_BYTES,
  IMPORT_TARGETS,
  type ImportRow,
  type ImportTarget,
  importContacts,
  type ParsedCsv,
  readCsv,
} from '../../domain/contacts/import.js';
import { createList, getList, listLists } from '../../domain/contacts/lists.js';
import { releaseUpload } from '../../domain/uploads/admission.js';
import { ApiError } from '../../platform/errors.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, formField, signedInOnly } from '../session.js';
import { planOf } from '../typed.js';
import { admitUploadRequest, csrfRefusal, readMultipart } from '../uploads.js';
import { contactsPage, formBody, listOf, many, messages, text, userOf } from './common.js';
import { nameOf } from './lists.js';

/** Sample rows shown under each column in the preview. */
const SAMPLES = 3;
const OUTCOMES: Record<ImportRow['result']['outcome'], string> = {
  created: 'Created',
  updated: 'Updated',
  existing: 'Already in the address book (left as it is)',
  invalid: 'Invalid',
  duplicate: 'Duplicate',
};

export async function importRoutes(app: PageApp, deps: Deps): Promise<void> {
  // Only the file upload step is multipart, read by its handler once sign-in, the upload's
  // admission and the CSRF token (the form's first field) allowed it; the file is read into a
  // string (one file, 1 MB).
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } });
  const signedIn = signedInOnly(deps);

  async function targetLabels(userId: string): Promise<Record<string, string>> {
    const fields = await listFields(deps, userId);
    return {
      email: 'Email address',
      first_name: 'First name',
      last_name: 'Last name',
      phone_number: 'Phone number',
      ...Object.fromEntries(fields.map((f) => [`custom_${f.id}`, `${f.label} (custom field ${f.id})`])),
    };
  }

  async function renderUpload(request: FastifyRequest, reply: FastifyReply, error?: ApiError) {
    const user = userOf(request);
    const body = html`${messages(undefined, error)}
<p>The first line of the file names the columns (for example <code>email,first_name,last_name</code>). You will see where each column goes before anything is imported.</p>
<form method="post" action="/contacts/import/preview" enctype="multipart/form-data" class="card">${hidden(await csrfToken(deps, reply))}
<div class="field"><label for="csv-file">CSV file (at most 1 MB)</label><input id="csv-file" name="file" type="file" accept=".csv,text/csv"></div>
<div class="field"><label for="csv-text">Or paste the CSV here</label><textarea id="csv-text" name="csv" rows="8"${
      error ? html` aria-invalid="true" aria-describedby="form-error"` : ''
    }></textarea></div>
<p><button type="submit">Preview the import</button></p></form>`;
    return contactsPage(
      deps,
      reply,
      user,
      'Import contacts',
      'import',
      body,
      error ? Math.min(error.status, 500) : 200,
    );
  }

  async function renderPreview(
    request: FastifyRequest,
    reply: FastifyReply,
    csvText: string,
    csv: ParsedCsv,
    mapping: ImportTarget[],
    options: { listId?: string; newList?: string; updateExisting?: boolean },
    error?: ApiError,
  ) {
    const user = userOf(request);
    const labels = await targetLabels(user.id);
    const lists = await listLists(deps, user.id, { offset: 0, perPage: 500 });
    const columns = csv.header.map((name, i) => {
      const samples = csv.rows.slice(0, SAMPLES).map((r) => r[i] ?? '');
      return html`<tr><th scope="row" data-label="Column">${name || `Column ${i + 1}`}</th>
<td data-label="Sample values" class="break">${samples.filter((s) => s).join(', ')}</td>
<td data-label="Import as"><label class="visually-hidden" for="map-${i}">Import column ${name || i + 1} as</label>
<select id="map-${i}" name="map"><option value="">Do not import</option>${IMPORT_TARGETS.map(
        (t) => html`<option value="${t}"${mapping[i] === t ? html` selected` : ''}>${labels[t]}</option>`,
      )}</select></td></tr>`;
    });
    const body = html`${messages(undefined, error)}
<p>${csv.rows.length} row${csv.rows.length === 1 ? '' : 's'} to import. Check where each column goes.</p>
<form method="post" action="/contacts/import">${hidden(await csrfToken(deps, reply))}
<input type="hidden" name="csv" value="${csvText}">
<table class="cards import-mapping"><caption>Column mapping</caption>
<thead><tr><th scope="col">Column</th><th scope="col">Sample values</th><th scope="col">Import as</th></tr></thead>
<tbody>${columns}</tbody></table>
<div class="field"><label for="import-list">Also add the contacts to a list</label><select id="import-list" name="list_id"><option value="">No list</option><option value="new"${options.listId === 'new' ? html` selected` : ''}>A new list, named below</option>${lists.rows.map(
      (l) =>
        html`<option value="${l.id}"${options.listId === l.id ? html` selected` : ''}>${l.name}</option>`,
    )}</select></div>
<div class="field"><label for="import-new-list">Name of the new list</label><input id="import-new-list" name="new_list" type="text" maxlength="200" value="${options.newList ?? ''}" aria-describedby="import-new-list-hint"><p class="hint" id="import-new-list-hint">Used when “A new list, named below” is chosen above; the list is made with the import.</p></div>
<div class="check"><input type="checkbox" id="import-update" name="update_existing" value="yes"${
      options.updateExisting ? html` checked` : ''
    }><label for="import-update">Update contacts that are already in the address book</label></div>
<p class="actions"><button type="submit">Import ${csv.rows.length} contact${csv.rows.length === 1 ? '' : 's'}</button><a class="button secondary" href="/contacts/import">Choose another file</a></p>
</form>`;
    return contactsPage(
      deps,
      reply,
      user,
      'Import contacts: preview',
      'import',
      body,
      error ? Math.min(error.status, 500) : 200,
    );
  }

  function renderResult(rows: ImportRow[]): Html {
    const count = (o: string) => rows.filter((r) => r.result.outcome === o).length;
    return html`<p class="notice ok" role="status">Import finished: ${count('created')} created, ${count('updated')} updated, ${count('existing')} already there, ${count('invalid')} invalid, ${count('duplicate')} duplicate.</p>
<table class="cards import-result"><caption>Result of each row</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Email or phone</th><th scope="col">Result</th><th scope="col">Reason</th></tr></thead>
<tbody>${rows.map(
      (r) =>
        html`<tr data-outcome="${r.result.outcome}"><td data-label="Line" class="num">${r.line}</td><td data-label="Email or phone" class="break">${r.contact.email ?? r.contact.phone_number ?? ''}</td><td data-label="Result">${OUTCOMES[r.result.outcome]}</td><td data-label="Reason">${r.result.outcome === 'duplicate' ? 'The same email or phone number is on an earlier line.' : 'error' in r.result ? r.result.error : ''}</td></tr>`,
    )}</tbody></table>
<p class="actions"><a class="button" href="/contacts">See the contacts</a><a class="button secondary" href="/contacts/import">Import another file</a></p>`;
  }

  app.get('/contacts/import', { schema: { hide: true }, preHandler: signedIn }, (request, reply) =>
    renderUpload(request, reply),
  );

  const previewBody = formBody({ file: text(IMPORT_MAX_BYTES * 2), csv: text(IMPORT_MAX_BYTES * 2) });
  app.post(
    '/contacts/import/preview',
    {
      schema: { hide: true },
      preHandler: [
        signedIn,
        async (request, reply) => {
          if (reply.sent || !request.isMultipart()) return;
          // the file, the pasted CSV beside it, and the token
          const maxBytes = IMPORT_MAX_BYTES * 3 + 64 * 1024;
          request.uploadReservation = await admitUploadRequest(
            deps,
            request,
            reply,
            userOf(request).id,
            maxBytes,
          );
        },
      ],
    },
    async (request, reply) => {
      let form = request.body;
      if (request.isMultipart()) {
        const read = await readMultipart<[string, string]>(request, {
          allowed: (fields) => csrfRefusal(app, request, fields._csrf) === null,
          receive: async (part) => [part.fieldname, (await part.toBuffer()).toString('utf8')],
          discard: async () => {},
        });
        if (read.refused) {
          if (request.uploadReservation) await releaseUpload(deps, request.uploadReservation);
          throw csrfRefusal(app, request, read.fields._csrf);
        }
        form = { ...read.fields, ...Object.fromEntries(read.items) };
      } else {
        const refusal = csrfRefusal(app, request, formField(form, '_csrf'));
        if (refusal) throw refusal;
      }
      if (!request.compileValidationSchema(previewBody)(form ?? {}))
        return renderUpload(
          request,
          reply,
          new ApiError(1002, 'The form is missing fields or has too much in one.'),
        );
      const file = formField(form, 'file');
      const pasted = formField(form, 'csv');
      const csvText = file?.trim() ? file : (pasted ?? '');
      let csv: ParsedCsv;
      try {
        if (!csvText.trim()) throw new ApiError(1002, 'Choose a CSV file or paste the CSV.');
        csv = readCsv(csvText);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return renderUpload(request, reply, err);
      }
      const mapping = guessMapping(csv.header, await listFields(deps, userOf(request).id));
      return renderPreview(request, reply, csvText, csv, mapping, {});
    },
  );

  app.post(
    '/contacts/import',
    {
      schema: {
        hide: true,
        body: formBody({
          csv: Type.String({ maxLength: IMPORT_MAX_BYTES * 2 }),
          map: many,
          list_id: text(20),
          new_list: text(1000),
          update_existing: text(10),
        }),
      },
      preHandler: [signedIn, app.csrfProtection],
    },
    async (request, reply) => {
      const user = userOf(request);
      const form = request.body;
      const csv = readCsv(form.csv);
      const chosen = listOf(form.map);
      const options = {
        listId: form.list_id || undefined,
        newList: form.new_list,
        updateExisting: form.update_existing === 'yes',
      };
      try {
        const mapping = checkMapping(chosen, csv.header.length);
        let listId = options.listId;
        if (listId === 'new') {
          const name = nameOf(options.newList);
          listId = (await createList(deps, user.id, name)).id;
        } else if (listId) await getList(deps, user.id, listId);
        const rows = await importContacts(deps, user.id, planOf(user), csv, mapping, {
          listId,
          updateExisting: options.updateExisting,
        });
        return contactsPage(deps, reply, user, 'Import contacts: result', 'import', renderResult(rows));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const shown = csv.header.map((_, i) => (chosen[i] ?? '') as ImportTarget);
        return renderPreview(request, reply, form.csv, csv, shown, options, err);
      }
    },
  );
}
