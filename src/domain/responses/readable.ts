// An answer in readable form: the texts of its row, column and choice joined with the typed text,
// as the API's `simple=true` gives it (`simple_text`) and the responses page shows it.
import type { DesignIndex } from './design-index.js';

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
  } else if (a.choice_id !== undefined) parts.push(q.choices.get(a.choice_id as string)?.text ?? '');
  if (a.text !== undefined) parts.push(String(a.text));
  return parts.filter((p) => p !== '').join(' | ');
}
