// The date formats of the public API (reference §1.1). Dates are stored as ISO-8601 UTC instants
// and formatted per resource on the way out.

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** What Date#toISOString writes, the form every stored date has: sliced, no Date needed. */
const STORED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function parts(iso: string | Date) {
  if (typeof iso === 'string' && STORED.test(iso))
    return { date: iso.slice(0, 10), time: iso.slice(11, 19), ms: iso.slice(20, 23) };
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return { date, time, ms: pad(d.getUTCMilliseconds(), 3) };
}

/** `2026-11-21T05:24:31+00:00` (responses, collectors, messages, groups, members). */
export function withOffset(iso: string | Date): string {
  const { date, time } = parts(iso);
  return `${date}T${time}+00:00`;
}

/** `2026-11-21T05:24:31` (workgroups, shares, roles). */
export function noOffset(iso: string | Date): string {
  const { date, time } = parts(iso);
  return `${date}T${time}`;
}

/** `2026-11-21T05:24:00` (surveys: minute precision, no offset). */
export function minuteNoOffset(iso: string | Date): string {
  const { date, time } = parts(iso);
  return `${date}T${time.slice(0, 5)}:00`;
}

/** `2026-11-21T05:24:31.397000+00:00` (users/me date_last_login, webhook event_datetime). */
export function micro(iso: string | Date): string {
  const { date, time, ms } = parts(iso);
  return `${date}T${time}.${ms}000+00:00`;
}

/** `2026-11-21 05:24:31` (group activities). */
export function spaced(iso: string | Date): string {
  const { date, time } = parts(iso);
  return `${date} ${time}`;
}

/**
 * Parses a date query or body value: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` with or without fractional
 * seconds, and with or without `Z` or an offset (no offset = UTC). Returns an ISO instant or null.
 */
export function parseApiDate(value: string): string | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      value,
    );
  if (!m) return null;
  const [, y, mo, da, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const offset = zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = frac ? frac.slice(0, 4).padEnd(4, '0') : '';
  const d = new Date(`${y}-${mo}-${da}T${h}:${mi}:${s}${ms}${offset}`);
  if (Number.isNaN(d.getTime())) return null;
  // Reject impossible calendar dates that Date would roll over (2026-02-31).
  if (zone === 'Z' && (d.getUTCDate() !== Number(da) || d.getUTCMonth() + 1 !== Number(mo))) return null;
  return d.toISOString();
}
