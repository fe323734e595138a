// Pages for the person at the machine (the mail outbox): a loopback peer is not enough, since a
// web page can rebind its own DNS name to 127.0.0.1 and then read these pages from the browser
// with its own name in the Host header. So the Host must be a loopback name as well, no proxy may
// have relayed the request, and the answer is not cached (nor framed: http/security-headers.ts).
// Anyone else gets a 404.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../platform/hosts.js';
import { sendPage } from './account/frame.js';
import { html } from './html.js';
import { page } from './layout.js';

const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function isLocalRequest(request: FastifyRequest): boolean {
  const h = request.headers;
  if (h['x-forwarded-for'] || h['x-forwarded-host'] || h.forwarded || h['x-real-ip']) return false;
  return LOOPBACK_PEER.test(request.socket.remoteAddress ?? '') && isLoopbackHost(h.host);
}

/** A preHandler for local-only routes: others get a 404; nothing is cached (framing is refused for every page). */
export async function localOnly(request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  if (isLocalRequest(request)) return;
  return sendPage(reply, page('Not found', html`<h1>Not found</h1>`), 404);
}
