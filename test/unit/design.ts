// A survey's design index built by hand for the pure engines' unit tests (skip logic, quiz
// scoring): only the fields those engines read, the rest of each stored question left empty.
import type { DesignIndex, IndexedPage, IndexedQuestion } from '../../src/domain/responses/design-index.js';
import type { Choice, Logic, StoredQuestion } from '../../src/domain/surveys/question-schema.js';

export interface ChoiceSpec {
  id: string;
  score?: number;
  logic?: Logic;
}

export interface QuestionSpec {
  id: string;
  family?: string;
  choices?: ChoiceSpec[];
  quiz?: StoredQuestion['quiz_options'];
}

export interface PageSpec {
  id: string;
  logic?: Logic;
  questions?: QuestionSpec[];
}

function choice(c: ChoiceSpec, i: number): Choice {
  return {
    id: c.id,
    position: i + 1,
    text: `Choice ${c.id}`,
    visible: true,
    ...(c.score !== undefined ? { quiz_options: { score: c.score } } : {}),
    ...(c.logic ? { logic: c.logic } : {}),
  };
}

export function design(pages: PageSpec[]): DesignIndex {
  const index: DesignIndex = { surveyId: '1', pages: [], pageById: new Map(), questions: new Map() };
  pages.forEach((p, pi) => {
    const page: IndexedPage = {
      id: p.id,
      position: pi + 1,
      title: '',
      description: '',
      logic: p.logic ?? null,
      sorting: null,
      questions: [],
    };
    (p.questions ?? []).forEach((q, qi) => {
      const choices = (q.choices ?? []).map(choice);
      const family = q.family ?? 'single_choice';
      const doc = {
        headings: [{ heading: `Question ${q.id}` }],
        ...(q.quiz ? { quiz_options: q.quiz } : {}),
        answers: { choices },
      } as StoredQuestion;
      const iq: IndexedQuestion = {
        id: q.id,
        pageId: p.id,
        position: qi + 1,
        family,
        subtype: 'vertical',
        heading: `Question ${q.id}`,
        label: `Question ${q.id}`,
        displayType: null,
        doc,
        choices: new Map(choices.map((c) => [c.id, c])),
        rows: new Map(),
        cols: new Map(),
        other: null,
      };
      page.questions.push(iq);
      index.questions.set(iq.id, iq);
    });
    index.pages.push(page);
    index.pageById.set(page.id, page);
  });
  return index;
}

/** One page's answers, as stored: question id -> the picked choice ids. */
export function picks(byQuestion: Record<string, string[]>) {
  return Object.entries(byQuestion).map(([id, choices]) => ({
    id,
    answers: choices.map((choice_id) => ({ choice_id })),
  }));
}
