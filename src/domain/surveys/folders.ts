// Survey folders (reference §4.6): a user's own named groups of surveys.
import type { Deps } from '../../context.js';
import { countAndPage, ownedRow } from '../core/owned.js';

export interface Folder {
  id: string;
  title: string;
  num_surveys: number;
}

export async function listFolders(
  deps: Deps,
  ownerId: string,
  offset: number,
  limit: number,
): Promise<[number, Folder[]]> {
  const base = deps.db.kysely.selectFrom('survey_folders as f').where('f.owner_id', '=', ownerId);
  const { total, rows } = await countAndPage(base, { offset, limit }, (q) =>
    q
      .leftJoin('surveys as s', 's.folder_id', 'f.id')
      .select(['f.id', 'f.title', (eb) => eb.fn.count<number>('s.id').as('num_surveys')])
      .groupBy(['f.id', 'f.title', 'f.created_at'])
      .orderBy('f.created_at')
      .orderBy('f.id'),
  );
  return [total, rows.map((r) => ({ ...r, num_surveys: Number(r.num_surveys) }))];
}

export async function getFolder(deps: Deps, ownerId: string, id: string): Promise<Folder> {
  const row = await ownedRow(deps.db.kysely, 'survey_folders', ownerId, id, 'Folder not found.');
  const { n } = await deps.db.kysely
    .selectFrom('surveys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('folder_id', '=', id)
    .executeTakeFirstOrThrow();
  return { id: row.id, title: row.title, num_surveys: Number(n) };
}

/** `presetId`: an id reserved beforehand (the importer records it first, so a re-run never duplicates). */
export async function createFolder(
  deps: Deps,
  ownerId: string,
  title: string | undefined,
  presetId?: string,
): Promise<Folder> {
  const id = presetId ?? (await deps.ids.one());
  const row = {
    id,
    owner_id: ownerId,
    title: title ?? 'New Folder',
    created_at: deps.clock.now().toISOString(),
  };
  await deps.db.kysely.insertInto('survey_folders').values(row).execute();
  return { id, title: row.title, num_surveys: 0 };
}

export async function renameFolder(
  deps: Deps,
  ownerId: string,
  id: string,
  title: string | undefined,
): Promise<Folder> {
  const folder = await getFolder(deps, ownerId, id);
  if (title === undefined) return folder;
  await deps.db.kysely.updateTable('survey_folders').set({ title }).where('id', '=', id).execute();
  return { ...folder, title };
}

/** Deletes a folder; its surveys stay, in no folder. */
export async function deleteFolder(deps: Deps, ownerId: string, id: string): Promise<Folder> {
  const folder = await getFolder(deps, ownerId, id);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx.updateTable('surveys').set({ folder_id: null }).where('folder_id', '=', id).execute();
    await trx.deleteFrom('survey_folders').where('id', '=', id).execute();
  });
  return folder;
}
