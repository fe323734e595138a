// Each LimeSurvey question type as the nearest question of this service, with the reader of its
// answers from a response row (the response table's columns, named by SGQA: <sid>X<gid>X<qid>
// and a suffix per subquestion, scale or comment). Whatever a type holds that has no place here
// is named in the report by the caller (`lost`).
import type { LsQuestion, LsSub, Row } from './structure.js';

export interface AnswerOut {
  choice_id?: string;
  row_id?: string;
  col_id?: string;
  other_id?: string;
  text?: string;
}

export interface MappedQuestion {
  /** As GET /v3/surveys/{id}/details presents a question (ids included). */
  question: Record<string, unknown>;
  /** The response table's columns this question's answers are read from. */
  columns: string[];
  /** The answers of one response row; `lost` names a value that has no place here. */
  read(row: Row, lost: (what: string) => void): AnswerOut[];
  /** Answer code -> choice id (single choices, for conditions on it). */
  choiceOf: Map<string, string>;
  /** Subquestion code -> choice id (multiple choice, for conditions on `Q_SQ == "Y"`). */
  subChoiceOf: Map<string, string>;
  /** single: one answer code; multi: subquestions checked; value: a text or a number. */
  kind: 'single' | 'multi' | 'value' | 'none';
}

/** A type this service has no question for: its reason for the report. */
export interface Unmapped {
  reason: string;
}

/** The text of LimeSurvey's HTML (tags dropped, the common entities decoded, spaces tidied). */
export function plain(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const FIXED: Record<string, Array<[string, string]>> = {
  '5': [1, 2, 3, 4, 5].map((n) => [String(n), String(n)]),
  A: [1, 2, 3, 4, 5].map((n) => [String(n), String(n)]),
  B: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => [String(n), String(n)]),
  C: [
    ['Y', 'Yes'],
    ['U', 'Uncertain'],
    ['N', 'No'],
  ],
  E: [
    ['I', 'Increase'],
    ['S', 'Same'],
    ['D', 'Decrease'],
  ],
  G: [
    ['F', 'Female'],
    ['M', 'Male'],
  ],
  Y: [
    ['Y', 'Yes'],
    ['N', 'No'],
  ],
};

/** LimeSurvey's names of its question types (for the report). */
export const TYPE_NAMES: Record<string, string> = {
  '1': 'array dual scale',
  '5': '5 point choice',
  A: 'array (5 point choice)',
  B: 'array (10 point choice)',
  C: 'array (yes/no/uncertain)',
  D: 'date',
  E: 'array (increase/same/decrease)',
  F: 'array',
  G: 'gender',
  H: 'array by column',
  I: 'language switch',
  K: 'multiple numerical input',
  L: 'list (radio)',
  M: 'multiple choice',
  N: 'numerical input',
  O: 'list with comment',
  P: 'multiple choice with comments',
  Q: 'multiple short text',
  R: 'ranking',
  S: 'short free text',
  T: 'long free text',
  U: 'huge free text',
  X: 'text display',
  Y: 'yes/no',
  '!': 'list (dropdown)',
  ':': 'array (numbers)',
  ';': 'array (texts)',
  '|': 'file upload',
  '*': 'equation',
  W: 'list (flexible labels, dropdown)',
  Z: 'list (flexible labels, radio)',
};

interface Ctx {
  /** A new id (numeric text, unique in the survey). */
  mint(): string;
  /** The column name prefix of a question: <sid>X<gid>X<qid>. */
  base: string;
  /** The survey's languages (the language switch's choices). */
  languages: string[];
}

const subsOf = (q: LsQuestion, scale: number): LsSub[] => q.subs.filter((s) => s.scale === scale);
const answersOf = (q: LsQuestion, scale: number) => q.answers.filter((a) => a.scale === scale);

/** The heading of a question: its text, with its help as the description. */
function headings(q: LsQuestion) {
  const heading = plain(q.text) || q.code;
  const help = plain(q.help);
  return [{ heading, ...(help ? { description: help } : {}) }];
}

function base(q: LsQuestion, id: string, family: string, subtype: string) {
  return {
    id,
    family,
    subtype,
    nickname: q.code.slice(0, 200),
    headings: headings(q),
    ...(q.mandatory
      ? { required: { text: 'This question requires an answer.', type: 'all', amount: '0' } }
      : {}),
  };
}

/** Choices from code/text pairs: the ids minted, and code -> id. */
function choices(ctx: Ctx, pairs: Array<[string, string]>, weighted = false) {
  const map = new Map<string, string>();
  const list = pairs.map(([code, text], i) => {
    const id = ctx.mint();
    map.set(code, id);
    return {
      id,
      position: i + 1,
      text: plain(text) || code,
      visible: true,
      ...(weighted ? { weight: i + 1 } : {}),
    };
  });
  return { list, map };
}

/** The question's "Other" option a respondent types into (its label as the survey set it). */
function otherOption(ctx: Ctx, q: LsQuestion) {
  return {
    id: ctx.mint(),
    text: plain(q.attributes.other_replace_text ?? '') || 'Other',
    is_answer_choice: true,
    visible: true,
    position: 0,
  };
}

function rows(ctx: Ctx, subs: Array<{ code: string; text: string }>) {
  const map = new Map<string, string>();
  const list = subs.map((s, i) => {
    const id = ctx.mint();
    map.set(s.code, id);
    return { id, position: i + 1, text: plain(s.text) || s.code, visible: true };
  });
  return { list, map };
}

const v = (row: Row, col: string) => {
  const x = row[col];
  return x === undefined ? '' : x;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** LimeSurvey's stored date (YYYY-MM-DD[ HH:MM[:SS]]) as this service's date answer. */
function dateAnswer(value: string, withTime: boolean): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?/.exec(value.trim());
  if (!m) return undefined;
  const date = `${m[2]}/${m[3]}/${m[1]}`;
  if (!withTime) return date;
  const h = Number(m[4] ?? 0);
  return `${date} ${pad(h % 12 === 0 ? 12 : h % 12)}:${m[5] ?? '00'} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The nearest question here for a LimeSurvey question, or why there is none. */
export function mapQuestion(ctx: Ctx, q: LsQuestion): MappedQuestion | Unmapped {
  const id = ctx.mint();
  const col = ctx.base;
  const none = { choiceOf: new Map<string, string>(), subChoiceOf: new Map<string, string>() };
  switch (q.type) {
    case '5':
    case 'G':
    case 'Y':
    case 'L':
    case '!':
    case 'O':
    case 'I':
    case 'W':
    case 'Z': {
      const pairs: Array<[string, string]> =
        q.type === 'I'
          ? ctx.languages.map((l) => [l, l])
          : (FIXED[q.type] ?? answersOf(q, 0).map((a) => [a.code, a.text]));
      const { list, map } = choices(ctx, pairs);
      const subtype =
        q.type === '!' || q.type === 'W' || q.type === 'I'
          ? 'menu'
          : q.type === '5' || q.type === 'Y'
            ? 'horiz'
            : 'vertical';
      const other =
        q.other && q.type !== 'O'
          ? otherOption(ctx, q)
          : q.type === 'O'
            ? { id: ctx.mint(), text: 'Comment', is_answer_choice: false, visible: true, position: 0 }
            : undefined;
      const extra = q.type === 'O' ? `${col}comment` : `${col}other`;
      return {
        question: {
          ...base(q, id, 'single_choice', subtype),
          answers: { choices: list, ...(other ? { other } : {}) },
        },
        columns: other ? [col, extra] : [col],
        kind: 'single',
        choiceOf: map,
        subChoiceOf: new Map(),
        read(row, lost) {
          const out: AnswerOut[] = [];
          const value = v(row, col);
          const text = other ? v(row, extra) : '';
          if (value === '-oth-' && other) {
            if (text !== '') out.push({ other_id: other.id, text });
            else lost(`"other" chosen without its text`);
            return out;
          }
          if (value !== '') {
            const c = map.get(value);
            if (c) out.push({ choice_id: c });
            else lost(`the answer code "${value}" is not an option of the question`);
          }
          if (q.type === 'O' && other && text !== '') out.push({ other_id: other.id, text });
          return out;
        },
      };
    }
    case 'M':
    case 'P': {
      const subs = subsOf(q, 0);
      const { list, map } = choices(
        ctx,
        subs.map((s) => [s.code, s.text]),
      );
      const other = q.other ? otherOption(ctx, q) : undefined;
      const columns = subs.map((s) => `${col}${s.code}`);
      if (other) columns.push(`${col}other`);
      if (q.type === 'P') {
        columns.push(...subs.map((s) => `${col}${s.code}comment`));
        if (other) columns.push(`${col}othercomment`);
      }
      return {
        question: {
          ...base(q, id, 'multiple_choice', 'vertical'),
          answers: { choices: list, ...(other ? { other } : {}) },
        },
        columns,
        kind: 'multi',
        choiceOf: map,
        subChoiceOf: map,
        read(row, lost) {
          const out: AnswerOut[] = [];
          for (const s of subs)
            if (v(row, `${col}${s.code}`) === 'Y') out.push({ choice_id: map.get(s.code)! });
          if (other && v(row, `${col}other`) !== '')
            out.push({ other_id: other.id, text: v(row, `${col}other`) });
          if (q.type === 'P')
            for (const name of [...subs.map((s) => `${col}${s.code}comment`), `${col}othercomment`])
              if (v(row, name) !== '')
                lost('a comment on a chosen option (this service has one comment per question)');
          return out;
        },
      };
    }
    case 'A':
    case 'B':
    case 'C':
    case 'E':
    case 'F':
    case 'H': {
      const subs = subsOf(q, 0);
      const r = rows(ctx, subs);
      const rating = q.type === 'A' || q.type === 'B';
      const c = choices(ctx, FIXED[q.type] ?? answersOf(q, 0).map((a) => [a.code, a.text]), rating);
      return {
        question: {
          ...base(q, id, 'matrix', rating ? 'rating' : 'single'),
          answers: { rows: r.list, choices: c.list },
        },
        columns: subs.map((s) => `${col}${s.code}`),
        kind: 'none',
        ...none,
        read(row, lost) {
          const out: AnswerOut[] = [];
          for (const s of subs) {
            const value = v(row, `${col}${s.code}`);
            if (value === '') continue;
            const choice = c.map.get(value);
            if (choice) out.push({ row_id: r.map.get(s.code)!, choice_id: choice });
            else lost(`the answer code "${value}" is not an option of the question`);
          }
          return out;
        },
      };
    }
    case '1': {
      const subs = subsOf(q, 0);
      const r = rows(ctx, subs);
      const scales = [0, 1].map((scale) => ({
        id: ctx.mint(),
        header:
          plain(q.attributes[scale === 0 ? 'dualscale_headerA' : 'dualscale_headerB'] ?? '') ||
          `Scale ${scale + 1}`,
        c: choices(
          ctx,
          answersOf(q, scale).map((a) => [a.code, a.text]),
        ),
      }));
      return {
        question: {
          ...base(q, id, 'matrix', 'menu'),
          answers: {
            rows: r.list,
            cols: scales.map((s, i) => ({
              id: s.id,
              position: i + 1,
              text: s.header,
              visible: true,
              choices: s.c.list,
            })),
          },
        },
        columns: subs.flatMap((s) => [`${col}${s.code}#0`, `${col}${s.code}#1`]),
        kind: 'none',
        ...none,
        read(row, lost) {
          const out: AnswerOut[] = [];
          for (const s of subs)
            scales.forEach((scale, i) => {
              const value = v(row, `${col}${s.code}#${i}`);
              if (value === '') return;
              const choice = scale.c.map.get(value);
              if (choice) out.push({ row_id: r.map.get(s.code)!, col_id: scale.id, choice_id: choice });
              else lost(`the answer code "${value}" is not an option of the question`);
            });
          return out;
        },
      };
    }
    case ':':
    case ';':
    case 'K':
    case 'Q': {
      // Arrays of numbers or texts become one text box per cell ("row / column"); multiple
      // numerical input and multiple short text one per subquestion.
      const ys = subsOf(q, 0);
      const xs = q.type === ':' || q.type === ';' ? subsOf(q, 1) : [];
      const cells = xs.length
        ? ys.flatMap((y) =>
            xs.map((x) => ({
              code: `${y.code}_${x.code}`,
              text: `${plain(y.text) || y.code} / ${plain(x.text) || x.code}`,
            })),
          )
        : ys.map((y) => ({ code: y.code, text: y.text }));
      const r = rows(ctx, cells);
      return {
        question: {
          ...base(q, id, 'open_ended', q.type === 'K' ? 'numerical' : 'multi'),
          answers: { rows: r.list },
        },
        columns: cells.map((c) => `${col}${c.code}`),
        kind: 'none',
        ...none,
        read(row) {
          return cells
            .filter((c) => v(row, `${col}${c.code}`) !== '')
            .map((c) => ({ row_id: r.map.get(c.code)!, text: v(row, `${col}${c.code}`) }));
        },
      };
    }
    case 'R': {
      // Ranking: the options are the rows, their rank the choice (1 = first).
      const options = answersOf(q, 0);
      const r = rows(
        ctx,
        options.map((a) => ({ code: a.code, text: a.text })),
      );
      const ranks = choices(
        ctx,
        options.map((_, i) => [String(i + 1), String(i + 1)]),
      );
      const columns = options.map((_, i) => `${col}${i + 1}`);
      return {
        question: { ...base(q, id, 'matrix', 'ranking'), answers: { rows: r.list, choices: ranks.list } },
        columns,
        kind: 'none',
        ...none,
        read(row, lost) {
          const out: AnswerOut[] = [];
          columns.forEach((name, i) => {
            const code = v(row, name);
            if (code === '') return;
            const option = r.map.get(code);
            if (option) out.push({ row_id: option, choice_id: ranks.map.get(String(i + 1))! });
            else lost(`the ranked code "${code}" is not an option of the question`);
          });
          return out;
        },
      };
    }
    case 'S':
    case 'T':
    case 'U':
    case 'N':
      return {
        question: base(q, id, 'open_ended', q.type === 'S' || q.type === 'N' ? 'single' : 'essay'),
        columns: [col],
        kind: 'value',
        ...none,
        read(row) {
          const value = v(row, col);
          // LimeSurvey stores numbers with trailing decimals (12.0000000000).
          const text = q.type === 'N' && /^-?\d+\.\d*$/.test(value) ? String(Number(value)) : value;
          return value === '' ? [] : [{ text }];
        },
      };
    case 'D': {
      const withTime = /[HhGgi]/.test(q.attributes.date_format ?? '');
      const rowId = ctx.mint();
      return {
        question: {
          ...base(q, id, 'datetime', withTime ? 'both' : 'date_only'),
          answers: { rows: [{ id: rowId, position: 1, text: '', visible: true }] },
        },
        columns: [col],
        kind: 'none',
        ...none,
        read(row, lost) {
          const value = v(row, col);
          if (value === '') return [];
          const text = dateAnswer(value, withTime);
          if (!text) {
            lost(`the date "${value}" is not a date`);
            return [];
          }
          return [{ row_id: rowId, text }];
        },
      };
    }
    case '|':
      return {
        question: {
          ...base(q, id, 'open_ended', 'single'),
          display_options: { display_type: 'file_upload' },
        },
        columns: [col, `${col}_filecount`],
        kind: 'none',
        ...none,
        read(row, lost) {
          const value = v(row, col);
          if (value === '' || value === '[]') return [];
          // The files stay on the LimeSurvey server (an archive holds none): their names come over as the answer's text.
          let names: string[] = [];
          try {
            const files: unknown = JSON.parse(value);
            if (Array.isArray(files))
              names = files
                .map((f) => (f && typeof f === 'object' && typeof f.name === 'string' ? f.name : ''))
                .filter(Boolean);
          } catch {}
          lost(
            'an uploaded file (the file itself is not in a LimeSurvey export; its name is kept as the answer)',
          );
          return [{ text: names.length ? names.join(', ') : value }];
        },
      };
    case 'X':
      return {
        question: base(q, id, 'presentation', 'descriptive_text'),
        columns: [],
        kind: 'none',
        ...none,
        read: () => [],
      };
    case '*':
      return {
        reason: `${TYPE_NAMES[q.type]}: a value LimeSurvey computes (${plain(q.text).slice(0, 200) || 'empty'}) has no question here; its stored values are not carried over`,
      };
    default:
      return { reason: `the LimeSurvey question type "${q.type}" is not known` };
  }
}
