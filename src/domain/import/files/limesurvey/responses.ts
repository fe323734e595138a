// A LimeSurvey responses table export (.lsr, inside a survey archive .lsa, or given apart) as the
// items of GET /v3/surveys/{id}/responses/bulk. Each row's columns are read by the questions that
// own them (questions.ts); a value with no place here and a column no question owns are reported.
import type { Skipped } from '../../design.js';
import { parseXml } from '../archive.js';
import { BadImportFile } from '../converted.js';
import type { AnswerOut, MappedQuestion } from './questions.js';
import { documentOf, fieldsOf, type Row, rowsOf } from './structure.js';

/** The columns LimeSurvey adds to every response. */
const META = new Set([
  'id',
  'submitdate',
  'lastpage',
  'startlanguage',
  'seed',
  'startdate',
  'datestamp',
  'ipaddr',
  'refurl',
  'token',
]);

export interface Placed {
  pageId: string;
  questionId: string;
  code: string;
  mapped: MappedQuestion;
}

/** A column's name as the table has it: XML names cannot start with a digit or hold '#', so the
 * export writes _1X2X3 for 1X2X3 and SQ1-0 for the dual scale's SQ1#0. */
function columnName(key: string): string {
  const k = /^_\d/.test(key) ? key.slice(1) : key;
  return /^\d+X\d+X\d+/.test(k) ? k.replace(/-(\d)$/, '#$1') : k;
}

/** LimeSurvey's date (YYYY-MM-DD HH:MM:SS, the server's time) as an instant, read as UTC. */
function when(v: string | undefined): string | undefined {
  const m = v && /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(v.trim());
  return m ? `${m[1]}T${m[2]}+00:00` : undefined;
}

export async function readResponses(
  lsr: Buffer,
  sid: string,
  title: string,
  questions: Placed[],
  /** Columns of questions reported as not carried over already. */
  accounted: Set<string>,
  skipped: Skipped[],
): Promise<unknown[]> {
  const doc = documentOf(await parseXml(lsr, 'responses file'), 'Responses', 'responses file');
  const rows = rowsOf(doc, 'responses').map((r) => {
    const out: Row = {};
    for (const [k, v] of Object.entries(r)) out[columnName(k)] = v;
    return out;
  });
  const owned = new Set(questions.flatMap((q) => q.mapped.columns));
  const fields = new Set(fieldsOf(doc, 'responses').map(columnName));
  for (const r of rows) for (const k of Object.keys(r)) fields.add(k);
  // The survey the file's columns belong to: another survey's responses answer no question here.
  const sgqa = [...fields].filter((f) => /^\d+X\d+X\d+/.test(f));
  if (sgqa.length > 0 && !sgqa.some((f) => f.startsWith(`${sid}X`)))
    throw new BadImportFile(
      `The responses file belongs to another survey than ${sid}: export the responses of the same survey.`,
    );
  const lost = new Map<string, number>();
  const count = (key: string) => lost.set(key, (lost.get(key) ?? 0) + 1);
  const out: unknown[] = [];
  let tokens = 0;
  for (const row of rows) {
    const pages = new Map<string, Array<{ id: string; answers: AnswerOut[] }>>();
    const here = new Set<string>();
    for (const q of questions) {
      // each thing lost counted once per response
      const answers = q.mapped.read(row, (what) => here.add(`${q.code}\u0000${what}`));
      if (answers.length === 0) continue;
      if (!pages.has(q.pageId)) pages.set(q.pageId, []);
      pages.get(q.pageId)!.push({ id: q.questionId, answers });
    }
    for (const key of here) count(key);
    if ((row.token ?? '') !== '' || (row.refurl ?? '') !== '') tokens++;
    const submitted = when(row.submitdate);
    out.push({
      id: row.id ?? String(out.length + 1),
      date_created: when(row.startdate) ?? when(row.datestamp) ?? submitted,
      date_modified: when(row.datestamp) ?? submitted ?? when(row.startdate),
      response_status: submitted ? 'completed' : 'partial',
      ip_address: row.ipaddr ?? '',
      pages: [...pages].map(([id, qs]) => ({ id, questions: qs })),
    });
  }
  for (const [key, n] of lost) {
    const [code, what] = key.split('\u0000');
    skipped.push({
      kind: 'answer',
      name: `${title} / ${code}`,
      reason: `${what} (${n} ${n === 1 ? 'response' : 'responses'})`,
    });
  }
  if (tokens > 0)
    skipped.push({
      kind: 'response',
      name: `${title} / participant tokens`,
      reason: `the access tokens and referrer addresses of ${tokens} responses are not carried over`,
    });
  for (const f of fields)
    if (!META.has(f) && !owned.has(f) && !accounted.has(f))
      skipped.push({
        kind: 'answer',
        name: `${title} / column ${f}`,
        reason: 'a column of the responses that no question carried over owns',
      });
  return out;
}
