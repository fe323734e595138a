// Writing one archived survey into an account through the domain's own functions: the design
// (createSurvey, as a copy: skip logic and recalls follow the new ids), its calculated variables,
// theme, collectors, quotas and translations, then its responses as copied history (createResponse
// with `silent`: no webhook, alert or activity replays them) with their uploaded files.
import type { Static } from 'typebox';
import type { Deps } from '../../context.js';
import { isOneOf } from '../../platform/lists.js';
import {
  type Collector,
  type CreateCollectorInput,
  createCollector,
  updateCollector,
} from '../collectors/collectors.js';
import { COLLECTOR_TYPES } from '../collectors/options.js';
import { pairAnswers } from '../import/design.js';
import { createQuota } from '../quotas/quotas.js';
import { designIndex } from '../responses/design-index.js';
import { createResponse } from '../responses/responses.js';
import type { PageIn } from '../responses/types.js';
import type { SurveyRow } from '../surveys/access.js';
import type { BlueprintPage } from '../surveys/blueprint.js';
import { remapFormula } from '../surveys/calculated.js';
import { storedAsInput } from '../surveys/question-rules.js';
import { type Actor, createSurvey, loadDesign, updateSurvey } from '../surveys/surveys.js';
import { saveTranslation } from '../surveys/translations.js';
import { checkTheme, saveTheme } from '../themes/themes.js';
import { discardFiles, fileProblem, keepFile, receiveFile } from '../uploads/uploads.js';
import { Response, type Survey, type Upload } from './format.js';
import { ArchiveRefused, type OpenArchive, readLines } from './zip-read.js';

export interface Skipped {
  kind: string;
  name: string;
  reason: string;
}

export interface WrittenSurvey {
  survey: SurveyRow;
  /** archive id -> new id of the survey, its collectors */
  ids: Map<string, string>;
  responses: number;
  files: number;
}

/** Archive ids -> new ids of the design: pages and questions by position, answer options by position in each. */
async function designMap(deps: Deps, s: Survey, surveyId: string): Promise<Map<string, string>> {
  const local = await loadDesign(deps, surveyId);
  const map = new Map<string, string>([[s.id, surveyId]]);
  s.pages.forEach((p, i) => {
    const lp = local.pages[i];
    if (!lp) return;
    map.set(p.id, lp.id);
    const lqs = local.questions.get(lp.id) ?? [];
    p.questions.forEach((q, j) => {
      const lq = lqs[j];
      if (!lq) return;
      map.set(q.id, lq.id);
      for (const [from, to] of pairAnswers(q.doc.answers, lq.doc.answers)) map.set(from, to);
    });
  });
  return map;
}

export async function writeSurvey(
  deps: Deps,
  actor: Actor,
  s: Survey,
  folderIds: Map<string, string>,
  archive: OpenArchive,
  path: string,
  uploads: Upload[],
  skipped: Skipped[],
  onCreated: (surveyId: string) => void,
): Promise<WrittenSurvey> {
  const pages: BlueprintPage[] = s.pages.map((p) => ({
    id: p.id,
    title: p.title,
    description: p.description,
    logic: p.logic,
    sorting: p.sorting,
    questions: p.questions.map((q) => storedAsInput(q.family, q.subtype, q.doc)),
    questionIds: p.questions.map((q) => q.id),
  }));
  const created = await createSurvey(deps, actor, {
    title: s.title,
    nickname: s.nickname,
    language: s.language,
    buttons_text: s.buttons_text,
    custom_variables: s.custom_variables,
    footer: s.footer,
    folder_id: s.folder_id === null ? null : (folderIds.get(s.folder_id) ?? null),
    logo_url: s.logo_url,
    theme_color: s.theme_color,
    question_layout: s.question_layout,
    quiz_options: s.quiz_options,
    pages,
  });
  onCreated(created.id);
  const ids = await designMap(deps, s, created.id);
  if (s.calculated_variables.length > 0)
    await updateSurvey(
      deps,
      actor,
      created.id,
      {
        calculated_variables: s.calculated_variables.map((v) => ({
          name: v.name,
          formula: remapFormula(v.formula, ids),
        })),
      },
      'patch',
    );
  if (s.theme) await saveTheme(deps, created, checkTheme({ ...s.theme }));

  const collectors = new Map<string, Collector>();
  for (const c of s.collectors) {
    if (!isOneOf(COLLECTOR_TYPES, c.type))
      throw new ArchiveRefused(`collector ${c.name}: unknown type ${c.type}`);
    const input: CreateCollectorInput = {};
    // Every option as stored; createCollector checks them as any request body.
    Object.assign(input, c.options, { type: c.type, name: c.name });
    const made = await createCollector(deps, actor, created, input, null);
    collectors.set(c.id, made);
    ids.set(c.id, made.id);
    if (c.had_password)
      skipped.push({
        kind: 'collector',
        name: `${s.title} / ${c.name}`,
        reason: 'its password is not in the archive; set a new one',
      });
  }
  for (const q of s.quotas)
    await createQuota(deps, created, {
      name: q.name,
      limit: q.limit,
      conditions: q.conditions.map((c) => ({
        question_id: ids.get(c.question_id) ?? c.question_id,
        choice_id: ids.get(c.choice_id) ?? c.choice_id,
      })),
      action: q.action,
    });
  for (const t of s.translations)
    await saveTranslation(
      deps,
      created,
      t.language,
      {
        enabled: t.enabled,
        translations: t.translations
          .filter((x) => ids.has(x.resource_id))
          .map((x) => ({ ...x, resource_id: ids.get(x.resource_id) ?? x.resource_id })),
      },
      'post',
    );

  const survey =
    (await deps.db.kysely
      .selectFrom('surveys')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirst()) ?? created;
  const { responses, files } = await writeResponses(
    deps,
    actor,
    survey,
    s,
    ids,
    collectors,
    archive,
    path,
    uploads,
    skipped,
  );

  // The collectors' state last: closed, capped or dated ones took their responses meanwhile.
  for (const c of s.collectors) {
    const made = collectors.get(c.id);
    if (!made) continue;
    const fresh = await deps.db.kysely
      .selectFrom('collectors')
      .select('status')
      .where('id', '=', made.id)
      .executeTakeFirst();
    const status =
      c.status === 'closed' ? 'closed' : c.status === 'open' || fresh?.status === 'open' ? 'open' : undefined;
    if (status || c.response_limit !== null || c.close_date !== null)
      await updateCollector(
        deps,
        actor,
        { ...made, status: fresh?.status ?? made.status },
        { ...(status && { status }), response_limit: c.response_limit },
        c.close_date,
        'patch',
      );
  }
  return { survey, ids, responses, files };
}

/** Responses written at a time before the next batch is read. */
const BATCH = 200;

async function writeResponses(
  deps: Deps,
  actor: Actor,
  survey: SurveyRow,
  s: Survey,
  ids: Map<string, string>,
  collectors: Map<string, Collector>,
  archive: OpenArchive,
  path: string,
  uploads: Upload[],
  skipped: Skipped[],
): Promise<{ responses: number; files: number }> {
  const index = await designIndex(deps, survey);
  const byId = new Map(uploads.map((u) => [u.id, u]));
  const respondent = { userId: actor.user.id, ip: null };
  let responses = 0;
  let files = 0;
  let batch: Array<Static<typeof Response>> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const minted = await deps.ids.take(batch.length);
    // Files first (each awaits its bytes), then every write started together in the batch's order,
    // so the store group-commits them in that order: the copies keep the archive's order.
    const starts: Array<() => Promise<unknown>> = [];
    for (const [i, r] of batch.entries()) {
      const collector = collectors.get(r.collector_id);
      if (!collector) throw new ArchiveRefused(`response ${r.id}: its collector is not in survey.json`);
      const fileIds = new Map<string, { id: string; name: string; contentType: string }>();
      for (const p of r.pages)
        for (const q of p.questions)
          for (const a of q.answers) {
            const u = a.upload_id === undefined ? undefined : byId.get(a.upload_id);
            if (!u) continue;
            const incoming = await receiveFile(
              deps,
              ids.get(u.question_id) ?? q.id,
              u.file_name,
              await archive.stream(`files/${u.id}`),
            );
            const wrong = fileProblem(deps, incoming);
            if (wrong) {
              await discardFiles([incoming]);
              skipped.push({
                kind: 'file',
                name: `${s.title} / ${u.file_name}`,
                reason: `this server does not take it (${'key' in wrong ? wrong.key : wrong.text})`,
              });
              continue;
            }
            const kept = await keepFile(
              deps,
              {
                ownerId: survey.owner_id,
                surveyId: survey.id,
                collectorId: collector.id,
                responseId: minted[i],
              },
              incoming,
            );
            fileIds.set(u.id, kept);
            files++;
          }
      const pages: PageIn[] = r.pages.map((p) => ({
        id: ids.get(p.id) ?? p.id,
        questions: p.questions
          .map((q) => ({
            id: ids.get(q.id) ?? q.id,
            ...(q.variable_id !== undefined && { variable_id: q.variable_id }),
            answers: q.answers.flatMap((a) => {
              const out: Record<string, string> = {};
              for (const key of ['choice_id', 'row_id', 'col_id', 'other_id'] as const) {
                const v = a[key];
                if (v !== undefined) out[key] = ids.get(v) ?? v;
              }
              if (a.upload_id !== undefined) {
                const kept = fileIds.get(a.upload_id);
                if (!kept) return [];
                return [
                  {
                    upload_id: kept.id,
                    content_type: kept.contentType,
                    ...(a.text !== undefined && { text: a.text }),
                  },
                ];
              }
              if (a.content_type !== undefined) out.content_type = a.content_type;
              if (a.text !== undefined) out.text = a.text;
              return [out];
            }),
          }))
          .filter((q) => q.answers.length > 0),
      }));
      starts.push(() =>
        createResponse(
          deps,
          respondent,
          survey,
          collector,
          index,
          {
            pages,
            custom_variables: r.custom_variables,
            custom_value: r.custom_value,
            response_status: r.response_status,
            ip_address: r.ip_address,
            first_name: r.first_name,
            last_name: r.last_name,
            email_address: r.email_address,
          },
          r.date_created,
          {
            id: minted[i],
            totalTime: r.total_time,
            dateModified: r.date_modified,
            collectionMode: r.collection_mode,
            metadata: r.metadata,
            pagePath: r.page_path.map((p) => ids.get(p) ?? p),
            // History, not news: no webhook, alert or activity replays an archived response.
            silent: true,
          },
        ),
      );
    }
    const writes = starts.map((start) => start());
    const settled = await Promise.allSettled(writes);
    for (const w of settled) if (w.status === 'rejected') throw w.reason;
    responses += writes.length;
    batch = [];
  };
  for await (const r of readLines(archive, `${path}/responses.jsonl`, Response)) {
    batch.push(r);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { responses, files };
}
