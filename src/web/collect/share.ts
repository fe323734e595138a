// Sharing a web link collector, on the collect page: its QR code (SVG for screens, PNG for print,
// at `{collector url}/qr.svg` and `/qr.png`) with download buttons, the snippets that put the
// survey on another site (embed.js inline or as a popup, or a plain iframe without script), and
// the origins allowed to frame it (the collector's `embed_origins`, the same rule as the API's).
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { type Collector, requireCollector, updateCollector } from '../../domain/collectors/collectors.js';
import { entryByToken } from '../../domain/collectors/entry.js';
import { ApiError } from '../../platform/errors.js';
import {
  errorFor,
  type FormErrorState,
  formText,
  hidden,
  invalidIf,
  type ManagedPage,
  managedFormPost,
} from '../forms.js';
import { type Html, html, raw } from '../html.js';
import type { PageApp } from '../page-area.js';
import { qrcode } from '../qr.js';

type State = FormErrorState & { notice?: string; form?: Record<string, string | undefined> };

/** The collector's share section: QR code, embed snippets and, for writers, its allowed origins. */
export function shareSection(
  c: Collector,
  url: string,
  base: string,
  options: { at: string; csrf: string; writable: boolean; action: string; state: State },
): Html {
  const { at, state } = options;
  const origins =
    state.errorAt === at && state.form?.embed_origins !== undefined
      ? state.form.embed_origins
      : (c.options.embed_origins ?? []).join('\n');
  const inline = `<script src="${base}/embed.js" data-survey="${url}" async></script>`;
  const popup = `<script src="${base}/embed.js" data-survey="${url}" data-mode="popup" data-button="Take our survey" async></script>`;
  const frame = `<iframe src="${url}" title="Survey" width="100%" height="700" style="border:0"></iframe>`;
  const snippet = (id: string, label: string, text: string) =>
    html`<label for="${at}-${id}">${label}</label><textarea id="${at}-${id}" class="copy snippet" rows="3" readonly>${text}</textarea>`;
  return html`<details class="share"${state.errorAt === at && state.form?.embed_origins !== undefined ? raw(' open') : ''}><summary>QR code and embedding of ${c.name}</summary>
<div class="share-grid">
<figure class="qr"><img src="${url}/qr.svg" width="200" height="200" alt="QR code of the link ${url}">
<figcaption><a class="button secondary" href="${url}/qr.svg" download="survey-qr.svg">Download SVG</a> <a class="button secondary" href="${url}/qr.png" download="survey-qr.png">Download PNG (print)</a></figcaption></figure>
<div class="embed">
${snippet('inline', 'Inline in a page (script)', inline)}
${snippet('popup', 'A button that opens it as a popup (script; data-mode="slide-in" slides it in, data-delay="10" opens it after 10 seconds)', popup)}
${snippet('iframe', 'Without script (iframe)', frame)}
<p class="muted">Other sites may show the survey only if their origin is listed below; browsers refuse the frame otherwise. Inside a frame, a browser that blocks third-party cookies may refuse to keep the respondent's answers: the survey then offers to open in its own window.</p>
${
  options.writable
    ? html`<form method="post" action="${options.action}">${hidden(options.csrf)}
${state.form?.embed_origins !== undefined ? errorFor(state, at) : ''}
<label for="${at}-origins">Sites allowed to show the survey (one origin a line, like https://www.example.com)</label>
<textarea id="${at}-origins" name="embed_origins" rows="3"${invalidIf(state, at)}>${origins}</textarea>
<p><button type="submit">Save allowed sites</button></p>
</form>`
    : html`<p>Sites allowed to show the survey: ${origins || 'none'}.</p>`
}
</div></div></details>`;
}

/** The QR code routes and the allowed-origins form of the collect page. */
export async function shareRoutes(app: PageApp, deps: Deps, page: ManagedPage<State>): Promise<void> {
  const Params = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9]{6,40}$' }) });
  async function linkOf(request: FastifyRequest, token: string): Promise<string | undefined> {
    const c = (await entryByToken(deps, token))?.collector;
    if (c?.type !== 'weblink') return undefined;
    return `${request.protocol}://${request.host}/r/${token}`;
  }
  const day = 'public, max-age=86400';
  app.get('/r/:token/qr.svg', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const link = await linkOf(request, request.params.token);
    if (!link) return reply.code(404).type('text/plain').send('Not found');
    const svg = await (await qrcode()).toString(link, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    return reply.type('image/svg+xml').header('cache-control', day).send(svg);
  });
  app.get('/r/:token/qr.png', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const link = await linkOf(request, request.params.token);
    if (!link) return reply.code(404).type('text/plain').send('Not found');
    // 1200 px: about 10 cm at 300 dpi, enough for print.
    const png = await (await qrcode()).toBuffer(link, {
      type: 'png',
      width: 1200,
      margin: 2,
      errorCorrectionLevel: 'M',
    });
    return reply.type('image/png').header('cache-control', day).send(png);
  });

  managedFormPost(app, deps, page, {
    path: '/collect/collectors/:collectorId/embed',
    params: Type.Object({ collectorId: Type.String({ pattern: '^[0-9]{1,20}$' }) }),
    body: { embed_origins: formText(10_000) },
    failed: (request, error: ApiError) => ({
      error,
      errorAt: `c-${request.params.collectorId}`,
      form: request.body,
    }),
    action: async (request, survey, actor) => {
      const { collectorId } = request.params;
      const { collector: c } = await requireCollector(
        deps,
        { user: actor.user },
        collectorId,
        'collect',
        'write',
      );
      if (c.survey_id !== survey.id) throw new ApiError(1020, 'Collector not found.');
      const list = (request.body.embed_origins ?? '').split(/[\s,]+/).filter(Boolean);
      await updateCollector(deps, actor, c, { embed_origins: list }, undefined, 'patch');
      return { done: 'embed', anchor: `c-${collectorId}` };
    },
  });
}
