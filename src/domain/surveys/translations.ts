// Translations of a survey into other languages (reference §4.7): one row per survey and
// language holding {default, translation, context, resource_id} entries, matched against the
// survey's current strings so that changed source text shows up as stale.
import type { Deps } from '../../context.js';
import { prepareQuery } from '../../db/prepared.js';
import { ApiError } from '../../platform/errors.js';
import { acceptedLanguages } from '../../platform/i18n/index.js';
import type { SurveyRow } from './access.js';
import { findLanguage, type Language } from './languages.js';
import { loadDesign, settingsOf } from './surveys.js';

export interface Translation {
  default: string;
  translation: string;
  context: string;
  resource_id: string;
}

export const CONTEXTS = [
  'survey_title_html',
  'survey_next',
  'survey_prev',
  'survey_done',
  'survey_exit',
  'collector_disqualification',
  'question_heading',
  'question_option_text',
] as const;

const key = (t: { context: string; resource_id: string }) => `${t.context}\u0000${t.resource_id}`;

/**
 * Every translatable string of the survey as it is now. The disqualification message belongs to
 * each collector, so `collector_disqualification` has one string per collector whose respondents
 * see it (weblink and email), with the collector's id as its resource_id.
 */
export async function surveyStrings(
  deps: Deps,
  survey: SurveyRow,
): Promise<Array<Omit<Translation, 'translation'>>> {
  const s = settingsOf(survey);
  const out: Array<Omit<Translation, 'translation'>> = [
    { default: s.title, context: 'survey_title_html', resource_id: survey.id },
    { default: s.buttons_text.next_button, context: 'survey_next', resource_id: survey.id },
    { default: s.buttons_text.prev_button, context: 'survey_prev', resource_id: survey.id },
    { default: s.buttons_text.done_button, context: 'survey_done', resource_id: survey.id },
  ];
  if (s.buttons_text.exit_button)
    out.push({ default: s.buttons_text.exit_button, context: 'survey_exit', resource_id: survey.id });
  const { pages, questions } = await loadDesign(deps, survey.id);
  for (const p of pages)
    for (const q of questions.get(p.id) ?? []) {
      const heading = q.doc.headings[0]?.heading;
      if (heading) out.push({ default: heading, context: 'question_heading', resource_id: q.id });
      const a = q.doc.answers;
      const options = [
        ...(a?.choices ?? []),
        ...(a?.rows ?? []),
        ...(a?.cols ?? []).flatMap((c) => [c, ...c.choices]),
        ...(a?.other ? [a.other] : []),
      ];
      for (const o of options)
        if (o.text) out.push({ default: o.text, context: 'question_option_text', resource_id: o.id });
    }
  const collectors = await deps.db.kysely
    .selectFrom('collectors')
    .select(['id', 'options', 'date_created'])
    .where('survey_id', '=', survey.id)
    .where('type', 'in', ['weblink', 'email'])
    .execute();
  // In the order they were made (ids alone do not say it: each process allocates its own range).
  collectors.sort(
    (a, b) =>
      a.date_created.localeCompare(b.date_created) || a.id.length - b.id.length || (a.id < b.id ? -1 : 1),
  );
  for (const c of collectors) {
    const message = (JSON.parse(c.options) as { disqualification_message?: string }).disqualification_message;
    if (message) out.push({ default: message, context: 'collector_disqualification', resource_id: c.id });
  }
  return out;
}

export interface SurveyTranslation {
  language: Language;
  enabled: boolean;
  exists: boolean;
  translations: Translation[];
  counts: {
    string_count: number;
    translated_string_count: number;
    stale_string_count: number;
    inherited_string_count: number;
  };
}

function language(code: string): Language {
  const l = findLanguage(code);
  if (!l) throw new ApiError(1020, `Language ${code} not found.`);
  return l;
}

async function stored(deps: Deps, surveyId: string, code: string) {
  return deps.db.kysely
    .selectFrom('survey_translations')
    .selectAll()
    .where('survey_id', '=', surveyId)
    .where('language', '=', code)
    .executeTakeFirst();
}

function merge(
  strings: Array<Omit<Translation, 'translation'>>,
  saved: Translation[],
  lang: Language,
  enabled: boolean,
  exists: boolean,
): SurveyTranslation {
  const byKey = new Map(saved.map((t) => [key(t), t]));
  let translated = 0;
  let stale = 0;
  const translations = strings.map((s) => {
    const t = byKey.get(key(s));
    if (t?.translation) {
      if (t.default === s.default) translated++;
      else stale++;
    }
    return { ...s, translation: t?.translation ?? '' };
  });
  return {
    language: lang,
    enabled,
    exists,
    translations,
    counts: {
      string_count: strings.length,
      translated_string_count: translated,
      stale_string_count: stale,
      inherited_string_count: 0,
    },
  };
}

export async function getTranslation(
  deps: Deps,
  survey: SurveyRow,
  code: string,
): Promise<SurveyTranslation> {
  const lang = language(code);
  const row = await stored(deps, survey.id, lang.id);
  const strings = await surveyStrings(deps, survey);
  return merge(
    strings,
    row ? (JSON.parse(row.translations) as Translation[]) : [],
    lang,
    row ? row.enabled === 1 : false,
    !!row,
  );
}

export async function listTranslations(deps: Deps, survey: SurveyRow): Promise<SurveyTranslation[]> {
  const rows = await deps.db.kysely
    .selectFrom('survey_translations')
    .selectAll()
    .where('survey_id', '=', survey.id)
    .orderBy('language')
    .execute();
  if (rows.length === 0) return [];
  const strings = await surveyStrings(deps, survey);
  return rows.map((r) =>
    merge(strings, JSON.parse(r.translations) as Translation[], language(r.language), r.enabled === 1, true),
  );
}

export interface TranslationInput {
  enabled?: boolean;
  translations: Array<{ default?: string; translation: string; context: string; resource_id: string }>;
}

/** POST (create or replace) and PATCH (merge into an existing translation). */
export async function saveTranslation(
  deps: Deps,
  survey: SurveyRow,
  code: string,
  input: TranslationInput,
  mode: 'post' | 'patch',
): Promise<SurveyTranslation> {
  const lang = language(code);
  if (lang.id === survey.language)
    throw new ApiError(1002, `The survey is written in ${lang.id}; translate it into another language.`);
  const strings = await surveyStrings(deps, survey);
  const current = new Map(strings.map((s) => [key(s), s]));
  const given = input.translations.flatMap((t, i) => {
    const exact = current.get(key(t));
    // The reference's example names the survey as a disqualification message's resource; here each
    // collector has its own message, so the survey's id stands for every collector's message (those
    // whose text is `default`, when it is given).
    const matched = exact
      ? [exact]
      : t.context === 'collector_disqualification' && t.resource_id === survey.id
        ? strings.filter(
            (s) => s.context === t.context && (t.default === undefined || s.default === t.default),
          )
        : [];
    if (matched.length === 0)
      throw new ApiError(
        1002,
        `'translations.${i}': no ${t.context} string with resource_id ${t.resource_id} in this survey.`,
      );
    return matched.map((s) => ({
      default: s.default,
      translation: t.translation,
      context: s.context,
      resource_id: s.resource_id,
    }));
  });
  const row = await stored(deps, survey.id, lang.id);
  if (mode === 'patch' && !row) throw new ApiError(1020, `The survey has no ${lang.id} translation.`);
  const previous = mode === 'patch' && row ? (JSON.parse(row.translations) as Translation[]) : [];
  const merged = new Map(previous.map((t) => [key(t), t]));
  for (const t of given) merged.set(key(t), t);
  const enabled = input.enabled ?? (row ? row.enabled === 1 : true);
  const now = deps.clock.now().toISOString();
  const values = {
    survey_id: survey.id,
    language: lang.id,
    owner_id: survey.owner_id,
    enabled: enabled ? 1 : 0,
    translations: JSON.stringify([...merged.values()]),
    created_at: row?.created_at ?? now,
    updated_at: now,
  };
  await deps.db.kysely
    .insertInto('survey_translations')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['survey_id', 'language'])
        .doUpdateSet({ enabled: values.enabled, translations: values.translations, updated_at: now }),
    )
    .execute();
  return merge(strings, [...merged.values()], lang, enabled, true);
}

export async function deleteTranslation(
  deps: Deps,
  survey: SurveyRow,
  code: string,
): Promise<SurveyTranslation> {
  const existing = await getTranslation(deps, survey, code);
  if (!existing.exists) throw new ApiError(1020, `The survey has no ${existing.language.id} translation.`);
  await deps.db.kysely
    .deleteFrom('survey_translations')
    .where('survey_id', '=', survey.id)
    .where('language', '=', existing.language.id)
    .execute();
  return existing;
}

/** A respondent's translation: its language and translated text by context and resource id. */
export interface RespondentTranslation {
  language: string;
  text: (context: string, resourceId: string, fallback: string) => string;
}

const primary = (t: string) => t.toLowerCase().split('-')[0];

/** The language of `codes` that `tag` names: the same tag, else the same primary language. */
function matching(codes: readonly string[], tag: string): string | undefined {
  const t = tag.toLowerCase();
  return codes.find((c) => c.toLowerCase() === t) ?? codes.find((c) => primary(c) === primary(t));
}

export interface RespondentLanguage {
  /** the language the respondent sees the survey in */
  language: string;
  /** its translation, or null when it is the survey's own language */
  translation: RespondentTranslation | null;
  /** the languages the respondent may switch to: the survey's own, then its enabled translations */
  choices: Language[];
}

/**
 * The language a respondent sees: the one they chose (`?lang=`) when the survey offers it, else the
 * best match of their browser's Accept-Language among the survey's language and its enabled
 * translations, else the survey's own language. One indexed read of the enabled languages, and the
 * chosen translation's text only when it is not the survey's language.
 */
export async function respondentLanguage(
  deps: Deps,
  survey: SurveyRow,
  chosen: string | undefined,
  acceptLanguage: string | undefined,
): Promise<RespondentLanguage> {
  const { db } = deps;
  const enabled = await deps.caches.enabledTranslations.get(() =>
    prepareQuery<{ language: string }, [string]>(db, 1, (id) =>
      db.kysely
        .selectFrom('survey_translations')
        .select('language')
        .where('survey_id', '=', id)
        .where('enabled', '=', 1)
        .orderBy('language'),
    ),
  )(survey.id);
  return languageAmong(
    deps,
    survey,
    enabled.map((r) => r.language),
    chosen,
    acceptLanguage,
  );
}

/** respondentLanguage, with the survey's enabled translation languages already read. */
export async function languageAmong(
  deps: Deps,
  survey: SurveyRow,
  enabled: string[],
  chosen: string | undefined,
  acceptLanguage: string | undefined,
): Promise<RespondentLanguage> {
  const codes = [survey.language, ...enabled.filter((l) => l !== survey.language)];
  const choices = codes.map((c) => findLanguage(c) ?? { id: c, name: c, native_name: c });
  const picked =
    (chosen && matching(codes, chosen)) ??
    acceptedLanguages(acceptLanguage ?? '')
      .map((tag) => matching(codes, tag))
      .find((c) => c !== undefined) ??
    survey.language;
  if (picked === survey.language) return { language: picked, translation: null, choices };
  const row = await stored(deps, survey.id, picked);
  if (!row) return { language: survey.language, translation: null, choices };
  // A translation of text that has changed since is stale: the current text shows instead.
  const byKey = new Map(
    (JSON.parse(row.translations) as Translation[]).filter((t) => t.translation).map((t) => [key(t), t]),
  );
  return {
    language: picked,
    choices,
    translation: {
      language: picked,
      text: (context, resourceId, fallback) => {
        const t = byKey.get(key({ context, resource_id: resourceId }));
        return t && t.default === fallback ? t.translation : fallback;
      },
    },
  };
}
