// A source survey's design (GET /surveys/{id}/details) as the pages of a local createSurvey, and
// the pairing of source ids with the ids the local copy got (same order, so paired by position).

import { isOneOf } from '../../platform/lists.js';
import type { BlueprintPage } from '../surveys/blueprint.js';
import type { QuestionInput } from '../surveys/question-schema.js';
import { FAMILIES, SUBTYPES } from '../surveys/question-schema.js';
import type { DesignPage, DesignQuestion } from '../surveys/surveys.js';
import type { SourceQuestion, SurveyDetails } from './source.js';

export interface Skipped {
  kind: string;
  name: string;
  reason: string;
}

const ANSWER_LISTS = ['choices', 'rows', 'cols'] as const;
/** Presented fields that are not part of a question's design. */
const PRESENTED = new Set(['id', 'href', 'position', 'family', 'subtype']);

/** Whether this service has the question's family and subtype. */
export const supported = (q: { family: string; subtype: string }) =>
  isOneOf(FAMILIES, q.family) && SUBTYPES[q.family].includes(q.subtype);

export const headingOf = (q: SourceQuestion): string =>
  String(q.headings?.[0]?.heading ?? '').replace(/<[^>]*>/g, '');

/** The blueprint pages of a source survey, leaving out (and naming) what this service lacks. */
export function blueprintPages(details: SurveyDetails, skipped: Skipped[]): BlueprintPage[] {
  return (details.pages ?? []).map((p) => {
    const kept = (p.questions ?? []).filter((q) => {
      if (supported(q)) return true;
      skipped.push({
        kind: 'question',
        name: `${details.title} / ${headingOf(q) || q.id}`,
        reason: `question type ${q.family}/${q.subtype} is not available here`,
      });
      return false;
    });
    return {
      // The source's page id: skip-logic rules (page and choice) that jump to it are remapped to
      // its copy by writeBlueprint, as for a copied survey.
      id: String(p.id),
      title: p.title ?? '',
      description: p.description ?? '',
      logic: p.logic ?? null,
      // The rest of the design is validated by createSurvey, as any survey body.
      questions: kept.map((q) => {
        const input: Record<string, unknown> = { family: q.family, subtype: q.subtype };
        for (const [k, v] of Object.entries(q)) if (!PRESENTED.has(k) && v !== null) input[k] = v;
        return input as unknown as QuestionInput;
      }),
      // Piping recalls the source's question ids: writeBlueprint remaps them to their copies.
      questionIds: kept.map((q) => String(q.id)),
    };
  });
}

/** A field of an object, whatever the source sent (undefined when `o` is not an object). */
const field = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' ? Reflect.get(o, key) : undefined;
/** An object's list of answer options (choices, rows, cols), whatever the source sent. */
const listOf = (o: unknown, key: string): unknown[] => {
  const v = field(o, key);
  return Array.isArray(v) ? v : [];
};
const idOf = (o: unknown): string | undefined => {
  const v = field(o, 'id');
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
};

/** Source id -> local id of a question's answer options (choices, rows, cols and theirs, other), by position. */
export function pairAnswers(src: unknown, loc: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (!src || !loc) return out;
  for (const key of ANSWER_LISTS) {
    const l = listOf(loc, key);
    listOf(src, key).forEach((item, i) => {
      const [s, d] = [idOf(item), idOf(l[i])];
      if (s && d) out.push([s, d]);
      if (key === 'cols') out.push(...pairAnswers(item, l[i]));
    });
  }
  const [so, lo] = [idOf(field(src, 'other')), idOf(field(loc, 'other'))];
  if (so && lo) out.push([so, lo]);
  return out;
}

/** Source id -> local id for every page, question and answer option (choice, row, column, other). */
export function pairDesign(
  details: SurveyDetails,
  local: { pages: DesignPage[]; questions: Map<string, DesignQuestion[]> },
): Record<'page' | 'question' | 'answer', Array<[string, string]>> {
  const out: Record<'page' | 'question' | 'answer', Array<[string, string]>> = {
    page: [],
    question: [],
    answer: [],
  };
  (details.pages ?? []).forEach((p, i) => {
    const lp = local.pages[i];
    if (!lp) return;
    out.page.push([String(p.id), lp.id]);
    const lqs = local.questions.get(lp.id) ?? [];
    (p.questions ?? []).filter(supported).forEach((q, j) => {
      const lq = lqs[j];
      if (!lq) return;
      out.question.push([String(q.id), lq.id]);
      out.answer.push(...pairAnswers(q.answers, lq.doc.answers));
    });
  });
  return out;
}
