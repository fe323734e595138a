import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { SurveyRow } from '../../domain/surveys/access.js';
import {
  checkTheme,
  type Theme,
  type ThemeFields,
  themeById,
  themeCss,
  themeLogo,
  themeOfSurvey,
  themePaths,
} from '../../domain/themes/themes.js';
import { type Html, html } from '../html.js';
import type { PageApp } from '../page-area.js';

const HEX = /^[0-9a-f]{6}$/;

function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The colour, darkened as little as needed for 4.5:1 against white. */
export function accessibleAccent(hex: string): string {
  let rgb = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  while (1.05 / (luminance(rgb) + 0.05) < 4.5) rgb = rgb.map((c) => Math.floor(c * 0.92));
  return rgb.map((c) => c.toString(16).padStart(2, '0')).join('');
}

export function themeStylesheet(color: string): string {
  return `/r/theme/${color.replace('#', '').toLowerCase()}.css`;
}

export async function themeRoutes(app: PageApp): Promise<void> {
  app.get<{ Params: { file: string } }>(
    '/r/theme/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const m = /^([0-9a-f]{6})\.css$/.exec(request.params.file);
      if (!m || !HEX.test(m[1])) return reply.code(404).type('text/plain').send('Not found');
      const accent = accessibleAccent(m[1]);
      return reply
        .type('text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(
          `:root { --accent: #${accent}; --accent-soft: #${accent}14; }\nheader.respondent { border-bottom: 4px solid #${accent}; }\n`,
        );
    },
  );
}

/** A survey as the respondent pages show it: with its theme when it has one. */
export type Themed = SurveyRow & { look?: Theme };

/** The survey with its theme (one query, only when theme_id is set). */
export async function withTheme(deps: Deps, survey: SurveyRow): Promise<Themed> {
  const look = survey.theme_id ? await themeOfSurvey(deps, survey) : undefined;
  return look ? { ...survey, look } : survey;
}

/** The stylesheets and logo of a respondent page: the theme's, else the older theme_color and logo_url. */
export function lookOf(survey: Themed | undefined): { styles: string[]; logoUrl: string | null } {
  if (survey?.look) {
    const paths = themePaths(survey.look);
    return { styles: [paths.stylesheet], logoUrl: paths.logo ?? survey.logo_url };
  }
  return {
    styles: survey?.theme_color ? [themeStylesheet(survey.theme_color)] : [],
    logoUrl: survey?.logo_url ?? null,
  };
}

/** Open Graph and Twitter card tags, so a shared link previews with the survey's title and logo. */
export function shareTags(survey: Themed, pageUrl: string, base: string): Html {
  const logo = lookOf(survey).logoUrl;
  const image = logo ? (logo.startsWith('/') ? `${base}${logo}` : logo) : null;
  const description = 'A survey: your answers help. It takes a few minutes.';
  return html`<meta name="description" content="${description}">
<meta property="og:type" content="website">
<meta property="og:title" content="${survey.title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${pageUrl}">
${image ? html`<meta property="og:image" content="${image}">\n` : ''}<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="${survey.title}">
<meta name="twitter:description" content="${description}">
${image ? html`<meta name="twitter:image" content="${image}">` : ''}`;
}

/** The builder's sample stylesheet for unsaved fields (short names keep the URL small). */
export function previewStylesheet(f: ThemeFields): string {
  const q = new URLSearchParams({
    p: f.primary_color.slice(1),
    b: f.background_color.slice(1),
    t: f.text_color.slice(1),
    f: f.font,
    s: f.button_shape,
  });
  return `/r/theme-preview.css?${q}`;
}

/** The theme's stylesheet and logo, public like the respondent pages, cached for good by version. */
export async function themedRoutes(app: PageApp, deps: Deps): Promise<void> {
  const Params = Type.Object({
    id: Type.String({ pattern: '^[0-9]{1,20}$' }),
    v: Type.String({ pattern: '^[0-9a-z]{1,12}$' }),
  });
  const forever = 'public, max-age=31536000, immutable';
  app.get<{ Querystring: Record<string, string> }>(
    '/r/theme-preview.css',
    { schema: { hide: true } },
    async (request, reply) => {
      const q = request.query;
      let fields: ThemeFields;
      try {
        fields = checkTheme({
          primary_color: `#${q.p}`,
          background_color: `#${q.b}`,
          text_color: `#${q.t}`,
          font: q.f,
          button_shape: q.s,
        });
      } catch {
        return reply.code(404).type('text/plain').send('Not found');
      }
      return reply
        .type('text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(themeCss(fields, '.theme-preview'));
    },
  );
  const find = async (id: string, v: string) => {
    const theme = await themeById(deps, id);
    return theme && themePaths(theme).stylesheet.endsWith(`/${v}.css`) ? theme : undefined;
  };
  app.get<{ Params: { id: string; file: string } }>(
    '/r/themes/:id/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const m = /^([0-9a-z]{1,12})\.css$/.exec(request.params.file);
      const theme =
        m && /^[0-9]{1,20}$/.test(request.params.id) ? await find(request.params.id, m[1]) : undefined;
      if (!theme) return reply.code(404).type('text/plain').send('Not found');
      return reply.type('text/css; charset=utf-8').header('cache-control', forever).send(themeCss(theme));
    },
  );
  app.get<{ Params: { id: string; v: string } }>(
    '/r/themes/:id/:v/logo',
    { schema: { hide: true, params: Params } },
    async (request, reply) => {
      const theme = await find(request.params.id, request.params.v);
      const logo = theme && (await themeLogo(deps, theme));
      if (!logo) return reply.code(404).type('text/plain').send('Not found');
      return reply.type(logo.type).header('cache-control', forever).send(logo.body);
    },
  );
}
