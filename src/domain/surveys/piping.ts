// Piping: a question's heading, description or choice text may recall something the respondent
// told before. The text is stored as written (the API returns it unchanged) and substituted only on
// the respondent's page (domain/responses/recall.ts gives the values). The syntax is
// SurveyMonkey's, so imported surveys keep their piping (docs/api-extensions.md):
//   [question("value"), id="<question id>"]   the answer to an earlier question
//   [contact("first_name")]                    first_name, last_name, email or custom_1..custom_6
//                                              (the contact's custom fields) of the invitation
//   [custom_variable("name")]                  a custom variable of the survey link
//   [variable("name")]                         a calculated variable (calculated.ts), as a number
// each optionally ending `, fallback="text"` (shown when there is nothing to recall). SurveyMonkey's
// contact merge tags [FirstName], [LastName] and [Email] are the same as contact("first_name") etc.
// A bracket that starts like a recall but names nothing (`[question(1)]`, a question recall without
// its id) is refused where the text is saved (checkRecallSyntax), never shown literally.
import { ApiError } from '../../platform/errors.js';
import type { StoredQuestion } from './question-schema.js';

export interface PipeRef {
  kind: 'question' | 'contact' | 'custom_variable' | 'variable';
  /** the question id, the contact field or the variable's name */
  key: string;
  fallback: string;
}

const PIPE =
  /\[(?:(question|contact|custom_variable|variable)\("([^"\]]*)"\)(?:,\s*id="([0-9]{1,20})")?(?:,\s*fallback="([^"\]]*)")?|(FirstName|LastName|Email))\]/g;

export const CONTACT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'custom_1',
  'custom_2',
  'custom_3',
  'custom_4',
  'custom_5',
  'custom_6',
] as const;

/** SurveyMonkey's merge tags for the invitation's contact, as SurveyMonkey spells them. */
const MERGE_TAGS: Readonly<Record<string, (typeof CONTACT_FIELDS)[number]>> = {
  FirstName: 'first_name',
  LastName: 'last_name',
  Email: 'email',
};

/** How owners read each contact field (labels, the builder's picker). */
export const CONTACT_LABELS: Readonly<Record<(typeof CONTACT_FIELDS)[number], string>> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  // a contact's custom fields "1".."6" (the recipient's custom_fields)
  custom_1: 'Custom field 1',
  custom_2: 'Custom field 2',
  custom_3: 'Custom field 3',
  custom_4: 'Custom field 4',
  custom_5: 'Custom field 5',
  custom_6: 'Custom field 6',
};

/** The text cut into literal parts and recalls, in order. */
export function splitPipes(text: string): Array<string | PipeRef> {
  const out: Array<string | PipeRef> = [];
  let last = 0;
  for (const m of text.matchAll(PIPE)) {
    const [whole, kind, arg, id, fallback, tag] = m;
    // `question("value")` names what is recalled; the id says which question.
    if (kind === 'question' && id === undefined) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    if (tag !== undefined) out.push({ kind: 'contact', key: MERGE_TAGS[tag], fallback: '' });
    else
      out.push({
        kind: kind as PipeRef['kind'],
        key: kind === 'question' ? id : arg,
        fallback: fallback ?? '',
      });
    last = m.index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export const hasPipes = (text: string | undefined): boolean =>
  text !== undefined && splitPipes(text).some((p) => typeof p !== 'string');

/** Every text of a question that may pipe, with its field (for error messages). */
export function pipedTexts(doc: StoredQuestion): Array<{ field: string; text: string }> {
  const out: Array<{ field: string; text: string }> = [];
  doc.headings.forEach((h, i) => {
    out.push({ field: `headings[${i}].heading`, text: h.heading });
    if (h.description) out.push({ field: `headings[${i}].description`, text: h.description });
  });
  doc.answers?.choices?.forEach((c, i) => {
    out.push({ field: `answers.choices[${i}].text`, text: c.text });
  });
  return out;
}

/** A question's recalls, with the field each sits in. */
export function questionPipes(doc: StoredQuestion): Array<{ field: string; ref: PipeRef }> {
  const out: Array<{ field: string; ref: PipeRef }> = [];
  for (const t of pipedTexts(doc))
    for (const p of splitPipes(t.text)) if (typeof p !== 'string') out.push({ field: t.field, ref: p });
  return out;
}

/** The recalls in a page's title and description, with their fields. */
export function pagePipes(page: {
  title?: string;
  description?: string;
}): Array<{ field: string; ref: PipeRef }> {
  const out: Array<{ field: string; ref: PipeRef }> = [];
  for (const field of ['title', 'description'] as const)
    for (const p of splitPipes(page[field] ?? '')) if (typeof p !== 'string') out.push({ field, ref: p });
  return out;
}

/** The text with each question recall's id replaced by its new id in `ids` (a copy or an import
 * gives its questions new ids); a recall of a question not in `ids` is kept as written. */
export function remapPipes(text: string, ids: ReadonlyMap<string, string>): string {
  return text.replace(PIPE, (whole: string, kind: string, _arg: string, id: string | undefined) => {
    const to = kind === 'question' && id !== undefined ? ids.get(id) : undefined;
    return to ? whole.replace(`id="${id}"`, `id="${to}"`) : whole;
  });
}

/** A question's design with the recalls in its headings, descriptions and choices remapped. */
export function remapQuestionPipes(doc: StoredQuestion, ids: ReadonlyMap<string, string>): StoredQuestion {
  const map = (t: string) => remapPipes(t, ids);
  return {
    ...doc,
    headings: doc.headings.map((h) => ({
      ...h,
      heading: map(h.heading),
      ...(h.description !== undefined && { description: map(h.description) }),
    })),
    ...(doc.answers?.choices && {
      answers: { ...doc.answers, choices: doc.answers.choices.map((c) => ({ ...c, text: map(c.text) })) },
    }),
  };
}

/** The recall syntax for what an owner picked (the builder's "Insert answer from…"). */
export function recallSyntax(ref: Pick<PipeRef, 'kind' | 'key'>): string {
  return ref.kind === 'question' ? `[question("value"), id="${ref.key}"]` : `[${ref.kind}("${ref.key}")]`;
}

/** Where a bracket starts something that reads as a recall: `[name(`. */
const RECALL_START = /\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;

/**
 * 400/1002 naming the field when a text has a bracket that starts like a recall but is not one
 * (`[question(1)]`, `[question("value")]` without its id, `[answer("x")]`): saved, it would show
 * literally to every respondent. What a well-formed recall names is checked by the callers
 * (display-logic.ts: an earlier question, a contact field, a declared custom variable).
 */
export function checkRecallSyntax(texts: ReadonlyArray<{ field: string; text: string }>): void {
  for (const { field, text } of texts) {
    const recalls = new Set<number>();
    for (const p of text.matchAll(PIPE))
      if (!(p[1] === 'question' && p[3] === undefined)) recalls.add(p.index);
    for (const m of text.matchAll(RECALL_START)) {
      if (recalls.has(m.index)) continue;
      const end = text.indexOf(']', m.index);
      const written = text.slice(m.index, end < 0 ? m.index + 40 : end + 1);
      throw new ApiError(
        1002,
        `'${field}': ${written} does not name anything to recall. Recall an earlier answer with [question("value"), id="<question id>"], the invitation's contact with [contact("first_name")] (or last_name, email; [FirstName], [LastName], [Email]), a custom variable with [custom_variable("name")], or a calculated variable with [variable("name")]; the builder's "Insert answer from…" writes them for you.`,
      );
    }
  }
}

/** The question numbers owners see (Q1, Q2, …: text blocks are not numbered), by question id. */
export function questionNumbers(
  pages: ReadonlyArray<{ questions: ReadonlyArray<{ id: string; family: string }> }>,
): Map<string, number> {
  const out = new Map<string, number>();
  let n = 0;
  for (const p of pages) for (const q of p.questions) if (q.family !== 'presentation') out.set(q.id, ++n);
  return out;
}

/** How a recall reads to an owner: "[answer to Q2]", "[First name]", "[custom variable src]". */
export function recallLabel(ref: PipeRef, numbers: ReadonlyMap<string, number>): string {
  if (ref.kind === 'contact')
    return `[${CONTACT_LABELS[ref.key as (typeof CONTACT_FIELDS)[number]] ?? ref.key}]`;
  if (ref.kind === 'custom_variable') return `[custom variable ${ref.key}]`;
  if (ref.kind === 'variable') return `[calculated ${ref.key}]`;
  const n = numbers.get(ref.key);
  return n === undefined ? '[answer to a deleted question]' : `[answer to Q${n}]`;
}

/**
 * The text with every recall written as an owner reads it (recallLabel), for every owner-facing
 * place: analyze, exports, shared results, the builder's logic labels. The rest is kept as is.
 */
export function readableRecalls(text: string, numbers: ReadonlyMap<string, number>): string {
  if (!text.includes('[')) return text;
  return splitPipes(text)
    .map((p) => (typeof p === 'string' ? p : recallLabel(p, numbers)))
    .join('');
}

/** One entry of the builder's "Insert answer from…" list. */
export interface RecallChoice {
  group: 'Earlier questions' | 'Contact (email invitations)' | 'Custom variables' | 'Calculated variables';
  label: string;
  syntax: string;
}

/**
 * What a question on page `pageIndex` may recall: the questions of earlier pages (text blocks
 * have no answer), the invitation's contact fields and the survey's custom variables.
 */
export function recallChoices(
  pages: ReadonlyArray<{
    questions: ReadonlyArray<{ id: string; family: string; heading: string }>;
  }>,
  pageIndex: number,
  customVariables: readonly string[],
  calculated: readonly string[] = [],
): RecallChoice[] {
  const numbers = questionNumbers(pages);
  const out: RecallChoice[] = [];
  for (const p of pages.slice(0, Math.max(0, pageIndex)))
    for (const q of p.questions) {
      const n = numbers.get(q.id);
      if (n === undefined) continue;
      const heading = readableRecalls(q.heading, numbers)
        .replace(/<[^>]*>/g, '')
        .trim();
      const short = heading.length > 50 ? `${heading.slice(0, 50)}…` : heading;
      out.push({
        group: 'Earlier questions',
        label: `Q${n}${short ? `: ${short}` : ''}`,
        syntax: recallSyntax({ kind: 'question', key: q.id }),
      });
    }
  for (const field of CONTACT_FIELDS)
    out.push({
      group: 'Contact (email invitations)',
      label: CONTACT_LABELS[field],
      syntax: recallSyntax({ kind: 'contact', key: field }),
    });
  for (const name of customVariables)
    out.push({
      group: 'Custom variables',
      label: name,
      syntax: recallSyntax({ kind: 'custom_variable', key: name }),
    });
  for (const name of calculated)
    out.push({
      group: 'Calculated variables',
      label: name,
      syntax: recallSyntax({ kind: 'variable', key: name }),
    });
  return out;
}
