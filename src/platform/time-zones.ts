// Times in an account's time zone: pages show stored UTC instants in it and read the local times
// people type (a datetime-local field) back into UTC. dayjs's timezone plugin over Intl.
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The IANA names this runtime knows, for a picker (UTC first). */
export function timeZoneNames(): string[] {
  const names = Intl.supportedValuesOf('timeZone').filter((n) => n !== 'UTC');
  return ['UTC', ...names];
}

/** Whether `name` is a time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DD HH:mm` of a UTC instant in `zone`. */
export function localTime(iso: string, zone: string): string {
  return dayjs(iso).tz(zone).format('YYYY-MM-DD HH:mm');
}

/** The UTC instant (ISO) of a wall-clock time `YYYY-MM-DDTHH:mm[:ss]` in `zone`, or null if malformed. */
export function utcOfLocal(local: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return null;
  const d = dayjs.tz(local, zone);
  return d.isValid() ? d.toDate().toISOString() : null;
}
