// Writing an account archive: one zip (yazl) streamed as it is made. Every entry but the small
// JSON files is produced lazily when the zip writer reaches it (responses and contacts read a
// keyset page at a time, files read from disk), so memory stays flat however big the account is;
// the manifest goes last, when its counts are known.
import { createReadStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import yazl from 'yazl';
import type { Deps } from '../../context.js';
import { parseAs, StringMap } from '../../platform/json.js';
import { parseCollector } from '../collectors/collectors.js';
import { CUSTOM_SLOTS, customFieldsOf } from '../contacts/contacts.js';
import { listFields } from '../contacts/fields.js';
import { listQuotas } from '../quotas/quotas.js';
import { statusOf, storedPages } from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import { calculatedOf } from '../surveys/calculated.js';
import { loadDesign, settingsOf } from '../surveys/surveys.js';
import { themeById } from '../themes/themes.js';
import { uploadsOfSurvey } from '../uploads/uploads.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  type Contact,
  FILE_KINDS,
  FILES,
  type Manifest,
  type Response,
  type Survey,
  schemaId,
} from './format.js';

/** Rows read per query while streaming responses and contacts. */
export const PAGE = 1000;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** Lines of JSON from pages of values, as a stream the zip writer pulls. */
function lines<T>(pages: () => AsyncGenerator<T[]>, count: () => void): Readable {
  return Readable.from(
    (async function* () {
      for await (const page of pages()) {
        if (page.length === 0) continue;
        for (let i = 0; i < page.length; i++) count();
        yield Buffer.from(`${page.map((v) => JSON.stringify(v)).join('\n')}\n`);
      }
    })(),
  );
}

/** The whole account of `ownerId` as a zip, streamed; `done` settles when the last byte is out. */
export async function exportAccount(
  deps: Deps,
  ownerId: string,
): Promise<{ stream: Readable; done: Promise<Manifest> }> {
  const k = deps.db.kysely;
  const user = await k
    .selectFrom('users')
    .select(['username'])
    .where('id', '=', ownerId)
    .executeTakeFirstOrThrow();
  const zip = new yazl.ZipFile();
  const mtime = deps.clock.now();
  const options = { mtime };
  const counts: Manifest['counts'] = {
    folders: 0,
    surveys: 0,
    responses: 0,
    files: 0,
    contacts: 0,
    contact_lists: 0,
    webhooks: 0,
  };
  const surveysListed: Manifest['surveys'] = [];
  let failed: unknown;
  const lazy = (name: string, make: () => Readable) =>
    zip.addReadStreamLazy(name, options, (cb) => {
      const s = make();
      s.once('error', (err) => {
        failed = err;
      });
      cb(null, s);
    });

  const folders = await k
    .selectFrom('survey_folders')
    .select(['id', 'title'])
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  counts.folders = folders.length;
  zip.addBuffer(json(folders), FILES.folders.path, options);

  zip.addBuffer(json(await listFields(deps, ownerId)), FILES.contact_fields.path, options);
  lazy(FILES.contacts.path, () =>
    lines(
      () => contactPages(deps, ownerId),
      () => counts.contacts++,
    ),
  );
  const lists = await k
    .selectFrom('contact_lists')
    .select(['id', 'name'])
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  const members = await k
    .selectFrom('contact_list_members')
    .select(['list_id', 'contact_id'])
    .where('owner_id', '=', ownerId)
    .orderBy('list_id')
    .orderBy('contact_id')
    .execute();
  counts.contact_lists = lists.length;
  zip.addBuffer(
    json(
      lists.map((l) => ({
        ...l,
        contact_ids: members.filter((m) => m.list_id === l.id).map((m) => m.contact_id),
      })),
    ),
    FILES.contact_lists.path,
    options,
  );

  const webhooks = await k
    .selectFrom('webhooks')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  counts.webhooks = webhooks.length;
  zip.addBuffer(
    json(
      webhooks.map((w) => ({
        id: w.id,
        name: w.name,
        event_type: w.event_type,
        object_type: w.object_type,
        object_ids: JSON.parse(w.object_ids),
        subscription_url: w.subscription_url,
        format: w.format === 'slack' ? 'slack' : 'surveymonkey',
        paused: w.paused_at !== null,
        had_authorization: !!w.authorization,
      })),
    ),
    FILES.webhooks.path,
    options,
  );

  const surveys = await k
    .selectFrom('surveys')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
  counts.surveys = surveys.length;
  for (const [i, survey] of surveys.entries()) {
    const dir = `surveys/${i + 1}`;
    const listed = { path: dir, responses: 0, files: 0 };
    surveysListed.push(listed);
    zip.addBuffer(json(await surveyFile(deps, survey)), `${dir}/survey.json`, options);
    lazy(`${dir}/responses.jsonl`, () =>
      lines(
        () => responsePages(deps, survey.id),
        () => {
          listed.responses++;
          counts.responses++;
        },
      ),
    );
    const uploads = await uploadsOfSurvey(deps, survey.id);
    listed.files = uploads.length;
    counts.files += uploads.length;
    zip.addBuffer(
      Buffer.from(uploads.map(({ path: _p, ...u }) => `${JSON.stringify(u)}\n`).join('')),
      `${dir}/uploads.jsonl`,
      options,
    );
    for (const u of uploads) lazy(`files/${u.id}`, () => createReadStream(u.path));
  }

  const schemas: Record<string, string> = {};
  for (const kind of FILE_KINDS) schemas[kind] = schemaId(kind);
  let manifest: Manifest | undefined;
  lazy(FILES.manifest.path, () => {
    manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exported_at: deps.clock.now().toISOString(),
      account: { username: user.username },
      counts,
      surveys: surveysListed,
      schemas,
    };
    return Readable.from([json(manifest)]);
  });
  zip.end();
  const stream = new PassThrough();
  zip.outputStream.pipe(stream);
  const done = new Promise<Manifest>((resolve, reject) => {
    stream.once('end', () =>
      failed || !manifest ? reject(failed ?? new Error('incomplete')) : resolve(manifest),
    );
    stream.once('error', reject);
    zip.once('error', reject);
  });
  // An error in an entry's stream ends the archive: the output stream fails with it.
  zip.once('error', (err) => stream.destroy(err));
  return { stream, done };
}

async function* contactPages(deps: Deps, ownerId: string): AsyncGenerator<Contact[]> {
  let after = '';
  for (;;) {
    const rows = await deps.db.kysely
      .selectFrom('contacts')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((c) => {
      const custom = customFieldsOf(c);
      return {
        id: c.id,
        first_name: c.first_name,
        last_name: c.last_name,
        email: c.email,
        phone_number: c.phone_number,
        custom_fields: Object.fromEntries(CUSTOM_SLOTS.filter((s) => custom[s]).map((s) => [s, custom[s]])),
        status: c.status === 'optout' ? 'optout' : c.status === 'bounced' ? 'bounced' : 'active',
        created_at: c.created_at,
      };
    });
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

async function* responsePages(deps: Deps, surveyId: string): AsyncGenerator<Response[]> {
  let after = 0;
  for (;;) {
    const rows = await deps.db.kysely
      .selectFrom('responses')
      .selectAll()
      .where('survey_id', '=', surveyId)
      .where('ordinal', '>', after)
      .orderBy('ordinal')
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      id: r.id,
      collector_id: r.collector_id,
      response_status: statusOf(r),
      collection_mode: r.collection_mode,
      custom_value: r.custom_value,
      custom_variables: parseAs(StringMap, r.custom_variables || '{}'),
      ip_address: r.ip_address,
      first_name: r.first_name,
      last_name: r.last_name,
      email_address: r.email_address,
      total_time: r.total_time,
      date_created: r.date_created,
      date_modified: r.date_modified,
      page_path: JSON.parse(r.page_path || '[]'),
      metadata: JSON.parse(r.metadata || '{}'),
      pages: storedPages(r).map((p) => ({
        id: p.id,
        questions: p.questions.map((q) => ({
          id: q.id,
          ...(q.variable_id !== undefined ? { variable_id: q.variable_id } : {}),
          // download_url is made when read; upload_id names the file in the archive
          answers: q.answers.map(({ download_url: _d, ...a }) => a),
        })),
      })),
    }));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].ordinal;
  }
}

async function surveyFile(deps: Deps, survey: SurveyRow): Promise<Survey> {
  const k = deps.db.kysely;
  const settings = settingsOf(survey);
  const { pages, questions } = await loadDesign(deps, survey.id);
  const theme = survey.theme_id ? await themeById(deps, survey.theme_id) : undefined;
  const [translations, quotas, collectors] = await Promise.all([
    k
      .selectFrom('survey_translations')
      .selectAll()
      .where('survey_id', '=', survey.id)
      .orderBy('language')
      .execute(),
    listQuotas(deps, survey),
    k.selectFrom('collectors').selectAll().where('survey_id', '=', survey.id).orderBy('id').execute(),
  ]);
  return {
    id: survey.id,
    title: settings.title,
    nickname: settings.nickname,
    language: settings.language,
    category: settings.category,
    folder_id: settings.folder_id,
    buttons_text: settings.buttons_text,
    custom_variables: settings.custom_variables,
    footer: settings.footer,
    quiz_options: settings.quiz_options,
    logo_url: settings.logo_url,
    theme_color: settings.theme_color,
    question_layout: settings.question_layout,
    calculated_variables: calculatedOf(survey),
    date_created: survey.date_created,
    date_modified: survey.date_modified,
    pages: pages.map((p) => ({
      id: p.id,
      title: p.title,
      description: p.description,
      logic: p.logic,
      sorting: p.sorting,
      questions: (questions.get(p.id) ?? []).map((q) => ({
        id: q.id,
        family: q.family,
        subtype: q.subtype,
        doc: q.doc,
      })),
    })),
    theme: theme
      ? {
          primary_color: theme.primary_color,
          background_color: theme.background_color,
          text_color: theme.text_color,
          font: theme.font,
          button_shape: theme.button_shape,
        }
      : null,
    translations: translations.map((t) => ({
      language: t.language,
      enabled: t.enabled === 1,
      translations: JSON.parse(t.translations),
    })),
    quotas: quotas.map((q) => ({
      id: q.id,
      name: q.name,
      limit: q.limit,
      conditions: q.conditions,
      action: q.action,
    })),
    collectors: collectors.map((row) => {
      const c = parseCollector(row);
      return {
        id: c.id,
        type: c.type,
        name: c.name,
        status: c.status,
        close_date: c.close_date,
        response_limit: c.response_limit,
        options: { ...c.options },
        had_password: c.password_hash !== null,
      };
    }),
  };
}
