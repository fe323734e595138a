// A survey's look: primary colour, background, text colour, a font from a short list of system
// font stacks (nothing is fetched from a font host), a button shape and a logo. One row per
// survey (`themes`), named by the survey's theme_id; a survey without one keeps the default look
// (or its older theme_color extension). Every colour pair a respondent reads is checked against
// WCAG AA (4.5:1) and refused with the field named. Ready themes are presets of the same fields.
import { randomBytes } from 'node:crypto';
import { copyFile, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Selectable, Transaction } from 'kysely';
import type { Deps } from '../../context.js';
import { lockRow } from '../../db/lock.js';
import type { Database } from '../../db/schema.js';
import type { SurveysTable } from '../../db/tables/surveys.js';
import { ApiError } from '../../platform/errors.js';
import { extensionOf, FILE_KINDS } from '../uploads/types.js';
import type { IncomingFile } from '../uploads/uploads.js';

export const FONTS = {
  system: { label: 'System sans-serif', stack: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  humanist: {
    label: 'Humanist sans-serif',
    stack: 'Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", source-sans-pro, sans-serif',
  },
  serif: { label: 'Serif', stack: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, serif' },
  rounded: {
    label: 'Rounded',
    stack:
      'ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", sans-serif',
  },
  monospace: {
    label: 'Monospace',
    stack: 'ui-monospace, "Cascadia Code", Menlo, Consolas, "DejaVu Sans Mono", monospace',
  },
} as const;
export type Font = keyof typeof FONTS;

export const BUTTON_SHAPES = { square: '0', rounded: '8px', pill: '999px' } as const;
export type ButtonShape = keyof typeof BUTTON_SHAPES;

export interface ThemeFields {
  primary_color: string;
  background_color: string;
  text_color: string;
  font: Font;
  button_shape: ButtonShape;
}

export interface Theme extends ThemeFields {
  id: string;
  owner_id: string;
  survey_id: string;
  logo_type: string | null;
  logo_key: string | null;
  updated_at: string;
}

/** Ready themes the builder offers (each passes the contrast check). */
export const READY_THEMES: Record<string, { label: string; fields: ThemeFields }> = {
  classic: {
    label: 'Classic blue',
    fields: {
      primary_color: '#0b5cad',
      background_color: '#ffffff',
      text_color: '#1b1f24',
      font: 'system',
      button_shape: 'rounded',
    },
  },
  forest: {
    label: 'Forest',
    fields: {
      primary_color: '#1e6b3a',
      background_color: '#f4f8f2',
      text_color: '#1c2a1f',
      font: 'humanist',
      button_shape: 'pill',
    },
  },
  paper: {
    label: 'Paper',
    fields: {
      primary_color: '#8a3b12',
      background_color: '#fbf7ef',
      text_color: '#2b2118',
      font: 'serif',
      button_shape: 'square',
    },
  },
  sunrise: {
    label: 'Sunrise',
    fields: {
      primary_color: '#a3283c',
      background_color: '#fff6ee',
      text_color: '#2a1a1c',
      font: 'rounded',
      button_shape: 'pill',
    },
  },
};

/** Image types a logo may be (no SVG: it can carry script), checked by content, not by name. */
const LOGO_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
export const LOGO_MAX_BYTES = 512 * 1024;

const HEX = /^#[0-9a-f]{6}$/;

function luminance(hex: string): number {
  const lin = (i: number) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
}

/** The WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The label colour on a button of `primary`: white or near-black, whichever reads better (always ≥ 4.5:1). */
export function onPrimary(primary: string): string {
  return contrastRatio(primary, '#ffffff') >= contrastRatio(primary, '#111111') ? '#ffffff' : '#111111';
}

const ratio = (n: number) => `${Math.floor(n * 100) / 100}:1`;

/** The fields, normalised, or an error naming the first field that is wrong and why. */
export function checkTheme(input: Record<string, unknown>): ThemeFields {
  const colour = (field: string) => {
    const v = String(input[field] ?? '')
      .trim()
      .toLowerCase();
    if (!HEX.test(v))
      throw new ApiError(
        1002,
        `${field}: a colour is written #rrggbb (six hexadecimal digits), not "${v.slice(0, 20)}".`,
      );
    return v;
  };
  const primary_color = colour('primary_color');
  const background_color = colour('background_color');
  const text_color = colour('text_color');
  const font = String(input.font ?? '');
  if (!(font in FONTS))
    throw new ApiError(
      1002,
      `font: unknown font "${font.slice(0, 40)}"; choose one of ${Object.keys(FONTS).join(', ')}.`,
    );
  const shape = String(input.button_shape ?? '');
  if (!(shape in BUTTON_SHAPES))
    throw new ApiError(
      1002,
      `button_shape: unknown shape "${shape.slice(0, 40)}"; choose one of ${Object.keys(BUTTON_SHAPES).join(', ')}.`,
    );
  const text = contrastRatio(text_color, background_color);
  if (text < 4.5)
    throw new ApiError(
      1002,
      `text_color: its contrast with background_color is ${ratio(text)}; text needs at least 4.5:1 (WCAG AA) to be readable.`,
    );
  const links = contrastRatio(primary_color, background_color);
  if (links < 4.5)
    throw new ApiError(
      1002,
      `primary_color: its contrast with background_color is ${ratio(links)}; links and headings in it need at least 4.5:1 (WCAG AA).`,
    );
  // Answer fields, cards and secondary buttons stay white, with the text and primary colours on them.
  for (const [field, value] of [
    ['text_color', text_color],
    ['primary_color', primary_color],
  ] as const) {
    const onWhite = contrastRatio(value, '#ffffff');
    if (onWhite < 4.5)
      throw new ApiError(
        1002,
        `${field}: its contrast with the white answer fields and cards is ${ratio(onWhite)}; it needs at least 4.5:1 (WCAG AA), so choose a darker colour.`,
      );
  }
  return {
    primary_color,
    background_color,
    text_color,
    font: font as Font,
    button_shape: shape as ButtonShape,
  };
}

/** Why a received logo cannot be kept (naming the field), or null. */
export function logoProblem(file: IncomingFile): string | null {
  const ext = extensionOf(file.name);
  if (file.tooBig || file.size > LOGO_MAX_BYTES)
    return `logo: the image is larger than ${LOGO_MAX_BYTES / 1024} KB.`;
  if (!(LOGO_TYPES as readonly string[]).includes(ext))
    return `logo: choose a PNG, JPEG, GIF or WebP image (not “.${ext}”).`;
  if (!FILE_KINDS[ext as (typeof LOGO_TYPES)[number]].sniff(file.head))
    return `logo: the file is not a ${FILE_KINDS[ext as (typeof LOGO_TYPES)[number]].label} image.`;
  return null;
}

export async function themeById(deps: Deps, id: string | null): Promise<Theme | undefined> {
  if (!id) return undefined;
  const row = await deps.db.kysely.selectFrom('themes').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { ...row, font: row.font as Font, button_shape: row.button_shape as ButtonShape } : undefined;
}

/** What a theme reads of its survey (this area sits below surveys, whose deletion releases it). */
type ThemedSurvey = Pick<Selectable<SurveysTable>, 'id' | 'owner_id' | 'theme_id'>;

/**
 * The survey's theme, if its theme_id names one of its account's themes: its own, or another
 * survey's it was created with (POST /v3/surveys theme_id) until its first save. An imported
 * SurveyMonkey id names none, and the survey keeps the default look.
 */
export async function themeOfSurvey(
  deps: Deps,
  survey: Pick<ThemedSurvey, 'theme_id' | 'owner_id'>,
): Promise<Theme | undefined> {
  const theme = await themeById(deps, survey.theme_id);
  return theme?.owner_id === survey.owner_id ? theme : undefined;
}

const logoPath = (deps: Deps, key: string) => join(deps.config.uploads.dir, key);

/**
 * Sets the survey's theme: its own row (made on first save), the survey's theme_id pointing at it.
 * `logo`: a checked new image, or 'remove', or undefined to keep the current one.
 */
export async function saveTheme(
  deps: Deps,
  survey: ThemedSurvey,
  fields: ThemeFields,
  logo?: IncomingFile | 'remove',
): Promise<Theme> {
  const now = deps.clock.now().toISOString();
  let newLogo: { key: string; type: string } | undefined;
  if (logo && logo !== 'remove') {
    const problem = logoProblem(logo);
    if (problem) throw new ApiError(1002, problem);
    newLogo = {
      key: `theme-${randomBytes(18).toString('hex')}`,
      type: FILE_KINDS[extensionOf(logo.name) as 'png'].contentType,
    };
    await rename(logo.tmpPath, logoPath(deps, newLogo.key));
    const dir = await open(deps.config.uploads.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
  // A survey created with another survey's theme keeps that theme's logo in its own copy.
  const shared = await themeOfSurvey(deps, survey);
  if (!logo && shared?.logo_key && shared.survey_id !== survey.id) {
    newLogo = { key: `theme-${randomBytes(18).toString('hex')}`, type: shared.logo_type ?? 'image/png' };
    await copyFile(logoPath(deps, shared.logo_key), logoPath(deps, newLogo.key));
  }
  const logoCols =
    logo === 'remove'
      ? { logo_key: null, logo_type: null }
      : newLogo
        ? { logo_key: newLogo.key, logo_type: newLogo.type }
        : {};
  const { old, id } = await deps.db.kysely.transaction().execute(async (tx) => {
    // The survey's row serialises its theme's first save (one theme row per survey).
    await lockRow(deps.db, tx, 'surveys', survey.id);
    const existing = await tx
      .selectFrom('themes')
      .select(['id', 'logo_key'])
      .where('survey_id', '=', survey.id)
      .executeTakeFirst();
    let themeId = existing?.id;
    if (themeId)
      await tx
        .updateTable('themes')
        .set({ ...fields, ...logoCols, updated_at: now })
        .where('id', '=', themeId)
        .execute();
    else {
      [themeId] = await deps.ids.take(1);
      await tx
        .insertInto('themes')
        .values({
          id: themeId,
          owner_id: survey.owner_id,
          survey_id: survey.id,
          logo_key: null,
          logo_type: null,
          ...fields,
          ...logoCols,
          updated_at: now,
        })
        .execute();
    }
    await tx
      .updateTable('surveys')
      .set({ theme_id: themeId, date_modified: now })
      .where('id', '=', survey.id)
      .execute();
    return { old: logo && existing?.logo_key ? existing.logo_key : null, id: themeId };
  });
  // The replaced logo goes after the row stops naming it.
  if (old) await rm(logoPath(deps, old), { force: true });
  return (await themeById(deps, id))!;
}

/**
 * A deleted survey's own theme (inside the delete's transaction): surveys created with its theme_id
 * still wear it until their first save, so the oldest of them inherits the row; with none left the
 * row goes. Returns the logo file to remove once the transaction has committed, or null.
 */
export async function releaseTheme(tx: Transaction<Database>, surveyId: string): Promise<string | null> {
  const own = await tx
    .selectFrom('themes')
    .select(['id', 'logo_key'])
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  if (!own) return null;
  const heir = await tx
    .selectFrom('surveys')
    .select('id')
    .where('theme_id', '=', own.id)
    .where('id', '!=', surveyId)
    .orderBy('date_created')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (heir) {
    await tx.updateTable('themes').set({ survey_id: heir.id }).where('id', '=', own.id).execute();
    return null;
  }
  await tx.deleteFrom('themes').where('id', '=', own.id).execute();
  return own.logo_key;
}

/** Removes a released theme's logo file (after the row that named it is gone). */
export async function removeThemeLogo(deps: Deps, key: string | null): Promise<void> {
  if (key) await rm(logoPath(deps, key), { force: true });
}

/** The stored logo of a theme (its bytes and content type). */
export async function themeLogo(
  deps: Deps,
  theme: Theme,
): Promise<{ body: Buffer; type: string } | undefined> {
  if (!theme.logo_key || !theme.logo_type) return undefined;
  return { body: await readFile(logoPath(deps, theme.logo_key)), type: theme.logo_type };
}

/** Paths (below the site) of a theme's stylesheet and logo; their version makes them cacheable for good. */
export function themePaths(theme: Theme): { stylesheet: string; logo: string | null } {
  const v = Date.parse(theme.updated_at).toString(36);
  return {
    stylesheet: `/r/themes/${theme.id}/${v}.css`,
    logo: theme.logo_key ? `/r/themes/${theme.id}/${v}/logo` : null,
  };
}

/** A theme's colours, font stack and absolute logo URL, as its survey's invitation emails use them. */
export function emailLook(
  theme: Theme,
  baseUrl: string,
): { primary_color: string; button_text_color: string; font_stack: string; logo_url: string | null } {
  const logo = themePaths(theme).logo;
  return {
    primary_color: theme.primary_color,
    button_text_color: onPrimary(theme.primary_color),
    font_stack: FONTS[theme.font].stack,
    logo_url: logo ? `${baseUrl}${logo}` : null,
  };
}

/**
 * The stylesheet of a theme: custom properties over app.css's tokens, on the whole respondent page
 * (`:root`), or on the builder's sample (`.theme-preview`).
 */
export function themeCss(theme: ThemeFields, scope: ':root' | '.theme-preview' = ':root'): string {
  const box = scope === ':root' ? 'body' : scope;
  return `${scope} {
  --fg: ${theme.text_color};
  --muted: ${theme.text_color};
  --accent: ${theme.primary_color};
  --accent-fg: ${onPrimary(theme.primary_color)};
  --accent-soft: ${theme.primary_color}1f;
  --theme-bg: ${theme.background_color};
  --theme-font: ${FONTS[theme.font].stack};
}
${box} { background: var(--theme-bg); color: var(--fg); font-family: var(--theme-font); }
${scope === ':root' ? '' : `${scope} `}button, ${scope === ':root' ? '' : `${scope} `}.button { border-radius: ${BUTTON_SHAPES[theme.button_shape]}; }
${scope === ':root' ? 'header.respondent' : `${scope} .sample-header`} { border-bottom: 4px solid var(--accent); background: var(--theme-bg); }
`;
}
