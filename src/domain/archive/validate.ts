// Checking a whole account archive before anything is written: the manifest's format and version,
// every file against its schema (JSON Lines files streamed, line by line), the counts against the
// manifest, and every reference inside the archive (a response's collector, pages, questions,
// answer options and files; a list's contacts; a survey's folder; a quota's question and choice).
import { type Static, Type } from 'typebox';
import Value from 'typebox/value';
import { pairAnswers } from '../import/design.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  ContactField,
  ContactList,
  Contact as ContactSchema,
  FILES,
  Folder,
  Manifest,
  Response,
  Survey,
  Upload,
  Webhook,
} from './format.js';
import { ArchiveRefused, type OpenArchive, problem, readJson, readLines } from './zip-read.js';

export interface CheckedSurvey {
  path: string;
  survey: Static<typeof Survey>;
  uploads: Array<Static<typeof Upload>>;
  responses: number;
}

export interface CheckedArchive {
  manifest: Static<typeof Manifest>;
  folders: Array<Static<typeof Folder>>;
  fields: Array<Static<typeof ContactField>>;
  lists: Array<Static<typeof ContactList>>;
  webhooks: Array<Static<typeof Webhook>>;
  surveys: CheckedSurvey[];
}

const Head = Type.Object({ format: Type.Unknown(), version: Type.Unknown() });

/** Every id a survey's design holds: pages, questions and their answer options (choices, rows, cols, other). */
export function designIds(survey: Static<typeof Survey>) {
  const pages = new Set<string>();
  const questions = new Set<string>();
  const answers = new Set<string>();
  for (const p of survey.pages) {
    pages.add(p.id);
    for (const q of p.questions) {
      questions.add(q.id);
      // pairAnswers of a question with itself lists every option id it has
      for (const [id] of pairAnswers(q.doc.answers, q.doc.answers)) answers.add(id);
    }
  }
  return { pages, questions, answers };
}

export async function checkArchive(archive: OpenArchive): Promise<CheckedArchive> {
  if (!archive.has(FILES.manifest.path)) throw new ArchiveRefused('the archive has no manifest.json');
  const head = await readJson(archive, FILES.manifest.path, Head);
  if (head.format !== ARCHIVE_FORMAT)
    throw new ArchiveRefused(
      `manifest.json does not name this format (format: ${JSON.stringify(head.format)})`,
    );
  if (head.version !== ARCHIVE_VERSION)
    throw new ArchiveRefused(
      `the archive's format version ${JSON.stringify(head.version)} is not one this server reads (it reads version ${ARCHIVE_VERSION})`,
    );
  const manifest = await readJson(archive, FILES.manifest.path, Manifest);
  const array = <T extends typeof Folder | typeof ContactField | typeof ContactList | typeof Webhook>(
    path: string,
    schema: T,
  ) => readJson(archive, path, Type.Array(schema));
  const folders = await array(FILES.folders.path, Folder);
  const fields = await array(FILES.contact_fields.path, ContactField);
  const lists = await array(FILES.contact_lists.path, ContactList);
  const webhooks = await array(FILES.webhooks.path, Webhook);

  const contacts = new Set<string>();
  for await (const c of readLines(archive, FILES.contacts.path, ContactSchema)) contacts.add(c.id);
  for (const l of lists)
    for (const id of l.contact_ids)
      if (!contacts.has(id))
        throw new ArchiveRefused(`contact list ${l.name} names contact ${id}, not in contacts.jsonl`);
  const folderIds = new Set(folders.map((f) => f.id));

  const listed = new Set(manifest.surveys.map((s) => s.path));
  for (const name of archive.names()) {
    const dir = /^(surveys\/[0-9]+)\//.exec(name)?.[1];
    if (dir && !listed.has(dir)) throw new ArchiveRefused(`${name} is in no survey the manifest lists`);
  }
  const surveys: CheckedSurvey[] = [];
  const surveyIds = new Set<string>();
  const collectorIds = new Set<string>();
  let responses = 0;
  let files = 0;
  for (const entry of manifest.surveys) {
    const where = (file: string) => `${entry.path}/${file}`;
    const survey = await readJson(archive, where('survey.json'), Survey);
    surveyIds.add(survey.id);
    if (survey.folder_id !== null && !folderIds.has(survey.folder_id))
      throw new ArchiveRefused(
        `${where('survey.json')} names folder ${survey.folder_id}, not in folders.json`,
      );
    const ids = designIds(survey);
    const collectors = new Set(survey.collectors.map((c) => c.id));
    for (const c of collectors) collectorIds.add(c);
    for (const q of survey.quotas)
      for (const c of q.conditions)
        if (!ids.questions.has(c.question_id) || !ids.answers.has(c.choice_id))
          throw new ArchiveRefused(
            `${where('survey.json')}: quota ${q.name} names a question or choice it does not have`,
          );
    const uploads: CheckedSurvey['uploads'] = [];
    for await (const u of readLines(archive, where('uploads.jsonl'), Upload)) {
      if (!archive.has(`files/${u.id}`)) throw new ArchiveRefused(`files/${u.id} is missing`);
      if (archive.size(`files/${u.id}`) !== u.size)
        throw new ArchiveRefused(`files/${u.id} is not the size uploads.jsonl gives`);
      uploads.push(u);
    }
    const uploadIds = new Set(uploads.map((u) => u.id));
    let n = 0;
    for await (const r of readLines(archive, where('responses.jsonl'), Response)) {
      n++;
      const at = `${where('responses.jsonl')} line ${n}`;
      if (!collectors.has(r.collector_id))
        throw new ArchiveRefused(`${at}: collector ${r.collector_id} is not in survey.json`);
      for (const p of r.pages) {
        if (!ids.pages.has(p.id)) throw new ArchiveRefused(`${at}: page ${p.id} is not in survey.json`);
        for (const q of p.questions) {
          if (!ids.questions.has(q.id))
            throw new ArchiveRefused(`${at}: question ${q.id} is not in survey.json`);
          for (const a of q.answers) {
            for (const id of [a.choice_id, a.row_id, a.col_id, a.other_id])
              if (id !== undefined && !ids.answers.has(id))
                throw new ArchiveRefused(`${at}: answer option ${id} is not in survey.json`);
            if (a.upload_id !== undefined && !uploadIds.has(a.upload_id))
              throw new ArchiveRefused(`${at}: file ${a.upload_id} is not in uploads.jsonl`);
          }
        }
      }
    }
    if (n !== entry.responses)
      throw new ArchiveRefused(
        `${where('responses.jsonl')} holds ${n} responses; the manifest says ${entry.responses}`,
      );
    responses += n;
    files += uploads.length;
    surveys.push({ path: entry.path, survey, uploads, responses: n });
  }
  const counted = {
    folders: folders.length,
    surveys: surveys.length,
    responses,
    files,
    contacts: contacts.size,
    contact_lists: lists.length,
    webhooks: webhooks.length,
  };
  for (const [k, v] of Object.entries(counted))
    if (Reflect.get(manifest.counts, k) !== v)
      throw new ArchiveRefused(
        `the archive holds ${v} ${k}; the manifest says ${Reflect.get(manifest.counts, k)}`,
      );
  for (const w of webhooks)
    for (const id of w.object_ids)
      if (!surveyIds.has(id) && !collectorIds.has(id))
        throw new ArchiveRefused(
          `webhook ${w.name} names ${id}, neither a survey nor a collector of the archive`,
        );
  if (!Value.Check(Manifest, manifest))
    throw new ArchiveRefused(`manifest.json: ${problem(Manifest, manifest)}`);
  return { manifest, folders, fields, lists, webhooks, surveys };
}
