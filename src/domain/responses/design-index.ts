// A survey's design indexed for answering: every question by id with its choices, rows, columns and
// "other" by id. Built from loadDesign and kept per database (deps.caches.designs) while the
// survey's design_version is unchanged: every page/question change moves it (design.ts touch).
import type { Deps } from '../../context.js';
import type { SurveyRow } from '../surveys/access.js';
import { calculatedOf, parsedCalculated } from '../surveys/calculated.js';
import { questionNumbers, readableRecalls } from '../surveys/piping.js';
import { loadDesign } from '../surveys/surveys.js';
import type { DesignIndex, IndexedPage, IndexedQuestion } from './types.js';

export type { DesignIndex, IndexedPage, IndexedQuestion } from './types.js';

export async function designIndex(
  deps: Deps,
  survey: Pick<SurveyRow, 'id' | 'design_version' | 'calculated_variables'>,
): Promise<DesignIndex> {
  const cache = deps.caches.designs;
  const hit = cache.get(survey.id);
  if (hit && hit.version === survey.design_version) return hit.index;
  const { pages, questions } = await loadDesign(deps, survey.id);
  const index: DesignIndex = {
    surveyId: survey.id,
    pages: [],
    pageById: new Map(),
    questions: new Map(),
    // Changing the definitions moves design_version too (surveys.ts updateSurvey).
    calculated: parsedCalculated(calculatedOf(survey)),
  };
  const numbers = questionNumbers(pages.map((p) => ({ questions: questions.get(p.id) ?? [] })));
  for (const p of pages) {
    const page: IndexedPage = { ...p, questions: [] };
    for (const q of questions.get(p.id) ?? []) {
      const a = q.doc.answers;
      const iq: IndexedQuestion = {
        id: q.id,
        pageId: p.id,
        position: q.position,
        family: q.family,
        subtype: q.subtype,
        heading: q.doc.headings[0]?.heading ?? '',
        label: readableRecalls(q.doc.headings[0]?.heading ?? '', numbers),
        displayType: q.doc.display_options?.display_type ?? null,
        doc: q.doc,
        choices: new Map((a?.choices ?? []).map((c) => [c.id, c])),
        rows: new Map((a?.rows ?? []).map((r) => [r.id, r])),
        cols: new Map(
          (a?.cols ?? []).map((c) => [c.id, { col: c, choices: new Map(c.choices.map((x) => [x.id, x])) }]),
        ),
        other: a?.other ?? null,
      };
      page.questions.push(iq);
      index.questions.set(q.id, iq);
    }
    index.pages.push(page);
    index.pageById.set(p.id, page);
  }
  cache.set(survey.id, { version: survey.design_version, index });
  return index;
}
