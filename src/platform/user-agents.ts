// A browser's User-Agent header in words ("Chrome on macOS"), for the list of signed-in sessions.
// Parsed by bowser (a maintained, MIT-licensed parser) rather than by hand-kept patterns.
import Bowser from 'bowser';

/** The longest User-Agent kept with a session (real ones are a few hundred characters). */
export const MAX_USER_AGENT = 512;

/** "Browser on system", one of the two when the other is unknown, or "Unknown browser". */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Unknown browser';
  let browser = '';
  let os = '';
  try {
    const parsed = Bowser.parse(userAgent);
    browser = parsed.browser.name ?? '';
    os = parsed.os.name ?? '';
  } catch {
    // bowser throws only for an empty string (checked above); an odd header is shown as unknown
  }
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Unknown browser on ${os}`;
  return 'Unknown browser';
}
