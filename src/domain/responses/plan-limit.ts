// The basic plan's response limit, the one rule the API and the pages share: a free account reads
// the first FREE_RESPONSE_DETAIL_LIMIT responses of a survey (by ordinal, the order they arrived).
// The API refuses anything beyond with 402/1005 (rollups refuse a survey that has more, since they
// could not count it whole); the pages show and count only what the plan may read.

import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { FREE_RESPONSE_DETAIL_LIMIT, isPaid, type Plan } from '../../platform/plans.js';
import { listResponses, type ResponseFilters } from './responses.js';

/** The highest ordinal a plan may read, or undefined when it may read every response. */
export function readableUpTo(paid: boolean): number | undefined {
  return paid ? undefined : FREE_RESPONSE_DETAIL_LIMIT;
}

/** Throws 402/1005 unless the plan may read every one of `rows`. */
export function assertResponsesReadable(paid: boolean, rows: Array<{ ordinal: number }>): void {
  const upTo = readableUpTo(paid);
  if (upTo !== undefined && rows.some((r) => r.ordinal > upTo))
    throw new ApiError(
      1005,
      `The basic plan reads the first ${FREE_RESPONSE_DETAIL_LIMIT} responses of a survey on response-detail endpoints.`,
    );
}

/** Throws 402/1005 when the survey has more responses than the plan may read (API rollups and trends). */
export function assertAllResponsesReadable(paid: boolean, survey: { response_count: number }): void {
  const upTo = readableUpTo(paid);
  if (upTo !== undefined && survey.response_count > upTo)
    throw new ApiError(
      1005,
      `The basic plan reads the first ${FREE_RESPONSE_DETAIL_LIMIT} responses of a survey; this survey has more.`,
    );
}

/** `f` narrowed to the responses the plan may read (the analyze pages). */
export function readableFilters(plan: Plan, f: ResponseFilters): ResponseFilters {
  const upTo = readableUpTo(isPaid(plan));
  return upTo === undefined ? f : { ...f, maxOrdinal: upTo };
}

/** How many of the survey's responses the plan cannot read (shown as a notice on the pages). */
export function hiddenByPlan(plan: Plan, survey: { response_count: number }): number {
  const upTo = readableUpTo(isPaid(plan));
  return upTo === undefined ? 0 : Math.max(0, survey.response_count - upTo);
}

/** How many rows of the list `f` (in its order) come before the first response the plan cannot
 * read, or null when there is none: list links stop there. Only `upTo` rows can be readable, so
 * the answer is among the first `upTo + 1`. */
export async function readableRowsBefore(
  deps: Deps,
  paid: boolean,
  f: ResponseFilters,
  total: number,
): Promise<number | null> {
  const upTo = readableUpTo(paid);
  if (upTo === undefined) return null;
  const [, rows] = await listResponses(deps, f, 0, upTo + 1, 'ids', total);
  const at = rows.findIndex((r) => r.ordinal > upTo);
  return at === -1 ? null : at;
}
