// The folders and surveys phases of an import: the source's folders, its surveys' listing (which
// sets the totals), and each survey's design and settings (GET /surveys/{id}/details), copied,
// re-copied when it changed at the source, or left alone; then the survey's collectors.
import { createHash } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { parseAs } from '../../platform/json.js';
import type { SurveyRow } from '../surveys/access.js';
import { createFolder, renameFolder } from '../surveys/folders.js';
import { createSurvey, loadDesign, type SettingsInput, updateSurvey } from '../surveys/surveys.js';
import { copyCollectors } from './collectors.js';
import { blueprintPages, headingOf, pairDesign } from './design.js';
import { mapped, record, reserve, stamp } from './jobs.js';
import { resyncDesign } from './resync.js';
import { iso, type RunContext } from './run-context.js';
import { Folder, ListedSurvey, SurveyDetails } from './source.js';

export async function copyFolders(run: RunContext) {
  const folders = await run.api.all(Folder, '/survey_folders?per_page=1000', 'folders');
  for (const f of folders) {
    const local = await reserve(run.deps, run.job.id, 'folder', String(f.id));
    const exists = await run.deps.db.kysely
      .selectFrom('survey_folders')
      .select(['id', 'title'])
      .where('id', '=', local)
      .executeTakeFirst();
    if (!exists) {
      await createFolder(run.deps, run.owner.id, f.title, local);
      run.count('folders');
    } else if (exists.title !== f.title) {
      await renameFolder(run.deps, run.owner.id, local, f.title);
      run.count('folders');
    }
  }
}

/** Every survey of the source account (owned), with the fields change detection needs. */
export async function sourceSurveys(run: RunContext): Promise<ListedSurvey[]> {
  const surveys = await run.api.all(
    ListedSurvey,
    '/surveys?per_page=1000&include=owned,response_count,date_modified',
    'surveys',
    run.badItem('survey'),
  );
  run.totals.surveys = surveys.length;
  run.totals.responses = surveys.reduce((n, s) => n + Number(s.response_count ?? 0), 0);
  return surveys;
}

export async function copySurveys(run: RunContext, list: ListedSurvey[]) {
  const known = await mapped(
    run.deps,
    run.job.id,
    'survey',
    list.map((s) => String(s.id)),
  );
  for (const s of list) {
    const m = known.get(String(s.id));
    const local = m && (await run.localSurvey(m.local_id));
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
    const details = await run.readItem(
      SurveyDetails,
      `/surveys/${s.id}/details`,
      'survey',
      s.title ?? String(s.id),
    );
    if (!details) continue;
    const now: SurveyStamp = {
      listed: s.date_modified ?? '',
      read: run.deps.clock.now().toISOString(),
      modified: details.date_modified ?? '',
      hash: designHash(details),
    };
    if (finished && !was.resync && was.hash === now.hash) {
      await stamp(
        run.deps,
        run.job.id,
        'survey',
        String(s.id),
        JSON.stringify({ ...now, modified: was.modified }),
      );
      continue;
    }
    const folderId =
      details.folder_id && details.folder_id !== '0'
        ? (await mapped(run.deps, run.job.id, 'folder', [String(details.folder_id)])).get(
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
    if (!finished) {
      const id = await reserve(run.deps, run.job.id, 'survey', String(s.id));
      const pages = blueprintPages(details, run.skipped);
      let row: SurveyRow;
      try {
        row =
          (await run.localSurvey(id)) ??
          (await createSurvey(run.deps, run.actor, { ...settings, pages }, id));
      } catch (err) {
        // A design this service refuses (a rule it cannot follow, a malformed question): the
        // survey is named in the report and the rest of the account is copied.
        if (!(err instanceof ApiError)) throw err;
        run.skip({
          kind: 'survey',
          name: details.title,
          reason: `its design was refused: ${err.detail ?? err.message}`,
        });
        continue;
      }
      await recordDesign(run, details, row);
      run.count('surveys');
    } else {
      // Changed at the source since copied. The rule: the copy follows the source while nobody
      // edited it here (its date_modified is still the one the copy took from the source, or a
      // re-copy a killed run left half done is marked RESYNC); a copy edited here keeps its
      // design, and only its settings follow.
      const untouched = was.resync || local!.date_modified === iso(was.modified);
      if (untouched) {
        await stamp(run.deps, run.job.id, 'survey', String(s.id), JSON.stringify({ ...was, resync: true }));
        try {
          await resyncDesign(run, details, local!);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          run.skip({
            kind: 'survey',
            name: details.title,
            reason: `its changed design could not be re-copied: ${err.detail ?? err.message}`,
          });
        }
      } else
        run.skip({
          kind: 'survey',
          name: details.title,
          reason:
            'changed at the source and edited here since the copy: its settings were updated, its design was left as edited here',
        });
      await updateSurvey(run.deps, run.actor, local!.id, settings, 'patch');
      run.count('surveys_updated');
    }
    await run.keepDates(
      'surveys',
      (await run.localOf('survey', String(s.id)))!,
      details.date_created,
      details.date_modified,
    );
    await copyCollectors(run, String(s.id));
    await stamp(run.deps, run.job.id, 'survey', String(s.id), JSON.stringify(now));
    await run.report();
  }
}

/** Records the source ids of a new copy's pages, questions and answer options with the copy's. */
async function recordDesign(run: RunContext, details: SurveyDetails, row: SurveyRow) {
  const pairs = pairDesign(details, await loadDesign(run.deps, row.id));
  for (const kind of ['page', 'question', 'answer'] as const)
    await record(
      run.deps,
      run.job.id,
      kind,
      pairs[kind].map(([source, local]) => ({ source, local })),
    );
  for (const p of details.pages ?? [])
    for (const q of p.questions ?? [])
      if (q.family === 'open_ended' && q.subtype === 'file_upload')
        run.skip({
          kind: 'question',
          name: `${details.title} / ${headingOf(q)}`,
          reason: 'file uploads are not copied',
        });
}

/** What a survey's copy was taken from (its import_ids stamp, as JSON). */
const SurveyStamp = Type.Object({
  /** date_modified in the source's survey list (one-minute grain). */
  listed: Type.String(),
  /** When the details were read (this service's clock). */
  read: Type.String(),
  /** The details' date_modified, which the copy took as its own. */
  modified: Type.String(),
  /** The design and settings as read (response counts and dates left out). */
  hash: Type.String(),
  /** A re-copy of its design is under way (a killed run goes on with it). */
  resync: Type.Optional(Type.Boolean()),
});
type SurveyStamp = Static<typeof SurveyStamp>;

export function surveyStamp(text: string): SurveyStamp {
  // Stamps of earlier runs were the listed date_modified alone.
  if (!text.startsWith('{')) return { listed: text, read: '', modified: text, hash: '' };
  return parseAs(SurveyStamp, text);
}

/** Whether a copy read at `read` saw every change of a survey listed as modified at `listed`. */
export function settledBefore(listed: string | null | undefined, read: string): boolean {
  const at = iso(listed);
  return !!at && !!read && Date.parse(read) >= Date.parse(at) + 120_000;
}

function designHash(details: SurveyDetails): string {
  // The same text as without these fields: JSON.stringify leaves out undefined ones.
  const rest = { ...details, response_count: undefined, date_modified: undefined, date_created: undefined };
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}
