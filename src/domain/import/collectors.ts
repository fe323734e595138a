// A copied survey's collectors (GET /collectors/{id} each, new or changed since copied), and the
// reopening of a closed, expired or full collector while imported responses go in: its settings
// wait in the cursor and are put back afterwards (by this run, or by the next one if it is killed).
import { ApiError } from '../../platform/errors.js';
import {
  type Collector,
  closedReason,
  collectorById,
  createCollector,
  updateCollector,
} from '../collectors/collectors.js';
import type { CollectorInput } from '../collectors/options.js';
import { mapped, reserve, stamp } from './jobs.js';
import { iso, type RunContext } from './run-context.js';
import { ListedCollector, SourceCollector } from './source.js';

export async function copyCollectors(run: RunContext, sourceSurveyId: string) {
  const localSurveyId = (await run.localOf('survey', sourceSurveyId))!;
  const survey = (await run.localSurvey(localSurveyId))!;
  const list = await run.api.all(
    ListedCollector,
    `/surveys/${sourceSurveyId}/collectors?per_page=1000&include=date_modified`,
    'collectors',
    run.badItem('collector'),
  );
  const known = await mapped(
    run.deps,
    run.job.id,
    'collector',
    list.map((c) => String(c.id)),
  );
  for (const item of list) {
    const m = known.get(String(item.id));
    if (m && m.source_stamp === item.date_modified && (await collectorById(run.deps, m.local_id))) continue;
    const c = await run.readItem(SourceCollector, `/collectors/${item.id}`, 'collector', String(item.id));
    if (!c) continue;
    const input = collectorInput(c);
    const closeDate = iso(c.close_date) ?? null;
    const local = await reserve(run.deps, run.job.id, 'collector', String(item.id));
    const existing = await collectorById(run.deps, local);
    try {
      if (!existing) {
        await createCollector(run.deps, run.actor, survey, input, closeDate, local);
        run.count('collectors');
      } else {
        const { type: _t, ...changes } = input;
        await updateCollector(run.deps, run.actor, existing, changes, closeDate, 'patch');
        run.count('collectors_updated');
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      run.skip({ kind: 'collector', name: `${survey.title} / ${c.name}`, reason: err.message });
      continue;
    }
    if (c.password_enabled)
      run.skip({
        kind: 'collector',
        name: `${survey.title} / ${c.name}`,
        reason: 'its password is not readable; set a new one',
      });
    if (c.type === 'email' || c.type === 'sms')
      run.skip({
        kind: 'collector',
        name: `${survey.title} / ${c.name}`,
        reason: 'messages and recipients are not copied',
      });
    await run.keepDates('collectors', local, c.date_created, c.date_modified);
    await stamp(run.deps, run.job.id, 'collector', String(item.id), item.date_modified ?? '');
  }
}

/** A source collector as the body of a local createCollector. */
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
  for (const [k, v] of Object.entries(input)) if (v === undefined) Reflect.deleteProperty(input, k);
  return input;
}

/**
 * The collector, open to take imported responses: a closed, expired or full one is opened for
 * the import and put back as it was afterwards (its settings kept in the cursor meanwhile, so a
 * killed run puts them back when it resumes).
 */
export async function openForImport(run: RunContext, collectorId: string): Promise<Collector | undefined> {
  const c = await collectorById(run.deps, collectorId);
  if (!c || !closedReason(c, run.deps.clock.now())) return c;
  run.cursor.reopened[c.id] ??= {
    status: c.status,
    close_date: c.close_date,
    response_limit: c.response_limit,
    date_modified: c.date_modified,
  };
  await run.save();
  return updateCollector(run.deps, run.actor, c, { status: 'open', response_limit: null }, null, 'patch');
}

/** Puts every collector reopened for the import back as it was. */
export async function restoreCollectors(run: RunContext) {
  for (const [id, was] of Object.entries(run.cursor.reopened)) {
    const c = await collectorById(run.deps, id);
    if (c)
      await updateCollector(
        run.deps,
        run.actor,
        c,
        { status: was.status === 'closed' ? 'closed' : 'open', response_limit: was.response_limit },
        was.close_date,
        'patch',
      );
    await run.keepDates('collectors', id, undefined, was.date_modified);
    delete run.cursor.reopened[id];
  }
}
