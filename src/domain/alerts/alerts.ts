// Response alerts: per survey, its owner asks for an email on each completed
// response ('each') or a daily digest ('daily'), to themselves or to chosen members of their team
// (survey_alert_recipients; none chosen: the owner). Nothing is sent from the request path: the outbox
// worker queues 'each' alerts while fanning out response_completed events (outbox/fanout.ts, in
// the transaction that marks each event dispatched, so an alert goes once) and runs the digest as
// a scheduled job (ALERT_DIGEST_INTERVAL_SECONDS). An owner who opted out of alerts on the account
// page gets none, whatever their surveys ask; a chosen member who has left the team gets none.
// Each email has a plain-text part and an HTML part in the survey's theme (alert-email.ts).
import type { Selectable } from 'kysely';
import type { Region } from '../../config.js';
import type { Deps } from '../../context.js';
import { type NewEmail, queueEmail } from '../../db/outbox-queue.js';
import type { EventsTable } from '../../db/tables/platform.js';
import { ApiError } from '../../platform/errors.js';
import { accessUrl } from '../../platform/regions.js';
import type { EmailTheme } from '../invitations/email-body.js';
import { surveyEmailTheme } from '../invitations/send.js';
import { activeTeamOf } from '../teams/membership.js';
import { alertEmailParts } from './alert-email.js';
import { responseSummaries } from './response-summary.js';

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

/** Sets a survey's alerts and who they go to: only the owner sets them (403/1016 for a team
 * member). `to` are user ids among the owner and the active members of the owner's team (400/1002
 * for anyone else); empty means the owner. A digest counts from the moment it is asked for. */
export async function setAlertMode(
  deps: Deps,
  userId: string,
  survey: { id: string; owner_id: string },
  mode: string,
  to: string[] = [],
): Promise<void> {
  if (userId !== survey.owner_id)
    throw new ApiError(1016, "Alerts go to the survey's owner; only the owner can change them.");
  if (!(ALERT_MODES as readonly string[]).includes(mode))
    throw new ApiError(1002, `The alert must be one of ${ALERT_MODES.join(', ')}.`);
  const chosen = [...new Set(to)];
  const allowed = new Set((await alertCandidates(deps, survey.owner_id)).map((c) => c.user_id));
  if (chosen.some((id) => !allowed.has(id)))
    throw new ApiError(1002, "Alerts go only to the survey's owner and members of the owner's team.");
  const k = deps.db.kysely;
  const now = deps.clock.now().toISOString();
  // The owner alone is stored as no rows, so the default needs none.
  const rows = chosen.length === 1 && chosen[0] === survey.owner_id ? [] : chosen;
  // The survey_alerts row is written first: on PostgreSQL it locks the survey's setting, so two
  // saves at once replace the recipients one after the other instead of mixing (or colliding).
  await k.transaction().execute(async (trx) => {
    if (mode === 'off') {
      await trx.deleteFrom('survey_alerts').where('survey_id', '=', survey.id).execute();
      await trx.deleteFrom('survey_alert_recipients').where('survey_id', '=', survey.id).execute();
      return;
    }
    await trx
      .insertInto('survey_alerts')
      .values({ survey_id: survey.id, owner_id: survey.owner_id, mode, digest_since: now })
      .onConflict((oc) => oc.column('survey_id').doUpdateSet({ mode, digest_since: now }))
      .execute();
    await trx.deleteFrom('survey_alert_recipients').where('survey_id', '=', survey.id).execute();
    if (rows.length)
      await trx
        .insertInto('survey_alert_recipients')
        .values(rows.map((user_id) => ({ survey_id: survey.id, user_id })))
        .onConflict((oc) => oc.columns(['survey_id', 'user_id']).doNothing())
        .execute();
  });
}

export interface AlertCandidate {
  user_id: string;
  email: string;
  name: string;
  owner: boolean;
}

/** Whom the owner may send a survey's alerts to: themselves, then their team's active members. */
export async function alertCandidates(deps: Deps, ownerId: string): Promise<AlertCandidate[]> {
  const team = await activeTeamOf(deps, ownerId);
  let q = deps.db.kysely
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.username'])
    .where('u.status', '=', 'active');
  q = team
    ? q.where((eb) =>
        eb.or([
          eb('u.id', '=', ownerId),
          eb(
            'u.id',
            'in',
            eb
              .selectFrom('team_members')
              .select('user_id')
              .where('team_id', '=', team)
              .where('status', '=', 'active'),
          ),
        ]),
      )
    : q.where('u.id', '=', ownerId);
  const rows = await q.orderBy('u.email').execute();
  return rows
    .map((r) => ({
      user_id: r.id,
      email: r.email,
      name: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.username,
      owner: r.id === ownerId,
    }))
    .sort((a, b) => Number(b.owner) - Number(a.owner));
}

/** The user ids a survey's alerts go to (the owner when none were chosen). */
export async function alertRecipientIds(
  deps: Deps,
  survey: { id: string; owner_id: string },
): Promise<string[]> {
  const rows = await deps.db.kysely
    .selectFrom('survey_alert_recipients')
    .select('user_id')
    .where('survey_id', '=', survey.id)
    .execute();
  return rows.length ? rows.map((r) => r.user_id) : [survey.owner_id];
}

interface AlertSurvey {
  survey_id: string;
  title: string;
  manage_token: string;
  preview_token: string;
  owner_id: string;
  region: string;
  digest_since: string;
}

interface Person {
  user_id: string;
  email: string;
}

/** The surveys alerting in `mode`, with their owner's region. */
function alertSurveys(deps: Deps, mode: AlertMode, surveyIds?: string[]) {
  let q = deps.db.kysely
    .selectFrom('survey_alerts as a')
    .innerJoin('surveys as s', 's.id', 'a.survey_id')
    .innerJoin('users as u', 'u.id', 's.owner_id')
    .select([
      'a.survey_id',
      'a.digest_since',
      's.title',
      's.manage_token',
      's.preview_token',
      's.owner_id',
      'u.region',
    ])
    .where('a.mode', '=', mode);
  if (surveyIds) q = q.where('a.survey_id', 'in', surveyIds);
  return q;
}

/** Who each survey's alerts reach now: the chosen people (or the owner), each still active, not
 * opted out, and (when not the owner) still an active member of the owner's team. */
async function peopleFor(deps: Deps, surveys: AlertSurvey[]): Promise<Map<string, Person[]>> {
  const out = new Map<string, Person[]>();
  if (surveys.length === 0) return out;
  const k = deps.db.kysely;
  const chosen = await k
    .selectFrom('survey_alert_recipients')
    .select(['survey_id', 'user_id'])
    .where(
      'survey_id',
      'in',
      surveys.map((s) => s.survey_id),
    )
    .execute();
  const wanted = new Map<string, string[]>();
  for (const c of chosen) wanted.set(c.survey_id, [...(wanted.get(c.survey_id) ?? []), c.user_id]);
  const userIds = [...new Set([...surveys.map((s) => s.owner_id), ...chosen.map((c) => c.user_id)])];
  const users = await k
    .selectFrom('users as u')
    .leftJoin('account_preferences as p', 'p.user_id', 'u.id')
    .leftJoin('team_members as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.status', '=', 'active'))
    .select(['u.id', 'u.email', 'm.team_id'])
    .where('u.id', 'in', userIds)
    .where('u.status', '=', 'active')
    .where((eb) => eb.or([eb('p.alerts_opt_out', 'is', null), eb('p.alerts_opt_out', '=', 0)]))
    .execute();
  const byId = new Map(users.map((u) => [u.id, u]));
  for (const s of surveys) {
    const ownerTeam = byId.get(s.owner_id)?.team_id ?? (await activeTeamOf(deps, s.owner_id));
    const ids = wanted.get(s.survey_id) ?? [s.owner_id];
    const people = ids.flatMap((id) => {
      const u = byId.get(id);
      if (!u) return [];
      if (id !== s.owner_id && (!ownerTeam || u.team_id !== ownerTeam)) return [];
      return [{ user_id: u.id, email: u.email }];
    });
    out.set(s.survey_id, people);
  }
  return out;
}

/**
 * The 'each' alerts for a batch of events: one email per response_completed event of a survey that
 * asks for them and per person it goes to (ids reserved here, outside the fan-out's transaction,
 * which queues them).
 */
export async function planResponseAlerts(
  deps: Deps,
  events: Array<Selectable<EventsTable>>,
  surveyOf: (e: Selectable<EventsTable>) => string | null,
): Promise<Array<{ eventId: string; email: NewEmail }>> {
  const completed = events.filter((e) => e.type === 'response_completed' && surveyOf(e) !== null);
  if (completed.length === 0) return [];
  const surveyIds = [...new Set(completed.map((e) => surveyOf(e)!))];
  const rows = await alertSurveys(deps, 'each', surveyIds).execute();
  if (rows.length === 0) return [];
  const bySurvey = new Map(rows.map((r) => [r.survey_id, r]));
  const people = await peopleFor(deps, rows);
  const wanted = completed.filter((e) => (people.get(surveyOf(e)!) ?? []).length > 0);
  if (wanted.length === 0) return [];
  const summaries = await responseSummaries(
    deps,
    wanted.map((e) => e.resource_id ?? ''),
  );
  const ids = await deps.ids.take(wanted.reduce((n, e) => n + people.get(surveyOf(e)!)!.length, 0));
  let next = 0;
  const out: Array<{ eventId: string; email: NewEmail }> = [];
  const themes = new Map<string, EmailTheme>();
  for (const e of wanted) {
    const r = bySurvey.get(surveyOf(e)!)!;
    const base = accessUrl(deps.config, r.region as Region);
    const theme = themes.get(r.survey_id) ?? (await surveyEmailTheme(deps, r.survey_id, base));
    themes.set(r.survey_id, theme);
    const parts = alertEmailParts(base, r, theme, {
      kind: 'each',
      at: e.created_at,
      response: summaries.get(e.resource_id ?? ''),
    });
    for (const p of people.get(r.survey_id)!)
      out.push({ eventId: e.id, email: alertEmail(ids[next++], r, p, parts) });
  }
  return out;
}

function alertEmail(
  id: string,
  r: AlertSurvey,
  to: Person,
  parts: { subject: string; text: string; html: string },
): NewEmail {
  return { id, ownerId: r.owner_id, to: to.email, ...parts, purpose: 'alert', refId: r.survey_id };
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
  const due = await alertSurveys(deps, 'daily')
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
    const people = count > 0 ? ((await peopleFor(deps, [r])).get(r.survey_id) ?? []) : [];
    const ids = people.length ? await deps.ids.take(people.length) : [];
    const base = accessUrl(deps.config, r.region as Region);
    const parts = people.length
      ? alertEmailParts(base, r, await surveyEmailTheme(deps, r.survey_id, base), { kind: 'daily', count })
      : null;
    const sent = await deps.db.kysely.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('survey_alerts')
        .set({ digest_since: nowIso })
        .where('survey_id', '=', r.survey_id)
        .where('digest_since', '=', r.digest_since)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0 || parts === null) return false;
      for (const [i, p] of people.entries()) await queueEmail(deps, trx, alertEmail(ids[i], r, p, parts));
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
