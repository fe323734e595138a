// Response alerts: per survey, its owner asks for an email on each completed
// response ('each') or a daily digest ('daily'). Nothing is sent from the request path: the outbox
// worker queues 'each' alerts while fanning out response_completed events (outbox/fanout.ts, in
// the transaction that marks each event dispatched, so an alert goes once) and runs the digest as
// a scheduled job (ALERT_DIGEST_INTERVAL_SECONDS). An owner who opted out of alerts on the account
// page gets none, whatever their surveys ask.
import type { Selectable } from 'kysely';
import type { Region } from '../../config.js';
import type { Deps } from '../../context.js';
import { type NewEmail, queueEmail } from '../../db/outbox-queue.js';
import type { EventsTable } from '../../db/tables/platform.js';
import { ApiError } from '../../platform/errors.js';
import { accessUrl } from '../../platform/regions.js';
import { surveyUrls } from '../surveys/urls.js';

export const ALERT_MODES = ['off', 'each', 'daily'] as const;
export type AlertMode = (typeof ALERT_MODES)[number];

const DAY_MS = 86_400_000;

/** The survey's alert setting ('off' without a row). */
export async function alertModeOf(deps: Deps, surveyId: string): Promise<AlertMode> {
  const row = await deps.db.kysely
    .selectFrom('survey_alerts')
    .select('mode')
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  return (row?.mode as AlertMode | undefined) ?? 'off';
}

/** Sets a survey's alerts, which go to its owner: only the owner sets them (403/1016 for a team
 * member). A digest counts from the moment it is asked for. */
export async function setAlertMode(
  deps: Deps,
  userId: string,
  survey: { id: string; owner_id: string },
  mode: string,
): Promise<void> {
  if (userId !== survey.owner_id)
    throw new ApiError(1016, "Alerts go to the survey's owner; only the owner can change them.");
  if (!(ALERT_MODES as readonly string[]).includes(mode))
    throw new ApiError(1002, `The alert must be one of ${ALERT_MODES.join(', ')}.`);
  const k = deps.db.kysely;
  if (mode === 'off') {
    await k.deleteFrom('survey_alerts').where('survey_id', '=', survey.id).execute();
    return;
  }
  const now = deps.clock.now().toISOString();
  await k
    .insertInto('survey_alerts')
    .values({ survey_id: survey.id, owner_id: survey.owner_id, mode, digest_since: now })
    .onConflict((oc) => oc.column('survey_id').doUpdateSet({ mode, digest_since: now }))
    .execute();
}

interface Recipient {
  survey_id: string;
  title: string;
  manage_token: string;
  preview_token: string;
  owner_id: string;
  email: string;
  region: string;
}

/** The owners to alert for these surveys in `mode`, opted-out owners left out. */
function recipients(deps: Deps, mode: AlertMode, surveyIds?: string[]) {
  let q = deps.db.kysely
    .selectFrom('survey_alerts as a')
    .innerJoin('surveys as s', 's.id', 'a.survey_id')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .leftJoin('account_preferences as p', 'p.user_id', 'u.id')
    .select([
      'a.survey_id',
      'a.digest_since',
      's.title',
      's.manage_token',
      's.preview_token',
      's.owner_id',
      'u.email',
      'u.region',
    ])
    .where('a.mode', '=', mode)
    .where('u.status', '=', 'active')
    .where((eb) => eb.or([eb('p.alerts_opt_out', 'is', null), eb('p.alerts_opt_out', '=', 0)]));
  if (surveyIds) q = q.where('a.survey_id', 'in', surveyIds);
  return q;
}

function alertEmail(deps: Deps, id: string, r: Recipient, subject: string, lines: string[]): NewEmail {
  const base = accessUrl(deps.config, r.region as Region);
  const analyze = surveyUrls(base, r).analyze_url;
  const footer = `Stop these emails: ${base}/account (or the survey's alert setting).`;
  return {
    id,
    ownerId: r.owner_id,
    to: r.email,
    subject,
    text: [...lines, '', `See the results: ${analyze}`, '', footer].join('\n'),
    purpose: 'alert',
    refId: r.survey_id,
  };
}

/**
 * The 'each' alerts for a batch of events: one email per response_completed event of a survey that
 * asks for them (ids reserved here, outside the fan-out's transaction, which queues them).
 */
export async function planResponseAlerts(
  deps: Deps,
  events: Array<Selectable<EventsTable>>,
  surveyOf: (e: Selectable<EventsTable>) => string | null,
): Promise<Array<{ eventId: string; email: NewEmail }>> {
  const completed = events.filter((e) => e.type === 'response_completed' && surveyOf(e) !== null);
  if (completed.length === 0) return [];
  const surveyIds = [...new Set(completed.map((e) => surveyOf(e)!))];
  const rows = await recipients(deps, 'each', surveyIds).execute();
  if (rows.length === 0) return [];
  const bySurvey = new Map(rows.map((r) => [r.survey_id, r]));
  const wanted = completed.filter((e) => bySurvey.has(surveyOf(e)!));
  const ids = await deps.ids.take(wanted.length);
  return wanted.map((e, i) => {
    const r = bySurvey.get(surveyOf(e)!)!;
    return {
      eventId: e.id,
      email: alertEmail(deps, ids[i], r, `New response: ${r.title}`, [
        `A response to "${r.title}" was completed at ${e.created_at.slice(0, 16).replace('T', ' ')} UTC.`,
      ]),
    };
  });
}

/**
 * The daily digests due now: for each survey asking for one whose last digest is a day old, the
 * number of responses completed since, in one email (none when there were none). Each digest
 * moves its survey's `digest_since` in the transaction that queues it, conditionally, so two
 * workers never send the same digest. Returns how many were queued.
 */
export async function sendDigests(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const due = await recipients(deps, 'daily')
    .where('a.digest_since', '<=', new Date(now.getTime() - DAY_MS).toISOString())
    .limit(500)
    .execute();
  let queued = 0;
  for (const r of due) {
    const { n } = await deps.db.kysely
      .selectFrom('responses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('survey_id', '=', r.survey_id)
      .where('response_status', '=', 'completed')
      .where('date_modified', '>=', r.digest_since)
      .where('date_modified', '<', nowIso)
      .executeTakeFirstOrThrow();
    const count = Number(n);
    const id = count > 0 ? await deps.ids.one() : null;
    const sent = await deps.db.kysely.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('survey_alerts')
        .set({ digest_since: nowIso })
        .where('survey_id', '=', r.survey_id)
        .where('digest_since', '=', r.digest_since)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0 || id === null) return false;
      await queueEmail(
        deps,
        trx,
        alertEmail(deps, id, r, `Daily digest: ${r.title}`, [
          `${count} response${count === 1 ? ' was' : 's were'} completed for "${r.title}" in the last day.`,
        ]),
      );
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}

/** Whether the account has opted out of alerts. */
export async function alertsOptedOut(deps: Deps, userId: string): Promise<boolean> {
  const row = await deps.db.kysely
    .selectFrom('account_preferences')
    .select('alerts_opt_out')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.alerts_opt_out === 1;
}

/** Opts the account out of (or back into) every survey's alerts. */
export async function setAlertsOptOut(deps: Deps, userId: string, optedOut: boolean): Promise<void> {
  const v = optedOut ? 1 : 0;
  await deps.db.kysely
    .insertInto('account_preferences')
    .values({ user_id: userId, time_zone: 'UTC', alerts_opt_out: v })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ alerts_opt_out: v }))
    .execute();
}
