// Public documentation pages: the interactive API reference (Swagger UI over /v3/openapi.json)
// and the error catalogue that every error body's `docs` URL points into.
import swaggerUi from '@fastify/swagger-ui';
import { errorCatalogue } from '../platform/errors.js';
import { sendPage } from './account/frame.js';
import { html } from './html.js';
import { page } from './layout.js';
import type { PageApp } from './page-area.js';
import { pagePlugin } from './page-area.js';

async function docsRoutes(app: PageApp): Promise<void> {
  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) => {
    const rows = [...errorCatalogue.values()].map(
      (e) =>
        html`<tr id="${e.id}"><td><code>${e.id}</code></td><td>${e.status}</td><td>${e.name}</td><td>${e.message}</td></tr>`,
    );
    const body = html`<h1>Error codes</h1>
<p>Every failed API request answers with <code>{"error": {"id", "name", "message", "docs", "http_status_code"}}</code>.
A revoked token answers <code>{"status": 1, "errmsg": "Client revoked access grant"}</code> instead.</p>
<table><caption class="muted">The catalogue, also at <code>GET /v3/errors</code></caption>
<thead><tr><th scope="col">Code</th><th scope="col">HTTP status</th><th scope="col">Name</th><th scope="col">Meaning</th></tr></thead>
<tbody>${rows}</tbody></table>`;
    return sendPage(reply, page('Error codes', body), 200, { cacheable: true });
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}

export const docsPages = pagePlugin('docs-pages', docsRoutes);
