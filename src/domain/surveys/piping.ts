// Piping: a question's heading, description or choice text may recall something the respondent
// told before. The text is stored as written (the API returns it unchanged) and substituted only on
// the respondent's page (domain/responses/recall.ts gives the values). The syntax is
// SurveyMonkey's, so imported surveys keep their piping (docs/api-extensions.md):
//   [question("value"), id="<question id>"]   the answer to an earlier question
//   [contact("first_name")]                    first_name, last_name or email of the invitation
//   [custom_variable("name")]                  a custom variable of the survey link
// each optionally ending `, fallback="text"` (shown when there is nothing to recall).
import type { StoredQuestion } from './question-schema.js';

export interface PipeRef {
  kind: 'question' | 'contact' | 'custom_variable';
  /** the question id, the contact field or the variable's name */
  key: string;
  fallback: string;
}

const PIPE =
  /\[(question|contact|custom_variable)\("([^"\]]*)"\)(?:,\s*id="([0-9]{1,20})")?(?:,\s*fallback="([^"\]]*)")?\]/g;

export const CONTACT_FIELDS = ['first_name', 'last_name', 'email'] as const;

/** The text cut into literal parts and recalls, in order. */
export function splitPipes(text: string): Array<string | PipeRef> {
  const out: Array<string | PipeRef> = [];
  let last = 0;
  for (const m of text.matchAll(PIPE)) {
    const [whole, kind, arg, id, fallback] = m;
    // `question("value")` names what is recalled; the id says which question.
    if (kind === 'question' && id === undefined) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
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
