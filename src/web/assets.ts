// Static files of the pages under /assets: the one stylesheet and script of public/, and the
// browser libraries pages enhance with (htmx for partial updates, SortableJS for drag and drop,
// @simplewebauthn/browser for passkeys),
// served from their installed packages so their versions are the lockfile's.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { PACKAGE_ROOT } from '../platform/version.js';
import type { PageApp } from './page-area.js';
import { pagePlugin } from './page-area.js';

const require = createRequire(import.meta.url);
const PUBLIC_DIR = join(PACKAGE_ROOT, 'public');
const VENDOR = [
  { prefix: '/assets/vendor/htmx/', root: dirname(require.resolve('htmx.org')), file: 'htmx.min.js' },
  {
    prefix: '/assets/vendor/sortable/',
    root: dirname(require.resolve('sortablejs')),
    file: 'Sortable.min.js',
  },
  {
    prefix: '/assets/vendor/simplewebauthn/',
    // the package exports only its modules: its bundle sits beside them, in dist/bundle
    root: join(dirname(require.resolve('@simplewebauthn/browser')), '../dist/bundle'),
    file: 'index.umd.min.js',
  },
];

/** The scripts pages may ask `page()` for. */
export const SCRIPTS = {
  htmx: '/assets/vendor/htmx/htmx.min.js',
  sortable: '/assets/vendor/sortable/Sortable.min.js',
  /** @simplewebauthn/browser (passkeys), as the global SimpleWebAuthnBrowser */
  webauthn: '/assets/vendor/simplewebauthn/index.umd.min.js',
} as const;

async function assetRoutes(app: PageApp): Promise<void> {
  const common = { maxAge: '1h', index: false, list: false, dotfiles: 'deny', schemaHide: true } as const;
  await app.register(fastifyStatic, { ...common, root: PUBLIC_DIR, prefix: '/assets/' });
  // The embed script's short public address, for other sites' <script> tags (docs/look-embed-share.md).
  app.get('/embed.js', { schema: { hide: true } }, (_request, reply) =>
    reply.sendFile('embed.js', { maxAge: '1h' }),
  );
  // Browsers and crawlers ask for /favicon.ico whatever the pages link: the same icon, as SVG.
  app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) =>
    reply.type('image/svg+xml').sendFile('favicon.svg', { maxAge: '1d' }),
  );
  // Only the one minified file of each package is public, not the rest of node_modules.
  for (const v of VENDOR)
    await app.register(fastifyStatic, {
      ...common,
      root: v.root,
      prefix: v.prefix,
      decorateReply: false,
      allowedPath: (path) => path === `/${v.file}`,
    });
}

export const assets = pagePlugin('page-assets', assetRoutes);
