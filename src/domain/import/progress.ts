// An import's progress as its pages, the API and the CLI show it: what the source holds, what is
// copied, and the requests (and days, at the job's budget) the rest needs.
import { type ImportJob, nextUtcMidnight, remainingToday } from './jobs.js';

/** The phases of a pass, in order (the cursor names those done). */
export const PHASES = ['fields', 'lists', 'contacts', 'folders', 'surveys', 'responses'] as const;
/** Responses per bulk page read from the source. */
export const BULK = 100;

/** What the source holds and what this import has copied so far (over every run). */
export interface Progress {
  phase: string;
  copied: Record<string, number>;
  totals: { surveys: number; responses: number; contacts: number };
  /** Responses of the source already here (copied in this or earlier runs). */
  responsesHere: number;
  requestsToday: number;
  dailyBudget: number;
  requestsTotal: number;
  /** Requests the rest of the import needs (an estimate), and the time that takes at the budget. */
  requestsLeft: number;
  etaSeconds: number;
}

/** Progress at the job's budget: the requests still needed and the days they take. */
export function progressOf(
  job: Pick<ImportJob, 'budget_day' | 'budget_used' | 'daily_budget' | 'requests_total'>,
  phase: string,
  copied: Record<string, number>,
  totals: Progress['totals'],
  responsesHere: number,
  pendingRequests: number,
  now: Date,
): Progress {
  // Per survey still to copy: its details, its collectors and (assumed) one collector.
  const surveysLeft = ['done', 'responses'].includes(phase)
    ? 0
    : Math.max(0, totals.surveys - (copied.surveys ?? 0)) * 3;
  const left =
    phase === 'done'
      ? 0
      : Math.max(0, pendingRequests + surveysLeft + Math.ceil((totals.responses - responsesHere) / BULK));
  const remaining = remainingToday(job, now);
  // Within today's budget at the pace so far is unknown; past it, whole days at the budget.
  const etaSeconds =
    left <= remaining
      ? 0
      : Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000) +
        Math.floor((left - remaining - 1) / Math.max(1, job.daily_budget)) * 86_400;
  return {
    phase,
    copied: { ...copied },
    totals: { ...totals },
    responsesHere,
    requestsToday: job.daily_budget - remaining,
    dailyBudget: job.daily_budget,
    requestsTotal: job.requests_total,
    requestsLeft: left,
    etaSeconds,
  };
}
