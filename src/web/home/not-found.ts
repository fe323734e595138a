// The HTML "page not found" answer for paths outside the API (the API keeps its JSON 404/1020),
// and the same page for a survey the signed-in user may not see.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../account/frame.js';
import { html } from '../html.js';
import { page } from '../layout.js';

export function notFoundPage(
  reply: FastifyReply,
  message = 'There is nothing at this address.',
): FastifyReply {
  return sendPage(
    reply,
    page(
      'Page not found',
      html`<h1>Page not found</h1>
<p>${message}</p>
<p>Check the address, or go to:</p>
<ul>
<li><a href="/">Your surveys</a></li>
<li><a href="/docs">API documentation</a></li>
<li><a href="/apps">App directory</a></li>
</ul>`,
    ),
    404,
  );
}

/** The not-found handler's answer for non-API paths (installHttpConventions' `pageNotFound`). */
export function pageNotFound(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return notFoundPage(reply);
}
