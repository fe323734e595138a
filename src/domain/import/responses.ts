// The responses phase of an import: each copied survey's responses, read a bulk page at a time
// in date_modified order (from the last pass's newest, less a second), their answers' ids mapped
// to the copy's, created here or (changed at the source) replaced.
import Value from 'typebox/value';
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
import { openForImport, restoreCollectors } from './collectors.js';
import { allMapped, mapped, record, stamp } from './jobs.js';
import { BULK } from './progress.js';
import { idOf, iso, type RunContext } from './run-context.js';
import { Envelope, type ListedSurvey, problem, SourceResponse } from './source.js';

/** The start_modified_at format the source takes: no offset, UTC. */
const noOffset = (isoInstant: string) => isoInstant.slice(0, 19);

export async function copyResponses(run: RunContext, list: ListedSurvey[]) {
  for (const s of list) {
    const sourceId = String(s.id);
    const localId = await run.localOf('survey', sourceId);
    if (!localId) continue;
    const survey = await run.localSurvey(localId);
    if (!survey) continue; // its design was refused (reported)
    const since = run.cursor.responsesSince[sourceId];
    let page = run.cursor.responsePage[sourceId] ?? 1;
    if (page === 0) continue; // done in this pass
    const filter = since ? `&start_modified_at=${encodeURIComponent(since)}` : '';
    const [designMap, collectors] = await Promise.all([
      run.designMap(),
      allMapped(run.deps, run.job.id, 'collector'),
    ]);
    let newest = since ?? '';
    for (;;) {
      const body = await run.api.read(
        Envelope,
        `/surveys/${sourceId}/responses/bulk?per_page=${BULK}&page=${page}&sort_by=date_modified&sort_order=ASC${filter}`,
        'responses',
      );
      const items: SourceResponse[] = [];
      for (const r of body.data) {
        if (Value.Check(SourceResponse, r)) items.push(r);
        else
          run.skip({
            kind: 'response',
            name: `${survey.title} / response ${idOf(r)}`,
            reason: `malformed at the source: ${problem(SourceResponse, r)}`,
          });
      }
      for (const r of items) if ((iso(r.date_modified) ?? '') > newest) newest = iso(r.date_modified)!;
      await copyPage(run, survey, items, designMap, collectors);
      run.responsesHere = await run.responsesCopied();
      if (!body.links?.next) break;
      page += 1;
      run.cursor.responsePage[sourceId] = page;
      await run.save();
      await run.report();
    }
    // The next pass reads from a second before the newest seen (the filter's unit is a second).
    if (newest)
      run.cursor.responsesSince[sourceId] = noOffset(new Date(Date.parse(newest) - 1000).toISOString());
    run.cursor.responsePage[sourceId] = 0;
    await restoreCollectors(run);
    await run.save();
    await run.report();
  }
}

/** One bulk page of a survey's responses, created or replaced here. */
async function copyPage(
  run: RunContext,
  survey: SurveyRow,
  items: SourceResponse[],
  design: Map<string, string>,
  collectors: Map<string, string>,
) {
  if (items.length === 0) return;
  const { deps } = run;
  const ids = items.map((r) => String(r.id));
  const known = await mapped(deps, run.job.id, 'response', ids);
  const fresh = items.filter((r) => !known.has(String(r.id)));
  // Reserve and record the local ids first: a run killed mid-page writes the same ids next time.
  const minted = await deps.ids.take(fresh.length);
  const locals = await record(
    deps,
    run.job.id,
    'response',
    fresh.map((r, i) => ({ source: String(r.id), local: minted[i] })),
  );
  for (const [s, m] of known) locals.set(s, m.local_id);
  const existing = new Set(
    (
      await deps.db.kysely
        .selectFrom('responses')
        .select('id')
        .where('id', 'in', [...locals.values()])
        .execute()
    ).map((r) => r.id),
  );
  const index = await designIndex(deps, survey);
  for (const r of items) {
    const sourceId = String(r.id);
    const localId = locals.get(sourceId)!;
    const m = known.get(sourceId);
    if (existing.has(localId) && m && m.source_stamp === r.date_modified) continue;
    const collectorId = collectors.get(String(r.collector_id));
    const collector = collectorId ? await openForImport(run, collectorId) : undefined;
    if (!collector) {
      run.skip({
        kind: 'response',
        name: `${survey.title} / response ${sourceId}`,
        reason: 'its collector was not copied',
      });
      continue;
    }
    const input: ResponseInput = {
      pages: mapAnswers(r.pages ?? [], design, () =>
        run.skip({
          kind: 'answer',
          name: `${survey.title} / response ${sourceId}`,
          reason: 'file uploads are not copied',
        }),
      ),
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
      // History, not news: an imported response raises no event, so no webhook delivery, no
      // response alert and no team activity replays it (a live response afterwards still does).
      silent: true,
    };
    const actor = { userId: run.owner.id, ip: null };
    if (existing.has(localId)) {
      const current = await getResponse(deps, { surveyId: survey.id }, localId);
      await updateResponse(deps, actor, current, index, input, iso(r.date_created), 'put', extras);
      run.count('responses_updated');
    } else {
      await createResponse(deps, actor, survey, collector, index, input, iso(r.date_created), {
        ...extras,
        id: localId,
      });
      run.count('responses');
    }
    await stamp(deps, run.job.id, 'response', sourceId, r.date_modified);
  }
}

/**
 * A response's answers with every page, question, choice, row, column and other id mapped to the
 * copy's (`design`: source id -> local id); answers to what was not copied are left out, and a
 * file upload (not copied) calls `fileUpload`.
 */
export function mapAnswers(
  pages: NonNullable<SourceResponse['pages']>,
  design: Map<string, string>,
  fileUpload: () => void,
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
              fileUpload();
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
