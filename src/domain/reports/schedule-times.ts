// When a scheduled summary is due: the next (or previous) local time matching its rule (a weekday,
// or a day of the month, at an hour) in its IANA time zone, as a UTC instant. Computed on local
// calendar dates, so 09:00 stays 09:00 across a daylight-saving change; a day of the month a month
// lacks (31 in April) is that month's last day. An hour a spring-forward skips is the next hour
// that exists.
import { localTime, utcOfLocal } from '../../platform/time-zones.js';

export interface ScheduleRule {
  frequency: 'weekly' | 'monthly';
  /** weekly: 0 (Sunday) … 6 */
  weekday: number | null;
  /** monthly: 1 … 31 */
  dayOfMonth: number | null;
  hour: number;
  timeZone: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const daysIn = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

/** The UTC instant of the rule's hour on a local calendar date. */
function at(rule: ScheduleRule, day: Date): string {
  return utcOfLocal(`${dateText(day)}T${pad(rule.hour)}:00`, rule.timeZone) ?? day.toISOString();
}

/** The rule's local days around `iso`, nearest first, in `direction`. */
function* candidates(rule: ScheduleRule, iso: string, direction: 1 | -1): Generator<Date> {
  const [y, m, d] = localTime(iso, rule.timeZone).slice(0, 10).split('-').map(Number);
  if (rule.frequency === 'weekly') {
    for (let i = 0; i <= 8; i++) {
      const day = new Date(Date.UTC(y, m - 1, d + direction * i));
      if (day.getUTCDay() === rule.weekday) yield day;
    }
    return;
  }
  for (let i = 0; i <= 2; i++) {
    const first = new Date(Date.UTC(y, m - 1 + direction * i, 1));
    const year = first.getUTCFullYear();
    const month = first.getUTCMonth();
    yield new Date(Date.UTC(year, month, Math.min(rule.dayOfMonth ?? 1, daysIn(year, month))));
  }
}

/** The first time the rule falls strictly after `iso`. */
export function nextSendAt(rule: ScheduleRule, iso: string): string {
  for (const day of candidates(rule, iso, 1)) {
    const t = at(rule, day);
    if (t > iso) return t;
  }
  throw new Error('no next time for the schedule');
}

/** The last time the rule fell strictly before `iso` (where a period ending at `iso` began). */
export function previousSendAt(rule: ScheduleRule, iso: string): string {
  for (const day of candidates(rule, iso, -1)) {
    const t = at(rule, day);
    if (t < iso) return t;
  }
  throw new Error('no previous time for the schedule');
}
