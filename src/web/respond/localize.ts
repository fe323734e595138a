// A survey shown in the respondent's language: the design index and survey row with the texts of
// the translation chosen or asked for by the browser (domain/surveys/translations.ts respondentLanguage).

import type { Deps } from '../../context.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import type { RespondentEntry } from '../../domain/collectors/entry.js';
import { CLOSED_PAGE, THANK_YOU } from '../../domain/collectors/options.js';
import type { DesignIndex, IndexedQuestion } from '../../domain/responses/design-index.js';
import type { SurveyRow } from '../../domain/surveys/access.js';
import { DEFAULT_BUTTONS } from '../../domain/surveys/blueprint.js';
import type { StoredQuestion } from '../../domain/surveys/question-schema.js';
import { settingsOf } from '../../domain/surveys/surveys.js';
import type { RespondentLanguage, RespondentTranslation } from '../../domain/surveys/translations.js';
import { type Translate, translator } from '../../platform/i18n/index.js';

/** Buttons left at their English defaults are the service's words: shown in the page's language. */
export function localizeButtons(survey: SurveyRow, t: Translate): SurveyRow {
  const b = settingsOf(survey).buttons_text;
  const word = (
    k: 'next_button' | 'prev_button' | 'exit_button' | 'done_button',
    key: 'next' | 'prev' | 'exit' | 'done',
  ) => (b[k] === DEFAULT_BUTTONS[k] ? t(key) : b[k]);
  return {
    ...survey,
    buttons_text: JSON.stringify({
      next_button: word('next_button', 'next'),
      prev_button: word('prev_button', 'prev'),
      done_button: word('done_button', 'done'),
      exit_button: b.exit_button && word('exit_button', 'exit'),
    }),
  };
}

export function localizeSurvey(survey: SurveyRow, t: RespondentTranslation): SurveyRow {
  const b = settingsOf(survey).buttons_text;
  const tr = (context: string, text: string) => t.text(context, survey.id, text);
  return {
    ...survey,
    language: t.language,
    title: tr('survey_title_html', survey.title),
    buttons_text: JSON.stringify({
      next_button: tr('survey_next', b.next_button),
      prev_button: tr('survey_prev', b.prev_button),
      done_button: tr('survey_done', b.done_button),
      exit_button: b.exit_button && tr('survey_exit', b.exit_button),
    }),
  };
}

/** The collector's messages left at their English defaults are the service's words too. */
export function localizeCollectorDefaults(collector: Collector, t: Translate): Collector {
  const o = collector.options;
  const word = (text: string) =>
    text === THANK_YOU ? t('thank_you') : text === CLOSED_PAGE ? t('closed_message') : text;
  return {
    ...collector,
    options: {
      ...o,
      thank_you_message: word(o.thank_you_message),
      thank_you_page: { ...o.thank_you_page, message: word(o.thank_you_page.message) },
      disqualification_message: word(o.disqualification_message),
      closed_page_message: word(o.closed_page_message),
    },
  };
}

/** The collector's own text a respondent sees: its disqualification message (the reference's
 * `collector_disqualification`; resource_id the collector). The thank-you texts have no context
 * in the reference, so they are shown as the owner wrote them. */
export function localizeCollector(collector: Collector, t: RespondentTranslation): Collector {
  const o = collector.options;
  return {
    ...collector,
    options: {
      ...o,
      disqualification_message: t.text(
        'collector_disqualification',
        collector.id,
        o.disqualification_message,
      ),
    },
  };
}

function localizeDoc(q: IndexedQuestion, t: RespondentTranslation): StoredQuestion {
  const opt = <T extends { id: string; text: string }>(o: T): T => ({
    ...o,
    text: t.text('question_option_text', o.id, o.text),
  });
  const doc = q.doc;
  const a = doc.answers;
  return {
    ...doc,
    headings: doc.headings.map((h, i) =>
      i === 0 ? { ...h, heading: t.text('question_heading', q.id, h.heading) } : h,
    ),
    ...(a && {
      answers: {
        ...a,
        ...(a.choices && { choices: a.choices.map(opt) }),
        ...(a.rows && { rows: a.rows.map(opt) }),
        ...(a.cols && { cols: a.cols.map((c) => ({ ...opt(c), choices: c.choices.map(opt) })) }),
        ...(a.other && { other: opt(a.other) }),
      },
    }),
  };
}

export function localizeIndex(index: DesignIndex, t: RespondentTranslation): DesignIndex {
  const questions = new Map<string, IndexedQuestion>();
  const pages = index.pages.map((p) => ({
    ...p,
    questions: p.questions.map((q) => {
      const doc = localizeDoc(q, t);
      const a = doc.answers;
      const iq: IndexedQuestion = {
        ...q,
        doc,
        heading: doc.headings[0]?.heading ?? '',
        choices: new Map((a?.choices ?? []).map((c) => [c.id, c])),
        rows: new Map((a?.rows ?? []).map((r) => [r.id, r])),
        cols: new Map(
          (a?.cols ?? []).map((c) => [c.id, { col: c, choices: new Map(c.choices.map((x) => [x.id, x])) }]),
        ),
        other: a?.other ?? null,
      };
      questions.set(q.id, iq);
      return iq;
    }),
  }));
  return { ...index, pages, pageById: new Map(pages.map((p) => [p.id, p])), questions };
}

type Localized = ReturnType<typeof localized>;

/** localized() for the survey's own language (no translation), kept per entry version and language
 * (deps.caches.respondentViews), with the response counts of this read. */
export function localizedOwn(
  deps: Deps,
  entry: RespondentEntry,
  l: RespondentLanguage,
  index: DesignIndex,
): Localized {
  const key = `${entry.stamp}\u0003${l.language}`;
  let kept = deps.caches.respondentViews.get(key) as Localized | undefined;
  if (!kept) {
    kept = localized(l, entry.survey, entry.collector, index);
    deps.caches.respondentViews.set(key, kept);
  }
  const counts = { collector: entry.collector.response_count, survey: entry.survey.response_count };
  if (kept.collector.response_count === counts.collector && kept.survey.response_count === counts.survey)
    return kept;
  return {
    ...kept,
    collector: { ...kept.collector, response_count: counts.collector },
    survey: { ...kept.survey, response_count: counts.survey },
  };
}

/** Everything the respondent reads in their language: the survey, collector and questions as
 * translated, the service's defaults in the catalog's words, and the page's `t`. */
export function localized(
  l: RespondentLanguage,
  survey: SurveyRow,
  collector: Collector,
  index: DesignIndex,
) {
  const t = l.translation;
  const say = translator(l.language);
  return {
    language: { lang: l.language, choices: l.choices },
    t: say,
    survey: localizeButtons(t ? localizeSurvey(survey, t) : survey, say),
    collector: localizeCollectorDefaults(t ? localizeCollector(collector, t) : collector, say),
    index: t ? localizeIndex(index, t) : index,
  };
}
