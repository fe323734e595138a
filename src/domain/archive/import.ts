// Importing an account archive into an account (empty or not): the archive is checked whole first
// (validate.ts: not a zip, another format version, a name outside the format, a zip bomb, a file
// that fails its schema or a reference that leads nowhere: refused, nothing written). Then it is
// written through the domain's own functions with new ids, references remapped. Should the domain
// refuse something while writing (a plan's limit, a design rule), what this import wrote so far is
// removed again and the error names the survey (or part) it stopped at.
import type { Deps } from '../../context.js';
import { ApiError, errorMessage } from '../../platform/errors.js';
import { planOf } from '../../platform/plans.js';
import { bulkCreateContacts } from '../contacts/bulk.js';
import { deleteContact } from '../contacts/contacts.js';
import { setFieldLabel } from '../contacts/fields.js';
import { addMembers, createList, deleteList } from '../contacts/lists.js';
import { createFolder, deleteFolder } from '../surveys/folders.js';
import { type Actor, deleteSurvey } from '../surveys/surveys.js';
import { createWebhook, deleteWebhook, setPaused } from '../webhooks/webhooks.js';
import { Contact, FILES } from './format.js';
import { type Skipped, writeSurvey } from './import-survey.js';
import { checkArchive } from './validate.js';
import { ArchiveRefused, openArchive, readLines } from './zip-read.js';

export { ArchiveRefused };

export interface ImportReport {
  counts: {
    folders: number;
    surveys: number;
    collectors: number;
    responses: number;
    files: number;
    contacts: number;
    contact_lists: number;
    webhooks: number;
  };
  /** what was not copied, and why (a webhook whose URL does not answer, a password) */
  skipped: Skipped[];
}

/** The import stopped while writing: what it had written was removed. */
export class ImportFailed extends Error {}

const CONTACTS_AT_ONCE = 500;

export async function importAccount(deps: Deps, ownerId: string, path: string): Promise<ImportReport> {
  const user = await deps.db.kysely
    .selectFrom('users')
    .select(['id', 'account_type'])
    .where('id', '=', ownerId)
    .executeTakeFirstOrThrow();
  const actor: Actor = { user: { id: user.id }, plan: planOf(user.account_type), ip: null };
  const archive = await openArchive(path);
  try {
    const checked = await checkArchive(archive);
    const report: ImportReport = {
      counts: {
        folders: 0,
        surveys: 0,
        collectors: 0,
        responses: 0,
        files: 0,
        contacts: 0,
        contact_lists: 0,
        webhooks: 0,
      },
      skipped: [],
    };
    const undo: Array<() => Promise<unknown>> = [];
    let step = 'folders';
    try {
      const ids = new Map<string, string>();
      for (const f of checked.folders) {
        const made = await createFolder(deps, ownerId, f.title);
        ids.set(f.id, made.id);
        undo.push(() => deleteFolder(deps, ownerId, made.id));
        report.counts.folders++;
      }
      step = 'contacts';
      for (const f of checked.fields) await setFieldLabel(deps, ownerId, f.id, f.label);
      let chunk: Contact[] = [];
      const writeContacts = async () => {
        if (chunk.length === 0) return;
        const result = await bulkCreateContacts(
          deps,
          ownerId,
          actor.plan,
          chunk.map((c) => ({
            first_name: c.first_name,
            last_name: c.last_name,
            email: c.email,
            phone_number: c.phone_number,
            custom_fields: c.custom_fields,
          })),
          false,
        );
        for (const [i, row] of result.rows.entries()) {
          const c = chunk[i];
          if (row.outcome === 'created' || row.outcome === 'existing') {
            ids.set(c.id, row.contact.id);
            if (row.outcome === 'created') {
              const made = row.contact.id;
              undo.push(() => deleteContact(deps, ownerId, made));
              report.counts.contacts++;
            }
            // An opted-out or bounced address stays so (the bulk path makes contacts active).
            if (c.status !== 'active' && row.outcome === 'created')
              await deps.db.kysely
                .updateTable('contacts')
                .set({ status: c.status })
                .where('id', '=', row.contact.id)
                .execute();
          } else
            report.skipped.push({
              kind: 'contact',
              name: c.email ?? c.phone_number ?? c.id,
              reason: 'error' in row ? row.error : row.outcome,
            });
        }
        chunk = [];
      };
      for await (const c of readLines(archive, FILES.contacts.path, Contact)) {
        chunk.push(c);
        if (chunk.length >= CONTACTS_AT_ONCE) await writeContacts();
      }
      await writeContacts();
      for (const l of checked.lists) {
        const list = await createList(deps, ownerId, l.name);
        undo.push(() => deleteList(deps, ownerId, list.id));
        await addMembers(
          deps,
          ownerId,
          list.id,
          l.contact_ids.flatMap((id) => ids.get(id) ?? []),
        );
        report.counts.contact_lists++;
      }
      for (const entry of checked.surveys) {
        step = `${entry.path} (${entry.survey.title})`;
        const written = await writeSurvey(
          deps,
          actor,
          entry.survey,
          ids,
          archive,
          entry.path,
          entry.uploads,
          report.skipped,
          // A survey half written goes with the rest.
          (id) => undo.push(() => deleteSurvey(deps, actor, id)),
        );
        for (const [from, to] of written.ids) ids.set(from, to);
        report.counts.surveys++;
        report.counts.collectors += entry.survey.collectors.length;
        report.counts.responses += written.responses;
        report.counts.files += written.files;
      }
      step = 'webhooks';
      for (const w of checked.webhooks) {
        if (w.object_type === 'app') {
          report.skipped.push({ kind: 'webhook', name: w.name, reason: 'an app webhook belongs to its app' });
          continue;
        }
        const caller = { userId: ownerId, appId: null };
        try {
          const made = await createWebhook(deps, caller, {
            name: w.name,
            event_type: w.event_type,
            object_type: w.object_type,
            object_ids: w.object_ids.flatMap((id) => ids.get(id) ?? []),
            subscription_url: w.subscription_url,
            format: w.format,
          });
          undo.push(() => deleteWebhook(deps, caller, made.id));
          if (w.paused) await setPaused(deps, caller, made.id, true);
          report.counts.webhooks++;
          if (w.had_authorization)
            report.skipped.push({
              kind: 'webhook',
              name: w.name,
              reason: 'its Authorization header is not in the archive; set it again',
            });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          report.skipped.push({ kind: 'webhook', name: w.name, reason: err.detail ?? err.message });
        }
      }
    } catch (err) {
      for (const fn of undo.reverse()) await fn().catch(() => {});
      const why = err instanceof ApiError ? (err.detail ?? err.message) : errorMessage(err);
      throw new ImportFailed(`the import stopped at ${step}: ${why}; what it had written was removed`);
    }
    return report;
  } finally {
    archive.close();
  }
}
