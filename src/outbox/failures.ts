// Accounting for every delivery attempt of the outbox: a counter per kind and outcome
// (survey_outbox_attempts_total, which deploy/alerts.yml watches), and a warn line for each failed
// one with its reason, so an SMTP server or a receiver that keeps refusing shows in the logs at
// the default level, not only once its retry window has run out.
import type { Deps } from '../context.js';

export type AttemptKind = 'deliveries' | 'emails';

/** An error as it may be shown to an operator: the user name and password of any URL in it
 * masked, its query dropped (a URL can carry a token there), and kept short. */
export function shownError(error: string | null): string | null {
  if (error === null) return null;
  const masked = error
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1****@')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#][^\s]*/gi, '$1');
  return masked.length > 300 ? `${masked.slice(0, 299)}…` : masked;
}

/** Counts one finished attempt and logs a failed one (retry: it will be tried again; failed: given up). */
export function noteAttempt(
  deps: Deps,
  kind: AttemptKind,
  id: string,
  attempt: number,
  outcome: string,
  error: string | null,
): void {
  deps.metrics.outboxAttempts.inc({ kind, outcome });
  if (outcome === 'retry' || outcome === 'failed')
    deps.log.warn(
      { kind, id, attempt, outcome, error: shownError(error) },
      outcome === 'retry'
        ? `outbox: ${kind} attempt failed, will retry`
        : `outbox: ${kind} attempt failed, giving up`,
    );
}
