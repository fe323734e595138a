// Which questions are Net Promoter Score questions: a one-row rating whose choices weigh 0..10
// (the shape of the NPS template question). The respondent page draws them as a 0–10 scale and
// the analyze page computes the score from them.
import type { StoredQuestion } from './question-schema.js';

export function isNpsQuestion(q: { family: string; subtype: string; doc: StoredQuestion }): boolean {
  if (q.family !== 'matrix' || q.subtype !== 'rating') return false;
  const a = q.doc.answers;
  if ((a?.rows ?? []).filter((r) => r.visible).length !== 1) return false;
  const weights = (a?.choices ?? []).map((c) => c.weight ?? -1).sort((x, y) => x - y);
  return weights.length === 11 && weights.every((w, i) => w === i);
}
