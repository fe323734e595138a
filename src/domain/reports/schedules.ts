// Scheduled summaries' settings: per survey, its owner asks for a weekly email (a weekday) or a
// monthly one (a day of the month), at an hour in an IANA time zone; `next_send_at` is the next
// such time in UTC. The page (web/analyze/report-schedule.ts) and the API extension
// (api/v3/surveys/report-schedule.ts) both set it here; the worker sends it (summaries.ts).
import type { Selectable } from 'kysely';
import type { Deps } from '../../context.js';
import type { ReportSchedulesTable } from '../../db/tables/reports.js';
import { ApiError } from '../../platform/errors.js';
import { isOneOf } from '../../platform/lists.js';
import { isTimeZone } from '../../platform/time-zones.js';
import { nextSendAt, type ScheduleRule } from './schedule-times.js';

export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface ReportScheduleInput {
  frequency: string;
  /** weekly: 0 (Sunday) … 6 */
  weekday?: number | null;
  /** monthly: 1 … 31 (a shorter month: its last day) */
  day_of_month?: number | null;
  /** 0 … 23, local */
  hour: number;
  time_zone: string;
}

export interface ReportSchedule extends ScheduleRule {
  surveyId: string;
  nextSendAt: string;
  lastSentAt: string | null;
  dateCreated: string;
  dateModified: string;
}

export function ruleOf(row: Selectable<ReportSchedulesTable>): ScheduleRule {
  return {
    frequency: row.frequency === 'monthly' ? 'monthly' : 'weekly',
    weekday: row.weekday,
    dayOfMonth: row.day_of_month,
    hour: row.hour,
    timeZone: row.time_zone,
  };
}

const present = (row: Selectable<ReportSchedulesTable>): ReportSchedule => ({
  ...ruleOf(row),
  surveyId: row.survey_id,
  nextSendAt: row.next_send_at,
  lastSentAt: row.last_sent_at,
  dateCreated: row.date_created,
  dateModified: row.date_modified,
});

/** The survey's schedule, or null when it has none. */
export async function reportScheduleOf(deps: Deps, surveyId: string): Promise<ReportSchedule | null> {
  const row = await deps.db.kysely
    .selectFrom('report_schedules')
    .selectAll()
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  return row ? present(row) : null;
}

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The rule `input` asks for, or 400/1002 naming the wrong field. */
export function checkSchedule(input: ReportScheduleInput): ScheduleRule {
  if (!isOneOf(REPORT_FREQUENCIES, input.frequency))
    throw new ApiError(1002, `frequency: one of ${REPORT_FREQUENCIES.join(', ')}.`);
  if (!isInt(input.hour, 0, 23)) throw new ApiError(1002, 'hour: a whole number from 0 to 23.');
  if (typeof input.time_zone !== 'string' || !isTimeZone(input.time_zone))
    throw new ApiError(1002, 'time_zone: an IANA time zone name, such as Europe/Berlin.');
  const weekly = input.frequency === 'weekly';
  if (weekly && !isInt(input.weekday, 0, 6))
    throw new ApiError(1002, 'weekday: 0 (Sunday) to 6 (Saturday) for a weekly summary.');
  if (!weekly && !isInt(input.day_of_month, 1, 31))
    throw new ApiError(1002, 'day_of_month: 1 to 31 for a monthly summary.');
  return {
    frequency: input.frequency,
    weekday: weekly ? (input.weekday ?? null) : null,
    dayOfMonth: weekly ? null : (input.day_of_month ?? null),
    hour: input.hour,
    timeZone: input.time_zone,
  };
}

function ownerOnly(userId: string, survey: { owner_id: string }): void {
  if (userId !== survey.owner_id)
    throw new ApiError(1016, "Scheduled summaries go to the survey's owner; only the owner can change them.");
}

/** Sets the survey's scheduled summary (replacing any): only its owner (403/1016 otherwise). The
 * first is due at the next time the rule falls. */
export async function setReportSchedule(
  deps: Deps,
  userId: string,
  survey: { id: string; owner_id: string },
  input: ReportScheduleInput,
): Promise<ReportSchedule> {
  ownerOnly(userId, survey);
  const rule = checkSchedule(input);
  const now = deps.clock.now().toISOString();
  const fields = {
    frequency: rule.frequency,
    weekday: rule.weekday,
    day_of_month: rule.dayOfMonth,
    hour: rule.hour,
    time_zone: rule.timeZone,
    next_send_at: nextSendAt(rule, now),
    date_modified: now,
  };
  await deps.db.kysely
    .insertInto('report_schedules')
    .values({
      survey_id: survey.id,
      owner_id: survey.owner_id,
      last_sent_at: null,
      date_created: now,
      ...fields,
    })
    .onConflict((oc) => oc.column('survey_id').doUpdateSet(fields))
    .execute();
  const saved = await reportScheduleOf(deps, survey.id);
  if (!saved) throw new ApiError(1020);
  return saved;
}

/** Stops the survey's scheduled summary (only its owner); whether there was one. */
export async function deleteReportSchedule(
  deps: Deps,
  userId: string,
  survey: { id: string; owner_id: string },
): Promise<boolean> {
  ownerOnly(userId, survey);
  const r = await deps.db.kysely
    .deleteFrom('report_schedules')
    .where('survey_id', '=', survey.id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
