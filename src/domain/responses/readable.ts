// An answer in readable form: the texts of its row, column and choice joined with the typed text,
// as the API's `simple=true` gives it (`simple_text`) and the responses page shows it.
import type { Choice } from '../surveys/question-schema.js';
import type { DesignIndex, IndexedQuestion } from './design-index.js';

/** A choice's name: its text, or for the textless choices of star and 0–10 ratings, the weight
 * that names it ("4 stars", "9"). */
export function choiceLabel(q: IndexedQuestion, c: Choice): string {
  if (c.text) return c.text;
  const w = c.weight ?? c.position;
  return q.displayType === 'emoji' ? `${w} ${symbolNoun(q, w)}` : String(w);
}

function symbolNoun(q: IndexedQuestion, n: number): string {
  const kind = q.doc.display_options?.display_subtype ?? 'star';
  const noun = ['heart', 'thumb', 'smiley'].includes(kind) ? kind : 'star';
  return n === 1 ? noun : `${noun}s`;
}

export function answerText(index: DesignIndex, questionId: string, a: Record<string, unknown>): string {
  const q = index.questions.get(questionId);
  if (!q) return String(a.text ?? '');
  if (a.other_id !== undefined) return String(a.text ?? '');
  const parts: string[] = [];
  if (a.row_id !== undefined) parts.push(q.rows.get(a.row_id as string)?.text ?? '');
  if (a.col_id !== undefined) {
    const col = q.cols.get(a.col_id as string);
    parts.push(col?.col.text ?? '');
    if (a.choice_id !== undefined) parts.push(col?.choices.get(a.choice_id as string)?.text ?? '');
  } else if (a.choice_id !== undefined) {
    const choice = q.choices.get(a.choice_id as string);
    parts.push(choice ? choiceLabel(q, choice) : '');
  }
  if (a.text !== undefined) parts.push(String(a.text));
  return parts.filter((p) => p !== '').join(' | ');
}
