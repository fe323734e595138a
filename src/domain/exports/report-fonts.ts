// The fonts the PDF report embeds (only the glyphs it uses: pdfkit subsets them). Noto Sans (Latin,
// Greek, Cyrillic) and Noto Sans Arabic come with the program (npm packages
// @expo-google-fonts/noto-sans and -arabic, SIL Open Font License), so a default install makes a
// readable report of those scripts. Other scripts (Chinese, Japanese, Korean…) take the first
// fallback font that has the character: the .ttf/.otf/.ttc files in REPORT_FONTS_DIR, then Debian's
// Droid Sans Fallback (fonts-droid-fallback) or Noto CJK (fonts-noto-cjk) when installed. Without
// any, such characters are left to the main font (an empty box), and the report is still made.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

/** Debian's fonts for the scripts the packaged ones lack, tried after REPORT_FONTS_DIR. */
const SYSTEM_FALLBACKS = [
  '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
];

export interface ReportFont {
  /** the name pdfkit registers it by */
  name: string;
  file: string;
  /** a collection's (.ttc) member, by PostScript name */
  member?: string;
  has: (codePoint: number) => boolean;
}

export interface ReportFonts {
  regular: ReportFont;
  bold: ReportFont;
  /** after the main font, in order: the first that has a character draws it */
  fallbacks: ReportFont[];
}

function open(name: string, file: string): ReportFont | null {
  try {
    const opened = fontkit.openSync(file);
    const font = 'fonts' in opened ? opened.fonts[0] : opened;
    if (!font) return null;
    return {
      name,
      file,
      member: 'fonts' in opened ? font.postscriptName : undefined,
      has: (c) => font.hasGlyphForCodePoint(c),
    };
  } catch {
    return null; // not a font fontkit reads: skipped
  }
}

function packaged(name: string, path: string): ReportFont {
  const font = open(name, require.resolve(path));
  if (!font) throw new Error(`report font ${path} is unreadable`);
  return font;
}

/** The report's fonts: the packaged ones, then the fallbacks found (REPORT_FONTS_DIR first). */
export function reportFonts(dir: string | undefined): ReportFonts {
  const files: string[] = [];
  if (dir && existsSync(dir))
    for (const f of readdirSync(dir).sort()) if (/\.(ttf|otf|ttc)$/i.test(f)) files.push(join(dir, f));
  files.push(...SYSTEM_FALLBACKS.filter((f) => existsSync(f)));
  const fallbacks = [
    packaged('Arabic', '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf'),
  ];
  files.forEach((f, i) => {
    const font = open(`Fallback${i}`, f);
    if (font) fallbacks.push(font);
  });
  return {
    regular: packaged('Regular', '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
    bold: packaged('Bold', '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
    fallbacks,
  };
}

/** `text` cut into runs of one font each: the main font where it has the character (spaces,
 * digits and punctuation stay with the run they are in), else the first fallback that has it. */
export function fontRuns(
  text: string,
  main: ReportFont,
  fonts: ReportFonts,
): Array<{ font: ReportFont; text: string }> {
  const runs: Array<{ font: ReportFont; text: string }> = [];
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 32;
    const last = runs[runs.length - 1];
    const neutral = /[\s\d\p{P}]/u.test(ch);
    let font = main;
    if (neutral && last) font = last.font;
    else if (!main.has(c)) font = fonts.fallbacks.find((f) => f.has(c)) ?? main;
    if (last && last.font === font) last.text += ch;
    else runs.push({ font, text: ch });
  }
  return runs;
}
