// A source survey's design (GET /surveys/{id}/details) as the pages of a local createSurvey, and
// the pairing of source ids with the ids the local copy got (same order, so paired by position).

import type { BlueprintPage } from '../surveys/blueprint.js';
import { FAMILIES, SUBTYPES } from '../surveys/question-schema.js';
import type { DesignPage, DesignQuestion } from '../surveys/surveys.js';

export interface Skipped {
  kind: string;
  name: string;
  reason: string;
}

const ANSWER_LISTS = ['choices', 'rows', 'cols'] as const;
/** Presented fields that are not part of a question's design. */
const PRESENTED = new Set(['id', 'href', 'position', 'family', 'subtype']);

const supported = (q: any) =>
  (FAMILIES as readonly string[]).includes(q.family) &&
  SUBTYPES[q.family as (typeof FAMILIES)[number]].includes(q.subtype);

export const headingOf = (q: any): string => String(q.headings?.[0]?.heading ?? '').replace(/<[^>]*>/g, '');

/** Whether a source question can be copied (families and subtypes this service has). */
export function copiable(q: any): boolean {
  return supported(q);
}

/** The blueprint pages of a source survey, leaving out (and naming) what this service lacks. */
export function blueprintPages(details: any, skipped: Skipped[]): BlueprintPage[] {
  return (details.pages ?? []).map((p: any) => ({
    // The source's page id: skip-logic rules (page and choice) that jump to it are remapped to
    // its copy by writeBlueprint, as for a copied survey.
    id: String(p.id),
    title: p.title ?? '',
    description: p.description ?? '',
    logic: p.logic ?? null,
    questions: (p.questions ?? [])
      .filter((q: any) => {
        if (supported(q)) return true;
        skipped.push({
          kind: 'question',
          name: `${details.title} / ${headingOf(q) || q.id}`,
          reason: `question type ${q.family}/${q.subtype} is not available here`,
        });
        return false;
      })
      .map((q: any) => {
        const input: Record<string, unknown> = { family: q.family, subtype: q.subtype };
        for (const [k, v] of Object.entries(q)) if (!PRESENTED.has(k) && v !== null) input[k] = v;
        return input;
      }),
  })) as BlueprintPage[];
}

/** Source id -> local id for every page, question and answer option (choice, row, column, other). */
export function pairDesign(
  details: any,
  local: { pages: DesignPage[]; questions: Map<string, DesignQuestion[]> },
): { page: Array<[string, string]>; question: Array<[string, string]>; answer: Array<[string, string]> } {
  const out = {
    page: [] as Array<[string, string]>,
    question: [] as Array<[string, string]>,
    answer: [] as Array<[string, string]>,
  };
  const pairAnswers = (src: any, loc: any) => {
    if (!src || !loc) return;
    for (const key of ANSWER_LISTS) {
      const s: any[] = src[key] ?? [];
      const l: any[] = loc[key] ?? [];
      s.forEach((item, i) => {
        if (!l[i]) return;
        if (item.id && l[i].id) out.answer.push([String(item.id), String(l[i].id)]);
        if (key === 'cols') pairAnswers(item, l[i]);
      });
    }
    if (src.other?.id && loc.other?.id) out.answer.push([String(src.other.id), String(loc.other.id)]);
  };
  (details.pages ?? []).forEach((p: any, i: number) => {
    const lp = local.pages[i];
    if (!lp) return;
    out.page.push([String(p.id), lp.id]);
    const lqs = local.questions.get(lp.id) ?? [];
    (p.questions ?? []).filter(supported).forEach((q: any, j: number) => {
      const lq = lqs[j];
      if (!lq) return;
      out.question.push([String(q.id), lq.id]);
      pairAnswers(q.answers, lq.doc.answers);
    });
  });
  return out;
}
