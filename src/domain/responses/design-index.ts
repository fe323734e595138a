// A survey's design indexed for answering: every question by id with its choices, rows, columns and
// "other" by id. Built from loadDesign and kept per process while the survey is unchanged (any
// design change moves the survey's date_modified, which is part of the cache key).
import type { Deps } from '../../context.js';
import type { SurveyRow } from '../surveys/access.js';
import type { Choice, Col, Logic, Other, Row, StoredQuestion } from '../surveys/question-schema.js';
import { loadDesign } from '../surveys/surveys.js';

export interface IndexedQuestion {
  id: string;
  pageId: string;
  position: number;
  family: string;
  subtype: string;
  heading: string;
  displayType: string | null;
  doc: StoredQuestion;
  choices: Map<string, Choice>;
  rows: Map<string, Row>;
  cols: Map<string, { col: Col; choices: Map<string, Choice> }>;
  other: Other | null;
}

export interface IndexedPage {
  id: string;
  position: number;
  title: string;
  description: string;
  /** the page's skip-logic rule (choice rules are on the questions' choices) */
  logic: Logic | null;
  questions: IndexedQuestion[];
}

export interface DesignIndex {
  surveyId: string;
  pages: IndexedPage[];
  pageById: Map<string, IndexedPage>;
  questions: Map<string, IndexedQuestion>;
}

const cache = new Map<string, { key: string; index: DesignIndex }>();
const MAX_CACHED = 500;

export async function designIndex(deps: Deps, survey: SurveyRow): Promise<DesignIndex> {
  const key = `${survey.date_modified}|${survey.question_count}|${survey.page_count}`;
  const hit = cache.get(survey.id);
  if (hit && hit.key === key) return hit.index;
  const { pages, questions } = await loadDesign(deps, survey.id);
  const index: DesignIndex = { surveyId: survey.id, pages: [], pageById: new Map(), questions: new Map() };
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
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(survey.id, { key, index });
  return index;
}
