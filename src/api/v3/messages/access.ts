// The email collector behind a messages/recipients path, for reading or writing.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../context.js';
import { type Collector, requireCollector } from '../../../domain/collectors/collectors.js';
import { requireEmailCollector } from '../../../domain/invitations/messages.js';
import { ApiError } from '../../../platform/errors.js';
import { isPaid } from '../../../platform/plans.js';
import { accessUrl } from '../../../platform/regions.js';

/**
 * The collector if the caller may use it (404/1020 otherwise, also for non-email collectors).
 * Writing needs a paid plan: email invitations are not part of the basic plan (403/1015).
 */
export async function emailCollector(
  deps: Deps,
  request: FastifyRequest,
  collectorId: string,
  level: 'read' | 'write',
): Promise<Collector> {
  if (level === 'write' && !isPaid(request.auth.plan))
    throw new ApiError(1015, 'Email invitations need a paid plan; the basic plan has weblink collectors.');
  const { collector } = await requireCollector(deps, request.auth, collectorId, 'collect', level);
  requireEmailCollector(collector);
  return collector;
}

/** Where personal links point: the account's regional public URL (as in the emails). */
export function linkBase(deps: Deps, request: FastifyRequest): string {
  return accessUrl(deps.config, request.auth.user.region);
}
