// The email collector behind a messages/recipients path, for reading or writing.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../context.js';
import type { Collector } from '../../../domain/collectors/collectors.js';
import { emailCollectorFor } from '../../../domain/invitations/messages.js';
import { accessUrl } from '../../../platform/regions.js';

/** The email collector if the caller may use it (the rules: emailCollectorFor). */
export function emailCollector(
  deps: Deps,
  request: FastifyRequest,
  collectorId: string,
  level: 'read' | 'write',
): Promise<Collector> {
  return emailCollectorFor(deps, request.auth, collectorId, level);
}

/** Where personal links point: the account's regional public URL (as in the emails). */
export function linkBase(deps: Deps, request: FastifyRequest): string {
  return accessUrl(deps.config, request.auth.user.region);
}
