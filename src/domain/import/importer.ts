// Moving in from SurveyMonkey (or another instance of this service): copies an account's contact
// fields, contact lists, contacts, folders, surveys with their design, collectors and responses
// through the source's public API into a local account. Every write goes through the same domain
// functions the local API uses, so counts, rollups and events come out as if the data had been
// entered here. A run stops cleanly when the day's request budget is spent (BudgetSpent); the
// next run picks up from the cursor and the id map, and a run after a finished one copies only
// what is new or changed.
import { createHash } from 'node:crypto';
import type { Static, TSchema } from 'typebox';
import type { Deps } from '../../context.js';
import { parseApiDate } from '../../platform/dates.js';
import { ApiError, notFound } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import type { Account } from '../accounts/users.js';
import {
  type Collector,
  closedReason,
  collectorById,
  createCollector,
  updateCollector,
} from '../collectors/collectors.js';
import type { CollectorInput } from '../collectors/options.js';
import {
  type Contact,
  type ContactStatus,
  createContact,
  findExisting,
  getContact,
  setContactStatus,
  updateContact,
} from '../contacts/contacts.js';
import { setFieldLabel } from '../contacts/fields.js';
import { addMembers, createList, renameList } from '../contacts/lists.js';
import type { PageIn } from '../responses/answers.js';
import { designIndex } from '../responses/design-index.js';
import {
  createResponse,
  getResponse,
  type ResponseInput,
  type ResponseStatus,
  updateResponse,
} from '../responses/responses.js';
import type { SurveyRow } from '../surveys/access.js';
import {
  createPage,
  createQuestion,
  deletePage,
  deleteQuestion,
  moveQuestionToPage,
  updatePage,
  updateQuestion,
} from '../surveys/design.js';
import { createFolder, renameFolder } from '../surveys/folders.js';
import { type Logic, remapLogic } from '../surveys/logic.js';
import type { QuestionInput } from '../surveys/question-schema.js';
import { createSurvey, loadDesign, type SettingsInput, updateSurvey } from '../surveys/surveys.js';
import { blueprintPages, headingOf, pairAnswers, pairDesign, type Skipped, supported } from './design.js';
import {
  type Cursor,
  emptyCursor,
  type ImportJob,
  isLive,
  jobBudget,
  type Kind,
  type Mapped,
  mapped,
  nextUtcMidnight,
  openJob,
  ownerJob,
  ownerJobs,
  record,
  remainingToday,
  reserve,
  saveJob,
  stamp,
} from './jobs.js';
import { BudgetSpent, normaliseSourceUrl, RemoteApi } from './remote.js';
import {
  ContactField,
  ContactList,
  Envelope,
  Folder,
  ListedCollector,
  ListedContact,
  ListedSurvey,
  problem,
  SourceCollector,
  SourceContact,
  SourceResponse,
  SourceUser,
  SurveyDetails,
} from './source.js';

/** A source item's id for the report ("?" when it has none). */
const idOf = (item: unknown): string => {
  const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '?';
};

export { BudgetSpent, RemoteError } from './remote.js';

export interface ImportOptions {
  owner: Account;
  from: string;
  token: string;
  dailyBudget: number;
  /** Waits on 429 and exhausted minutes (tests make them instant). */
  sleep?: (ms: number) => Promise<void>;
  onProgress?: (p: Progress) => void;
  /** Stops the run between two requests (its server is shutting down): state `stopped`. */
  signal?: AbortSignal;
}

/** What the source holds and what this import has copied so far (over every run). */
export interface Progress {
  phase: string;
  copied: Record<string, number>;
  totals: { surveys: number; responses: number; contacts: number };
  /** Responses of the source already here (copied in this or earlier runs). */
  responsesHere: number;
  requestsToday: number;
  dailyBudget: number;
  requestsTotal: number;
  /** Requests the rest of the import needs (an estimate), and the time that takes at the budget. */
  requestsLeft: number;
  etaSeconds: number;
}

export interface ImportResult {
  state: 'done' | 'paused' | 'stopped';
  resumeAt?: string;
  jobId: string;
  /** Created or updated by this run, per kind. */
  copied: Record<string, number>;
  /** The same over every run of the job. */
  copiedTotal: Record<string, number>;
  skipped: Skipped[];
  requestsTotal: number;
  responsesCopied: number;
  /** requests_total / responses copied (over every run of the job). */
  requestsPerResponse: number | null;
  progress: Progress;
}

const PHASES = ['fields', 'lists', 'contacts', 'folders', 'surveys', 'responses'] as const;
const CONTACT_STATUSES: ContactStatus[] = ['active', 'optout', 'bounced'];
const BULK = 100;
/** Progress is written to the job at least this often, so any page shows it. */
const SAVE_EVERY_MS = 2000;

/** The source's dates (with or without offset) as this service's ISO instants. */
const iso = (v: string | null | undefined): string | undefined =>
  v ? (parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1')) ?? undefined) : undefined;
/** The start_modified_at format the source takes: no offset, UTC. */
const noOffset = (isoInstant: string) => isoInstant.slice(0, 19);

class Run {
  readonly api: RemoteApi;
  readonly cursor: Cursor;
  /** Copied over every run of the job, and by this run. */
  readonly copied: Record<string, number>;
  readonly copiedNow: Record<string, number> = {};
  readonly skipped: Skipped[];
  readonly plan: Plan;
  readonly totals: Progress['totals'];
  responsesHere = 0;
  /** Requests still needed for what is listed but not yet read (refined as the run goes). */
  pendingRequests = 0;
  phase = 'starting';
  savedAt = 0;

  constructor(
    readonly deps: Deps,
    readonly job: ImportJob,
    readonly options: ImportOptions,
    sourceUrl: string,
  ) {
    this.api = new RemoteApi(sourceUrl, options.token, {
      budget: jobBudget(deps, job),
      sleep: options.sleep,
      signal: options.signal,
    });
    this.cursor = { ...emptyCursor(), ...JSON.parse(job.cursor) };
    this.copied = JSON.parse(job.counts);
    this.skipped = JSON.parse(job.skipped);
    this.totals = { surveys: 0, responses: 0, contacts: 0, ...JSON.parse(job.totals) };
    this.plan = options.owner.account_type as Plan;
  }

  get owner() {
    return this.options.owner;
  }

  count(kind: string, n = 1) {
    this.copied[kind] = (this.copied[kind] ?? 0) + n;
    this.copiedNow[kind] = (this.copiedNow[kind] ?? 0) + n;
  }

  skip(s: Skipped) {
    if (!this.skipped.some((x) => x.kind === s.kind && x.name === s.name && x.reason === s.reason))
      this.skipped.push(s);
  }

  /** A contact this service refused (an ApiError) is reported as not copied; anything else throws. */
  skipContact(full: SourceContact, sourceId: string, err: unknown) {
    if (!(err instanceof ApiError)) throw err;
    this.skip({ kind: 'contact', name: full.email ?? full.phone_number ?? sourceId, reason: err.message });
  }

  /** Reports a malformed item of a listing as not copied (the listing goes on). */
  badItem(kind: string) {
    return (item: unknown, p: string) =>
      this.skip({ kind, name: idOf(item), reason: `malformed at the source: ${p}` });
  }

  /** One item read by its own request, or undefined (reported as not copied) when malformed. */
  async readItem<T extends TSchema>(
    schema: T,
    path: string,
    kind: string,
    name: string,
  ): Promise<Static<T> | undefined> {
    const body = await this.api.get(path);
    const p = problem(schema, body);
    if (!p) return body as Static<T>;
    this.skip({ kind, name, reason: `malformed at the source: ${p}` });
    return undefined;
  }

  async save(state: ImportJob['state'] = 'running', lastError: string | null = null) {
    this.savedAt = Date.now();
    await saveJob(this.deps, this.job, {
      state,
      cursor: JSON.stringify(this.cursor),
      counts: JSON.stringify(this.copied),
      skipped: JSON.stringify(this.skipped),
      totals: JSON.stringify(this.totals),
      last_error: lastError,
    });
  }

  progress(): Progress {
    return progressOf(
      this.job,
      this.phase,
      this.copied,
      this.totals,
      this.responsesHere,
      this.pendingRequests,
      this.deps.clock.now(),
    );
  }

  async report() {
    this.options.onProgress?.(this.progress());
    if (Date.now() - this.savedAt >= SAVE_EVERY_MS) await this.save();
  }

  async phaseDone(name: string) {
    this.cursor.done.push(name);
    await this.save();
  }

  // ---- contact fields, lists, contacts ----

  async fields() {
    const fields = await this.api.all(ContactField, '/contact_fields?per_page=1000', 'contact fields');
    for (const f of fields) {
      await setFieldLabel(this.deps, this.owner.id, String(f.id), f.label).catch((err) => {
        if (!(err instanceof ApiError)) throw err;
        this.skip({ kind: 'contact_field', name: f.label, reason: err.message });
      });
    }
  }

  async lists() {
    const lists = await this.api.all(ContactList, '/contact_lists?per_page=1000', 'contact lists');
    const known = await mapped(
      this.deps,
      this.job.id,
      'list',
      lists.map((l) => String(l.id)),
    );
    for (const l of lists) {
      const local = await reserve(this.deps, this.job.id, 'list', String(l.id));
      const exists = await this.deps.db.kysely
        .selectFrom('contact_lists')
        .select(['id', 'name'])
        .where('id', '=', local)
        .executeTakeFirst();
      if (!exists) {
        await createList(this.deps, this.owner.id, l.name, local);
        this.count('contact_lists');
      } else if (exists.name !== l.name && known.has(String(l.id))) {
        await renameList(this.deps, this.owner.id, local, l.name);
        this.count('contact_lists');
      }
    }
  }

  async contacts() {
    for (const status of CONTACT_STATUSES) {
      let listed = 0;
      for await (const page of this.api.pages(
        ListedContact,
        `/contacts?per_page=1000&status=${status}`,
        'contacts',
        this.badItem('contact'),
      )) {
        listed += page.length;
        const known = await mapped(
          this.deps,
          this.job.id,
          'contact',
          page.map((c) => String(c.id)),
        );
        this.pendingRequests += page.filter((c) => !known.has(String(c.id))).length;
        for (const c of page) {
          const m = known.get(String(c.id));
          if (m) {
            await this.contactChanged(c, m, status);
            continue;
          }
          // The list leaves out custom field values: one GET per new contact brings them.
          const full = await this.readItem(SourceContact, `/contacts/${c.id}`, 'contact', String(c.id));
          this.pendingRequests -= 1;
          if (!full) continue;
          const input = contactInput(full);
          let local: Contact;
          try {
            // The address book is unique by email and phone number: a contact written by a run
            // killed before recording it is found again here, never created twice.
            local =
              (await findExisting(this.deps.db.kysely, this.owner.id, input)) ??
              (await createContact(this.deps, this.owner.id, this.plan, input));
          } catch (err) {
            this.skipContact(full, String(c.id), err);
            continue;
          }
          if (status !== 'active' && local.email)
            await setContactStatus(this.deps, this.owner.id, local.email, status);
          await record(this.deps, this.job.id, 'contact', [
            { source: String(c.id), local: local.id, stamp: contactStamp(full, status) },
          ]);
          this.count('contacts');
          await this.report();
        }
      }
      if (status === 'active') this.totals.contacts = listed;
    }
    // Membership: each list's contacts, added to the copied list.
    const lists = await this.deps.db.kysely
      .selectFrom('import_ids')
      .select(['source_id', 'local_id'])
      .where('job_id', '=', this.job.id)
      .where('kind', '=', 'list')
      .execute();
    for (const l of lists) {
      const members: string[] = [];
      for (const status of CONTACT_STATUSES)
        for await (const page of this.api.pages(
          ListedContact,
          `/contact_lists/${l.source_id}/contacts?per_page=1000&status=${status}`,
          'list members',
          this.badItem('contact'),
        ))
          members.push(...page.map((c) => String(c.id)));
      const locals = await mapped(this.deps, this.job.id, 'contact', members);
      await addMembers(
        this.deps,
        this.owner.id,
        l.local_id,
        [...locals.values()].map((m) => m.local_id),
      );
    }
  }

  /**
   * A contact copied before: when its listing (names, email, phone, status) differs from what was
   * copied, it is read again and the copy updated (the source wins: the address book keeps no
   * history to tell a local edit from the copy). A change to custom fields alone does not show in
   * the listing and is not seen (reading every contact each run would cost a request apiece).
   */
  async contactChanged(c: Static<typeof ListedContact>, m: Mapped, status: ContactStatus) {
    const now = contactStamp(c, status);
    if (m.source_stamp === now) return;
    // Copied by a run that kept no stamp: taken as unchanged from here on.
    if (m.source_stamp === '') return stamp(this.deps, this.job.id, 'contact', String(c.id), now);
    const local = await getContact(this.deps, this.owner.id, m.local_id).catch(() => undefined);
    // Deleted here since the copy: the owner's choice stands.
    if (!local) return stamp(this.deps, this.job.id, 'contact', String(c.id), now);
    const full = await this.readItem(SourceContact, `/contacts/${c.id}`, 'contact', String(c.id));
    if (!full) return;
    try {
      await updateContact(this.deps, this.owner.id, local.id, contactInput(full), true);
      const email = full.email ?? local.email;
      if (email && local.status !== status) await setContactStatus(this.deps, this.owner.id, email, status);
    } catch (err) {
      this.skipContact(full, String(c.id), err);
      return;
    }
    await stamp(this.deps, this.job.id, 'contact', String(c.id), now);
    this.count('contacts_updated');
  }

  // ---- folders, surveys, collectors ----

  async folders() {
    const folders = await this.api.all(Folder, '/survey_folders?per_page=1000', 'folders');
    for (const f of folders) {
      const local = await reserve(this.deps, this.job.id, 'folder', String(f.id));
      const exists = await this.deps.db.kysely
        .selectFrom('survey_folders')
        .select(['id', 'title'])
        .where('id', '=', local)
        .executeTakeFirst();
      if (!exists) {
        await createFolder(this.deps, this.owner.id, f.title, local);
        this.count('folders');
      } else if (exists.title !== f.title) {
        await renameFolder(this.deps, this.owner.id, local, f.title);
        this.count('folders');
      }
    }
  }

  /** Every survey of the source account (owned), with the fields change detection needs. */
  async sourceSurveys(): Promise<ListedSurvey[]> {
    const surveys = await this.api.all(
      ListedSurvey,
      '/surveys?per_page=1000&include=owned,response_count,date_modified',
      'surveys',
      this.badItem('survey'),
    );
    this.totals.surveys = surveys.length;
    this.totals.responses = surveys.reduce((n, s) => n + Number(s.response_count ?? 0), 0);
    return surveys;
  }

  async surveys(list: ListedSurvey[]) {
    const known = await mapped(
      this.deps,
      this.job.id,
      'survey',
      list.map((s) => String(s.id)),
    );
    for (const s of list) {
      const m = known.get(String(s.id));
      const local = m && (await this.localSurvey(m.local_id));
      // An empty stamp is a copy a killed run left unfinished.
      const was = m && m.source_stamp !== '' ? surveyStamp(m.source_stamp) : undefined;
      // Unchanged since copied: nothing to read. The listing's date_modified has a one-minute
      // grain, so it only vouches for a copy read in a later minute (with a minute's slack for
      // the clocks); otherwise the details are read again and compared.
      if (
        local &&
        was &&
        was.listed === s.date_modified &&
        !was.resync &&
        settledBefore(s.date_modified, was.read)
      )
        continue;
      const finished = local && was;
      const details = await this.readItem(
        SurveyDetails,
        `/surveys/${s.id}/details`,
        'survey',
        s.title ?? String(s.id),
      );
      if (!details) continue;
      const now: SurveyStamp = {
        listed: s.date_modified ?? '',
        read: this.deps.clock.now().toISOString(),
        modified: details.date_modified ?? '',
        hash: designHash(details),
      };
      if (finished && !was.resync && was.hash === now.hash) {
        await stamp(
          this.deps,
          this.job.id,
          'survey',
          String(s.id),
          JSON.stringify({ ...now, modified: was.modified }),
        );
        continue;
      }
      const folderId =
        details.folder_id && details.folder_id !== '0'
          ? (await mapped(this.deps, this.job.id, 'folder', [String(details.folder_id)])).get(
              String(details.folder_id),
            )?.local_id
          : undefined;
      const settings = {
        title: details.title,
        nickname: details.nickname ?? '',
        language: details.language ?? 'en',
        // Checked by createSurvey / updateSurvey as any survey body.
        buttons_text: (details.buttons_text ?? undefined) as SettingsInput['buttons_text'],
        custom_variables: details.custom_variables ?? {},
        footer: details.footer ?? true,
        folder_id: folderId ?? null,
        ...(details.quiz_options
          ? { quiz_options: details.quiz_options as unknown as SettingsInput['quiz_options'] }
          : {}),
      };
      const actor = { user: { id: this.owner.id }, plan: this.plan, ip: null };
      if (!finished) {
        const id = await reserve(this.deps, this.job.id, 'survey', String(s.id));
        const pages = blueprintPages(details, this.skipped);
        let row: SurveyRow;
        try {
          row =
            (await this.localSurvey(id)) ??
            (await createSurvey(this.deps, actor, { ...settings, pages }, id));
        } catch (err) {
          // A design this service refuses (a rule it cannot follow, a malformed question): the
          // survey is named in the report and the rest of the account is copied.
          if (!(err instanceof ApiError)) throw err;
          this.skip({
            kind: 'survey',
            name: details.title,
            reason: `its design was refused: ${err.detail ?? err.message}`,
          });
          continue;
        }
        await this.pairDesign(details, row);
        this.count('surveys');
      } else {
        // Changed at the source since copied. The rule: the copy follows the source while nobody
        // edited it here (its date_modified is still the one the copy took from the source, or a
        // re-copy a killed run left half done is marked RESYNC); a copy edited here keeps its
        // design, and only its settings follow.
        const untouched = was.resync || local!.date_modified === iso(was.modified);
        if (untouched) {
          await stamp(
            this.deps,
            this.job.id,
            'survey',
            String(s.id),
            JSON.stringify({ ...was, resync: true }),
          );
          try {
            await this.resyncDesign(details, local!);
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            this.skip({
              kind: 'survey',
              name: details.title,
              reason: `its changed design could not be re-copied: ${err.detail ?? err.message}`,
            });
          }
        } else
          this.skip({
            kind: 'survey',
            name: details.title,
            reason:
              'changed at the source and edited here since the copy: its settings were updated, its design was left as edited here',
          });
        await updateSurvey(this.deps, actor, local!.id, settings, 'patch');
        this.count('surveys_updated');
      }
      await this.keepDates(
        'surveys',
        (await this.localOf('survey', String(s.id)))!,
        details.date_created,
        details.date_modified,
      );
      await this.collectors(String(s.id));
      await stamp(this.deps, this.job.id, 'survey', String(s.id), JSON.stringify(now));
      await this.report();
    }
  }

  /**
   * Brings a copied design up to the source's: pages and questions that still exist keep their
   * ids (and answer options theirs), so the answers already here stay attached; new ones are
   * created, and what the source deleted is deleted here too (with its answers, as there).
   */
  async resyncDesign(details: SurveyDetails, survey: SurveyRow) {
    const actor = { user: { id: this.owner.id }, plan: this.plan, ip: null };
    const ids = await this.designMap();
    const design = await loadDesign(this.deps, survey.id);
    const pageOfQuestion = new Map(
      [...design.questions.values()].flat().map((q) => [q.id, q.page_id] as const),
    );
    const sourcePages = details.pages ?? [];
    const blueprint = blueprintPages(details, this.skipped);
    // 1. Pages in the source's order, their rules cleared until every page is in place.
    const pageMap = new Map<string, string>();
    for (const [i, p] of sourcePages.entries()) {
      const fields = { title: p.title ?? '', description: p.description ?? '', position: i + 1 };
      let id = ids.get(String(p.id));
      if (id && design.pages.some((x) => x.id === id))
        await updatePage(this.deps, actor, survey, id, { ...fields, logic: null }, 'patch');
      else {
        id = (await createPage(this.deps, actor, survey, fields)).id;
        await this.remember('page', String(p.id), id);
      }
      pageMap.set(String(p.id), id);
    }
    const keptPages = new Set(pageMap.values());
    for (const p of design.pages) if (!keptPages.has(p.id)) await deletePage(this.deps, actor, survey, p.id);
    // 2. Questions, page by page, with their answer options' ids (and rules' pages) mapped.
    const keptQuestions = new Set<string>();
    for (const [i, p] of sourcePages.entries()) {
      const pageId = pageMap.get(String(p.id))!;
      const questions = (p.questions ?? []).filter(supported);
      for (const [j, q] of questions.entries()) {
        const input = {
          ...localAnswerIds(blueprint[i].questions[j], ids, pageMap),
          position: j + 1,
        };
        const known = ids.get(String(q.id));
        const at = known && pageOfQuestion.get(known);
        let row: { id: string; doc: { answers?: unknown } };
        if (known && at && keptPages.has(at)) {
          if (at !== pageId) await moveQuestionToPage(this.deps, actor, survey, at, known, pageId);
          row = await updateQuestion(this.deps, actor, survey, pageId, known, input, 'put');
        } else {
          row = await createQuestion(this.deps, actor, survey, pageId, input);
          await this.remember('question', String(q.id), row.id);
        }
        keptQuestions.add(row.id);
        await record(
          this.deps,
          this.job.id,
          'answer',
          pairAnswers(q.answers, row.doc.answers).map(([source, local]) => ({ source, local })),
        );
      }
    }
    for (const [qid, pageId] of pageOfQuestion)
      if (!keptQuestions.has(qid) && keptPages.has(pageId))
        await deleteQuestion(this.deps, actor, survey, pageId, qid);
    // 3. The pages' rules, now that every page is where the source has it.
    for (const p of sourcePages) {
      const logic = p.logic ? remapLogic(p.logic, pageMap) : undefined;
      if (logic) await updatePage(this.deps, actor, survey, pageMap.get(String(p.id))!, { logic }, 'patch');
    }
  }

  /** Records source -> local, replacing a mapping to something deleted here. */
  async remember(kind: Kind, source: string, local: string) {
    await this.deps.db.kysely
      .deleteFrom('import_ids')
      .where('job_id', '=', this.job.id)
      .where('kind', '=', kind)
      .where('source_id', '=', source)
      .execute();
    await record(this.deps, this.job.id, kind, [{ source, local }]);
  }

  async localSurvey(id: string): Promise<SurveyRow | undefined> {
    return this.deps.db.kysely.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async localOf(kind: Kind, sourceId: string): Promise<string | undefined> {
    return (await mapped(this.deps, this.job.id, kind, [sourceId])).get(sourceId)?.local_id;
  }

  async pairDesign(details: SurveyDetails, row: SurveyRow) {
    const pairs = pairDesign(details, await loadDesign(this.deps, row.id));
    for (const kind of ['page', 'question', 'answer'] as const)
      await record(
        this.deps,
        this.job.id,
        kind,
        pairs[kind].map(([source, local]) => ({ source, local })),
      );
    for (const p of details.pages ?? [])
      for (const q of p.questions ?? [])
        if (q.family === 'open_ended' && q.subtype === 'file_upload')
          this.skip({
            kind: 'question',
            name: `${details.title} / ${headingOf(q)}`,
            reason: 'file uploads are not copied',
          });
  }

  /** The source's creation and modification dates on a copied row (a copy keeps its history). */
  async keepDates(
    table: 'surveys' | 'collectors',
    id: string,
    created?: string | null,
    modified?: string | null,
  ) {
    const c = iso(created);
    const m = iso(modified);
    if (!c && !m) return;
    await this.deps.db.kysely
      .updateTable(table)
      .set({ ...(c ? { date_created: c } : {}), ...(m ? { date_modified: m } : {}) })
      .where('id', '=', id)
      .execute();
  }

  async collectors(sourceSurveyId: string) {
    const localSurveyId = (await this.localOf('survey', sourceSurveyId))!;
    const survey = (await this.localSurvey(localSurveyId))!;
    const list = await this.api.all(
      ListedCollector,
      `/surveys/${sourceSurveyId}/collectors?per_page=1000&include=date_modified`,
      'collectors',
      this.badItem('collector'),
    );
    const known = await mapped(
      this.deps,
      this.job.id,
      'collector',
      list.map((c) => String(c.id)),
    );
    const actor = { user: { id: this.owner.id }, plan: this.plan, ip: null };
    for (const item of list) {
      const m = known.get(String(item.id));
      if (m && m.source_stamp === item.date_modified && (await collectorById(this.deps, m.local_id)))
        continue;
      const c = await this.readItem(SourceCollector, `/collectors/${item.id}`, 'collector', String(item.id));
      if (!c) continue;
      const input = collectorInput(c);
      const closeDate = iso(c.close_date) ?? null;
      const local = await reserve(this.deps, this.job.id, 'collector', String(item.id));
      const existing = await collectorById(this.deps, local);
      try {
        if (!existing) {
          await createCollector(this.deps, actor, survey, input, closeDate, local);
          this.count('collectors');
        } else {
          const { type: _t, ...changes } = input;
          await updateCollector(this.deps, actor, existing, changes, closeDate, 'patch');
          this.count('collectors_updated');
        }
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        this.skip({ kind: 'collector', name: `${survey.title} / ${c.name}`, reason: err.message });
        continue;
      }
      if (c.password_enabled)
        this.skip({
          kind: 'collector',
          name: `${survey.title} / ${c.name}`,
          reason: 'its password is not readable; set a new one',
        });
      if (c.type === 'email' || c.type === 'sms')
        this.skip({
          kind: 'collector',
          name: `${survey.title} / ${c.name}`,
          reason: 'messages and recipients are not copied',
        });
      await this.keepDates('collectors', local, c.date_created, c.date_modified);
      await stamp(this.deps, this.job.id, 'collector', String(item.id), item.date_modified ?? '');
    }
  }

  // ---- responses ----

  async responses(list: ListedSurvey[]) {
    for (const s of list) {
      const sourceId = String(s.id);
      const localId = await this.localOf('survey', sourceId);
      if (!localId) continue;
      const survey = await this.localSurvey(localId);
      if (!survey) continue; // its design was refused (reported)
      const since = this.cursor.responsesSince[sourceId];
      let page = this.cursor.responsePage[sourceId] ?? 1;
      if (page === 0) continue; // done in this pass
      const filter = since ? `&start_modified_at=${encodeURIComponent(since)}` : '';
      const [designMap, collectors] = await Promise.all([this.designMap(), this.collectorMap()]);
      let newest = since ?? '';
      for (;;) {
        const body = await this.api.read(
          Envelope,
          `/surveys/${sourceId}/responses/bulk?per_page=${BULK}&page=${page}&sort_by=date_modified&sort_order=ASC${filter}`,
          'responses',
        );
        const items: SourceResponse[] = [];
        for (const r of body.data) {
          const p = problem(SourceResponse, r);
          if (p)
            this.skip({
              kind: 'response',
              name: `${survey.title} / response ${idOf(r)}`,
              reason: `malformed at the source: ${p}`,
            });
          else items.push(r as SourceResponse);
        }
        for (const r of items) if ((iso(r.date_modified) ?? '') > newest) newest = iso(r.date_modified)!;
        await this.copyResponses(survey, items, designMap, collectors);
        this.responsesHere = await this.responsesCopied();
        if (!body.links?.next) break;
        page += 1;
        this.cursor.responsePage[sourceId] = page;
        await this.save();
        await this.report();
      }
      // The next pass reads from a second before the newest seen (the filter's unit is a second).
      if (newest)
        this.cursor.responsesSince[sourceId] = noOffset(new Date(Date.parse(newest) - 1000).toISOString());
      this.cursor.responsePage[sourceId] = 0;
      await this.restoreCollectors();
      await this.save();
      await this.report();
    }
  }

  async designMap(): Promise<Map<string, string>> {
    const rows = await this.deps.db.kysely
      .selectFrom('import_ids')
      .select(['source_id', 'local_id'])
      .where('job_id', '=', this.job.id)
      .where('kind', 'in', ['page', 'question', 'answer'])
      .execute();
    return new Map(rows.map((r) => [r.source_id, r.local_id]));
  }

  async collectorMap(): Promise<Map<string, string>> {
    const rows = await this.deps.db.kysely
      .selectFrom('import_ids')
      .select(['source_id', 'local_id'])
      .where('job_id', '=', this.job.id)
      .where('kind', '=', 'collector')
      .execute();
    return new Map(rows.map((r) => [r.source_id, r.local_id]));
  }

  async responsesCopied(): Promise<number> {
    const row = await this.deps.db.kysely
      .selectFrom('import_ids')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('job_id', '=', this.job.id)
      .where('kind', '=', 'response')
      .where('source_stamp', '<>', '')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async copyResponses(
    survey: SurveyRow,
    items: SourceResponse[],
    design: Map<string, string>,
    collectors: Map<string, string>,
  ) {
    if (items.length === 0) return;
    const ids = items.map((r) => String(r.id));
    const known = await mapped(this.deps, this.job.id, 'response', ids);
    const fresh = items.filter((r) => !known.has(String(r.id)));
    // Reserve and record the local ids first: a run killed mid-page writes the same ids next time.
    const minted = await this.deps.ids.take(fresh.length);
    const locals = await record(
      this.deps,
      this.job.id,
      'response',
      fresh.map((r, i) => ({ source: String(r.id), local: minted[i] })),
    );
    for (const [s, m] of known) locals.set(s, m.local_id);
    const existing = new Set(
      (
        await this.deps.db.kysely
          .selectFrom('responses')
          .select('id')
          .where('id', 'in', [...locals.values()])
          .execute()
      ).map((r) => r.id),
    );
    const index = await designIndex(this.deps, survey);
    for (const r of items) {
      const sourceId = String(r.id);
      const localId = locals.get(sourceId)!;
      const m = known.get(sourceId);
      if (existing.has(localId) && m && m.source_stamp === r.date_modified) continue;
      const collectorId = collectors.get(String(r.collector_id));
      const collector = collectorId ? await this.openForImport(collectorId) : undefined;
      if (!collector) {
        this.skip({
          kind: 'response',
          name: `${survey.title} / response ${sourceId}`,
          reason: 'its collector was not copied',
        });
        continue;
      }
      const input: ResponseInput = {
        pages: this.mapAnswers(survey, sourceId, r.pages ?? [], design),
        custom_variables: r.custom_variables ?? {},
        custom_value: r.custom_value ?? '',
        response_status: r.response_status as ResponseStatus,
        ip_address: r.ip_address ?? '',
        first_name: r.first_name ?? '',
        last_name: r.last_name ?? '',
        email_address: r.email_address ?? '',
      };
      const extras = {
        totalTime: Number(r.total_time ?? 0),
        dateModified: iso(r.date_modified),
        collectionMode: r.collection_mode ?? 'default',
        metadata: r.metadata ?? {},
        pagePath: (r.page_path ?? []).map((p) => design.get(String(p)) ?? String(p)),
      };
      const actor = { userId: this.owner.id, ip: null };
      if (existing.has(localId)) {
        const current = await getResponse(this.deps, { surveyId: survey.id }, localId);
        await updateResponse(this.deps, actor, current, index, input, iso(r.date_created), 'put', extras);
        this.count('responses_updated');
      } else {
        await createResponse(this.deps, actor, survey, collector, index, input, iso(r.date_created), {
          ...extras,
          id: localId,
        });
        this.count('responses');
      }
      await stamp(this.deps, this.job.id, 'response', sourceId, r.date_modified);
    }
  }

  /** The answers with every page, question, choice, row, column and other id mapped to the copy's. */
  mapAnswers(
    survey: SurveyRow,
    responseId: string,
    pages: NonNullable<SourceResponse['pages']>,
    design: Map<string, string>,
  ): PageIn[] {
    const map = (id: unknown) => (id === undefined || id === null ? undefined : design.get(String(id)));
    return pages
      .filter((p) => map(p.id))
      .map((p) => ({
        id: map(p.id)!,
        questions: (p.questions ?? [])
          .filter((q) => map(q.id))
          .map((q) => ({
            id: map(q.id)!,
            answers: (q.answers ?? []).flatMap((a) => {
              if (a.download_url) {
                this.skip({
                  kind: 'answer',
                  name: `${survey.title} / response ${responseId}`,
                  reason: 'file uploads are not copied',
                });
                return [];
              }
              const out: Record<string, string> = {};
              for (const k of ['choice_id', 'row_id', 'col_id', 'other_id'] as const)
                if (a[k] !== undefined && a[k] !== null) {
                  const v = map(a[k]);
                  if (!v) return [];
                  out[k] = v;
                }
              if (typeof a.text === 'string') out.text = a.text;
              return [out];
            }),
          }))
          .filter((q) => q.answers.length > 0),
      }));
  }

  /**
   * The collector, open to take imported responses: a closed, expired or full one is opened for
   * the import and put back as it was afterwards (its settings kept in the cursor meanwhile, so a
   * killed run puts them back when it resumes).
   */
  async openForImport(collectorId: string): Promise<Collector | undefined> {
    const c = await collectorById(this.deps, collectorId);
    if (!c || !closedReason(c, this.deps.clock.now())) return c;
    this.cursor.reopened[c.id] ??= {
      status: c.status,
      close_date: c.close_date,
      response_limit: c.response_limit,
      date_modified: c.date_modified,
    };
    await this.save();
    const actor = { user: { id: this.owner.id }, plan: this.plan, ip: null };
    return updateCollector(this.deps, actor, c, { status: 'open', response_limit: null }, null, 'patch');
  }

  async restoreCollectors() {
    const actor = { user: { id: this.owner.id }, plan: this.plan, ip: null };
    for (const [id, was] of Object.entries(this.cursor.reopened)) {
      const c = await collectorById(this.deps, id);
      if (c)
        await updateCollector(
          this.deps,
          actor,
          c,
          { status: was.status === 'closed' ? 'closed' : 'open', response_limit: was.response_limit },
          was.close_date,
          'patch',
        );
      await this.keepDates('collectors', id, undefined, was.date_modified);
      delete this.cursor.reopened[id];
    }
  }

  // ---- the run ----

  async run(): Promise<void> {
    await this.restoreCollectors();
    const list = await this.sourceSurveys();
    this.responsesHere = await this.responsesCopied();
    const todo = (p: string) => !this.cursor.done.includes(p);
    for (const phase of PHASES) {
      if (!todo(phase)) continue;
      this.phase = phase;
      await this.report();
      if (phase === 'fields') await this.fields();
      else if (phase === 'lists') await this.lists();
      else if (phase === 'contacts') await this.contacts();
      else if (phase === 'folders') await this.folders();
      else if (phase === 'surveys') await this.surveys(list);
      else await this.responses(list);
      await this.phaseDone(phase);
    }
  }
}

const contactInput = (c: SourceContact) => ({
  first_name: c.first_name ?? '',
  last_name: c.last_name ?? '',
  email: c.email ?? null,
  phone_number: c.phone_number ?? null,
  custom_fields: c.custom_fields ?? {},
});

/** What a contact's listing shows, as copied: a different one means "changed at the source". */
const contactStamp = (c: Static<typeof ListedContact>, status: string) =>
  JSON.stringify([c.first_name ?? '', c.last_name ?? '', c.email ?? null, c.phone_number ?? null, status]);

/** What a survey's copy was taken from (its import_ids stamp, as JSON). */
interface SurveyStamp {
  /** date_modified in the source's survey list (one-minute grain). */
  listed: string;
  /** When the details were read (this service's clock). */
  read: string;
  /** The details' date_modified, which the copy took as its own. */
  modified: string;
  /** The design and settings as read (response counts and dates left out). */
  hash: string;
  /** A re-copy of its design is under way (a killed run goes on with it). */
  resync?: boolean;
}

function surveyStamp(text: string): SurveyStamp {
  // Stamps of earlier runs were the listed date_modified alone.
  if (!text.startsWith('{')) return { listed: text, read: '', modified: text, hash: '' };
  return JSON.parse(text) as SurveyStamp;
}

/** Whether a copy read at `read` saw every change of a survey listed as modified at `listed`. */
function settledBefore(listed: string | null | undefined, read: string): boolean {
  const at = iso(listed);
  return !!at && !!read && Date.parse(read) >= Date.parse(at) + 120_000;
}

function designHash(details: SurveyDetails): string {
  const {
    response_count: _r,
    date_modified: _m,
    date_created: _c,
    ...rest
  } = details as SurveyDetails & Record<string, unknown>;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}

/**
 * A source question's input with its answer options' ids as the copy's (unknown ones dropped, so
 * new options get new ids) and its choices' rules jumping to the copy's pages.
 */
function localAnswerIds(
  input: QuestionInput,
  ids: Map<string, string>,
  pages: Map<string, string>,
): QuestionInput {
  const mapItem = (item: unknown): unknown => {
    if (!item || typeof item !== 'object') return item;
    const { id, logic, ...rest } = item as { id?: unknown; logic?: Logic } & Record<string, unknown>;
    const local = id === undefined || id === null ? undefined : ids.get(String(id));
    const out: Record<string, unknown> = { ...rest, ...(local ? { id: local } : {}) };
    if (logic) {
      const mappedLogic = remapLogic(logic, pages);
      if (mappedLogic) out.logic = mappedLogic;
    }
    for (const k of ['choices', 'rows', 'cols'])
      if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(mapItem);
    if (out.other) out.other = mapItem(out.other);
    return out;
  };
  return input.answers ? { ...input, answers: mapItem(input.answers) as QuestionInput['answers'] } : input;
}

function collectorInput(c: SourceCollector): CollectorInput {
  // The options are passed on as the source gives them: createCollector checks them as any body.
  const input = {
    type: c.type,
    name: c.name,
    thank_you_message: c.thank_you_message,
    thank_you_page: c.thank_you_page,
    disqualification_message: c.disqualification_message,
    disqualification_url: c.disqualification_url,
    disqualification_type: c.disqualification_type,
    closed_page_message: c.closed_page_message,
    redirect_url: c.redirect_url,
    redirect_type: c.redirect_type,
    display_survey_results: c.display_survey_results,
    edit_response_type: c.edit_response_type,
    anonymous_type: c.anonymous_type,
    allow_multiple_responses: c.allow_multiple_responses,
    sender_email: c.sender_email,
    response_limit: c.response_limit,
    respondent_authentication: c.respondent_authentication,
  } as CollectorInput;
  if (c.status === 'open' || c.status === 'closed') input.status = c.status;
  for (const k of Object.keys(input) as Array<keyof CollectorInput>)
    if (input[k] === undefined) delete input[k];
  return input;
}

/** The source account behind a token (its id keys the job). */
async function sourceAccount(api: RemoteApi): Promise<{ id: string; username: string }> {
  const me = await api.read(SourceUser, '/users/me', 'account (users/me)');
  return { id: String(me.id), username: me.username };
}

/** An import whose source account is known and whose job is open, ready to run. */
export interface OpenedImport {
  job: ImportJob;
  /** Requests made before the job was known (the probe), charged to it when the run starts. */
  spent: number;
}

/**
 * Asks the source whose token this is (one request) and opens that account's job: a wrong URL or
 * token fails here, before anything runs.
 */
export async function openImport(deps: Deps, options: ImportOptions): Promise<OpenedImport> {
  const sourceUrl = normaliseSourceUrl(options.from);
  let spent = 0;
  const probe = new RemoteApi(sourceUrl, options.token, {
    budget: { spend: async () => void spent++ },
    sleep: options.sleep,
    signal: options.signal,
  });
  const source = await sourceAccount(probe);
  const job = await openJob(deps, options.owner.id, sourceUrl, source.id, options.dailyBudget);
  return { job, spent };
}

/** Runs an opened import until it is done, the day's budget is spent, or it is stopped. */
export async function continueImport(
  deps: Deps,
  opened: OpenedImport,
  options: ImportOptions,
): Promise<ImportResult> {
  const { job } = opened;
  const run = new Run(deps, job, options, job.source_url);
  try {
    for (let i = 0; i < opened.spent; i++) await jobBudget(deps, job).spend();
    opened.spent = 0;
    await run.run();
  } catch (err) {
    if (options.signal?.aborted) {
      await run.save('stopped');
      return result(run, 'stopped');
    }
    if (!(err instanceof BudgetSpent)) {
      // The message names the source's answer or what broke, never the token (only in a header).
      await run.save('failed', err instanceof Error ? err.message.slice(0, 500) : String(err));
      throw err;
    }
    await run.save('paused');
    return result(run, 'paused', err.resumeAt.toISOString());
  }
  // A finished pass: the next run starts a new one (reading only what changed since).
  run.cursor.done = [];
  run.cursor.responsePage = {};
  run.responsesHere = await run.responsesCopied();
  run.phase = 'done';
  await run.save('done');
  return result(run, 'done');
}

/** Imports (or resumes importing) the token's account into `owner`. */
export async function runImport(deps: Deps, options: ImportOptions): Promise<ImportResult> {
  return continueImport(deps, await openImport(deps, options), options);
}

/** Where an import stands, read from its job (what any page of any instance shows). */
export interface ImportStatus {
  id: string;
  sourceUrl: string;
  state: string;
  /** A server process runs it, or waits for the budget to renew to resume it. */
  live: boolean;
  progress: Progress;
  skipped: Skipped[];
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

async function statusOf(deps: Deps, job: ImportJob): Promise<ImportStatus> {
  const now = deps.clock.now();
  const cursor: Cursor = { ...emptyCursor(), ...JSON.parse(job.cursor) };
  const totals = { surveys: 0, responses: 0, contacts: 0, ...JSON.parse(job.totals) };
  const here = await deps.db.kysely
    .selectFrom('import_ids')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_id', '=', job.id)
    .where('kind', '=', 'response')
    .where('source_stamp', '<>', '')
    .executeTakeFirstOrThrow();
  const phase = job.state === 'done' ? 'done' : (PHASES.find((p) => !cursor.done.includes(p)) ?? 'done');
  return {
    id: job.id,
    sourceUrl: job.source_url,
    state: job.state,
    live: isLive(job, now),
    progress: progressOf(job, phase, JSON.parse(job.counts), totals, Number(here.n), 0, now),
    skipped: JSON.parse(job.skipped),
    lastError: job.last_error,
    createdAt: job.created_at,
    updatedAt: job.updated_at,
  };
}

/** The owner's imports, newest first. */
export async function listImports(deps: Deps, ownerId: string): Promise<ImportStatus[]> {
  return Promise.all((await ownerJobs(deps, ownerId)).map((j) => statusOf(deps, j)));
}

/** One of the owner's imports (another account's is not found). */
export async function importStatus(deps: Deps, ownerId: string, jobId: string): Promise<ImportStatus> {
  const job = await ownerJob(deps, ownerId, jobId);
  if (!job) throw notFound('Import');
  return statusOf(deps, job);
}

/** Progress at the job's budget: the requests still needed and the days they take. */
function progressOf(
  job: ImportJob,
  phase: string,
  copied: Record<string, number>,
  totals: Progress['totals'],
  responsesHere: number,
  pendingRequests: number,
  now: Date,
): Progress {
  // Per survey still to copy: its details, its collectors and (assumed) one collector.
  const surveysLeft = ['done', 'responses'].includes(phase)
    ? 0
    : Math.max(0, totals.surveys - (copied.surveys ?? 0)) * 3;
  const left =
    phase === 'done'
      ? 0
      : Math.max(0, pendingRequests + surveysLeft + Math.ceil((totals.responses - responsesHere) / BULK));
  const remaining = remainingToday(job, now);
  // Within today's budget at the pace so far is unknown; past it, whole days at the budget.
  const etaSeconds =
    left <= remaining
      ? 0
      : Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000) +
        Math.floor((left - remaining - 1) / Math.max(1, job.daily_budget)) * 86_400;
  return {
    phase,
    copied: { ...copied },
    totals: { ...totals },
    responsesHere,
    requestsToday: job.daily_budget - remaining,
    dailyBudget: job.daily_budget,
    requestsTotal: job.requests_total,
    requestsLeft: left,
    etaSeconds,
  };
}

function result(run: Run, state: ImportResult['state'], resumeAt?: string): ImportResult {
  const responses = run.responsesHere;
  return {
    state,
    resumeAt,
    jobId: run.job.id,
    copied: { ...run.copiedNow },
    copiedTotal: { ...run.copied },
    skipped: [...run.skipped],
    requestsTotal: run.job.requests_total,
    responsesCopied: responses,
    requestsPerResponse: responses ? run.job.requests_total / responses : null,
    progress: run.progress(),
  };
}

export interface DryRun {
  folders: number;
  surveys: number;
  responses: number;
  contacts: number;
  contactLists: number;
  /** Requests a full copy needs (the listing requests of the dry run itself included). */
  requests: number;
  /** Requests the dry run made. */
  requestsMade: number;
  /** Days a full copy takes at the daily budget. */
  days: number;
}

/**
 * What an import would copy and the requests it needs, from the listings alone (six requests,
 * outside any job's budget: a dry run starts no job).
 */
export async function planImport(options: Omit<ImportOptions, 'owner'>): Promise<DryRun> {
  const sourceUrl = normaliseSourceUrl(options.from);
  let made = 0;
  const api = new RemoteApi(sourceUrl, options.token, {
    budget: { spend: async () => void made++ },
    sleep: options.sleep,
  });
  const [surveys, folders, lists, contacts] = await Promise.all([
    api.read(Envelope, '/surveys?per_page=1000&include=owned,response_count', 'list of surveys'),
    api.read(Envelope, '/survey_folders?per_page=1', 'list of folders'),
    api.read(Envelope, '/contact_lists?per_page=1', 'list of contact lists'),
    Promise.all(
      CONTACT_STATUSES.map((s) => api.read(Envelope, `/contacts?per_page=1&status=${s}`, 'list of contacts')),
    ),
  ]);
  const surveyItems = surveys.data.filter((s): s is ListedSurvey => !problem(ListedSurvey, s));
  const pagesOf = (n: number, per: number) => Math.max(1, Math.ceil(n / per));
  const contactCount = contacts.reduce((n, c) => n + Number(c.total ?? 0), 0);
  const responses = surveyItems.reduce((n, s) => n + Number(s.response_count ?? 0), 0);
  const listCount = Number(lists.total ?? 0);
  // Per survey: details, the collectors list, one GET per collector (assumed one) and the bulk pages.
  const perSurvey = surveyItems.reduce((n, s) => n + 3 + pagesOf(Number(s.response_count ?? 0), BULK), 0);
  const requests =
    1 + // users/me
    1 + // contact fields
    1 + // lists
    CONTACT_STATUSES.length * pagesOf(contactCount, 1000) +
    contactCount + // one GET per contact for its custom fields
    listCount * CONTACT_STATUSES.length + // members
    1 + // folders
    pagesOf(Number(surveys.total ?? 0), 1000) +
    perSurvey;
  return {
    folders: Number(folders.total ?? 0),
    surveys: Number(surveys.total ?? 0),
    responses,
    contacts: contactCount,
    contactLists: listCount,
    requests,
    requestsMade: made,
    days: Math.ceil(requests / Math.max(1, options.dailyBudget)),
  };
}
