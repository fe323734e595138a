// Formbricks: a survey as its management API returns it (GET /api/v1/management/surveys/{id},
// under `data`) and its responses (GET /api/v1/management/responses?surveyId=…, `data` a list; or
// several such bodies in an array), converted to the details and bulk responses the importer
// copies. Labels are i18n objects ({default, de, …}): the default is the survey's text.
import { type Static, Type } from 'typebox';
import type { Logic } from '../../surveys/question-schema.js';
import type { ConvertedSurvey, Converter } from './converted.js';
import {
  Answers,
  checked,
  idMaker,
  Opt,
  Pager,
  parseJson,
  plain,
  Q,
  Report,
  type SmAnswer,
  type SmChoice,
  type SmDetails,
  type SmPage,
  type SmQuestion,
  type SmResponse,
  type SmRow,
  scaleChoices,
  usDate,
  variableName,
} from './shape.js';

const Str = Type.String();
const Bool = Type.Boolean();
const I18n = Type.Union([Str, Type.Record(Str, Str)]);
const Labelled = Type.Union([I18n, Type.Object({ id: Opt(Str), label: I18n })]);
const FbQuestion = Type.Object({
  id: Type.String({ minLength: 1 }),
  type: Str,
  headline: I18n,
  subheader: Opt(I18n),
  required: Opt(Bool),
  choices: Opt(Type.Array(Type.Object({ id: Str, label: Opt(I18n), imageUrl: Opt(Str) }))),
  scale: Opt(Str),
  range: Opt(Type.Integer({ minimum: 1, maximum: 20 })),
  longAnswer: Opt(Bool),
  allowMulti: Opt(Bool),
  rows: Opt(Type.Array(Labelled)),
  columns: Opt(Type.Array(Labelled)),
  label: Opt(I18n),
  html: Opt(I18n),
  logic: Opt(Type.Array(Type.Unknown())),
  logicFallback: Opt(Str),
});
type FbQuestion = Static<typeof FbQuestion>;
const FbSurvey = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Str,
  createdAt: Opt(Str),
  updatedAt: Opt(Str),
  questions: Type.Array(Type.Unknown()),
  hiddenFields: Opt(Type.Object({ enabled: Opt(Bool), fieldIds: Opt(Type.Array(Str)) })),
  variables: Opt(Type.Array(Type.Object({ id: Str, name: Str }))),
  endings: Opt(Type.Array(Type.Object({ id: Str, type: Opt(Str) }))),
  welcomeCard: Opt(Type.Object({ enabled: Opt(Bool) })),
  languages: Opt(Type.Array(Type.Object({ default: Opt(Bool), language: Type.Object({ code: Str }) }))),
});
const NewRule = Type.Object({
  conditions: Type.Object({
    connector: Opt(Str),
    conditions: Type.Array(
      Type.Object({
        leftOperand: Opt(Type.Object({ type: Str, value: Str })),
        operator: Opt(Str),
        rightOperand: Opt(Type.Object({ type: Str, value: Type.Unknown() })),
      }),
    ),
  }),
  actions: Type.Array(Type.Object({ objective: Str, target: Opt(Str) })),
});
const OldRule = Type.Object({ condition: Str, value: Opt(Type.Unknown()), destination: Str });
const FbResponse = Type.Object({
  id: Type.String({ minLength: 1 }),
  createdAt: Str,
  updatedAt: Opt(Str),
  finished: Opt(Bool),
  data: Opt(Type.Record(Str, Type.Unknown())),
  variables: Opt(Type.Record(Str, Type.Unknown())),
});
type FbResponse = Static<typeof FbResponse>;
const Envelope = Type.Object({ data: Type.Unknown() });

type Reader = (v: unknown) => SmAnswer[] | string;
/** A row's or column's label: an i18n label, or an object holding one. */
const i18nOf = (x: Static<typeof Labelled>): Static<typeof I18n> =>
  typeof x === 'object' && 'label' in x ? x.label : x;
const ADDRESS = ['address', 'address2', 'city', 'state', 'zip', 'country'];
const ADDRESS_LABELS = ['Address', 'Address line 2', 'City', 'State', 'ZIP', 'Country'];
const CONTACT = ['First name', 'Last name', 'Email', 'Phone', 'Company'];
const EMOJI: Record<string, 'star' | 'smiley'> = { star: 'star', smiley: 'smiley' };
const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;

class FormbricksConversion {
  readonly id: (...key: string[]) => string;
  readonly report: Report;
  readonly pager: Pager;
  readonly readers = new Map<string, { question: string; title: string; read: Reader }>();
  private readonly questionOf = new Map<string, SmQuestion>();
  private readonly sourceOf = new Map<string, FbQuestion>();
  private readonly languages = new Set<string>();
  private ctaAnswers = 0;

  constructor(readonly survey: Static<typeof FbSurvey>) {
    this.id = idMaker(`formbricks:${survey.id}`);
    this.report = new Report(survey.name);
    this.pager = new Pager((n) => this.id('page', String(n)));
  }

  /** An i18n label's default text (other languages noted, to be reported once). */
  text = (l: Static<typeof I18n> | null | undefined): string => {
    if (l === null || l === undefined) return '';
    if (typeof l === 'string') return plain(l);
    for (const k of Object.keys(l)) if (k !== 'default') this.languages.add(k);
    return plain(l.default ?? Object.values(l)[0]);
  };
  private labelOf = (x: Static<typeof Labelled>) => this.text(i18nOf(x));
  /** Every language's text of a label (a response holds the respondent's language's). */
  private every = (l: Static<typeof I18n> | null | undefined): string[] =>
    l === null || l === undefined ? [] : typeof l === 'string' ? [l] : Object.values(l);

  addQuestions() {
    const questions = this.survey.questions.map((raw, i) =>
      checked(FbQuestion, raw, `the survey's question ${i}`),
    );
    const targets = new Set<string>();
    for (const q of questions) {
      if (q.logicFallback) targets.add(q.logicFallback);
      for (const l of q.logic ?? []) {
        const rule = checked(Type.Union([NewRule, OldRule]), l, `the logic of question ${q.id}`);
        if ('actions' in rule) {
          for (const a of rule.actions) if (a.target) targets.add(a.target);
        } else targets.add(rule.destination);
      }
    }
    for (const f of questions) {
      const q = this.question(f);
      if (!q) continue;
      this.pager.add(q, { startsPage: targets.has(f.id) });
      this.questionOf.set(f.id, q);
      this.sourceOf.set(q.id, f);
      if ((f.logic ?? []).length > 0 || f.logicFallback) this.pager.close();
    }
  }

  private question(f: FbQuestion): SmQuestion | null {
    const title = this.text(f.headline) || f.type;
    const qid = this.id('question', f.id);
    const on = (read: Reader) => this.readers.set(f.id, { question: qid, title, read });
    const row = this.id('row', f.id);
    switch (f.type) {
      case 'openText':
        on((v) => (typeof v === 'string' || typeof v === 'number' ? [{ text: String(v) }] : 'not a text'));
        return Q.text(qid, title, !!f.longAnswer, f.required);
      case 'multipleChoiceSingle':
      case 'multipleChoiceMulti':
      case 'pictureSelection':
        return this.choice(f, qid, title);
      case 'rating':
      case 'nps': {
        const [from, to] = f.type === 'nps' ? [0, 10] : [1, f.range ?? 5];
        const choices = scaleChoices((v) => this.id('choice', f.id, String(v)), from, to);
        on((v) => {
          const c = choices.find((x) => x.weight === Number(v));
          return c ? [{ row_id: row, choice_id: c.id }] : `${String(v)} is off the scale`;
        });
        return Q.scale(
          qid,
          title,
          row,
          choices,
          f.type === 'rating' ? EMOJI[f.scale ?? ''] : undefined,
          f.required,
        );
      }
      case 'cta':
        on(() => {
          this.ctaAnswers += 1;
          return [];
        });
        return Q.statement(qid, title, this.text(f.html));
      case 'consent':
      case 'cal': {
        const choice = {
          id: this.id('choice', f.id),
          text: f.type === 'cal' ? 'Booked' : this.text(f.label) || 'I agree',
        };
        const yes = f.type === 'cal' ? 'booked' : 'accepted';
        on((v) =>
          v === yes
            ? [{ choice_id: choice.id }]
            : v === '' || v === 'dismissed'
              ? []
              : `"${String(v)}" is not "${yes}"`,
        );
        return Q.choice(qid, title, { choices: [choice] }, f.required);
      }
      case 'date':
        on((v) => (typeof v === 'string' ? [{ row_id: row, text: usDate(v) }] : 'not a date'));
        return Q.date(qid, title, row, 'date_only', f.required);
      case 'fileUpload':
        this.report.skip(
          'question',
          title,
          'the uploaded files stay at Formbricks: each answer keeps the links to its files',
        );
        on((v) => {
          const urls = strings(v);
          return urls ? [{ text: urls.join('\n') }] : 'not a list of files';
        });
        return Q.text(qid, title, false, f.required);
      case 'matrix':
        return this.matrix(f, qid, title);
      case 'address':
      case 'contactInfo': {
        const address = f.type === 'address';
        const rows: SmRow[] = (address ? ADDRESS_LABELS : CONTACT).map((text, i) => ({
          id: this.id('row', f.id, String(i)),
          text,
          ...(address ? { type: ADDRESS[i] } : {}),
        }));
        on((v) => {
          const parts = strings(v);
          if (!parts) return 'not a list of parts';
          return parts.flatMap((text, i) => (text && rows[i] ? [{ row_id: rows[i].id, text }] : []));
        });
        return address
          ? Q.address(qid, title, rows, f.required)
          : Q.boxes(qid, title, rows, false, f.required);
      }
      case 'ranking': {
        const items = (f.choices ?? []).map((c) => ({
          id: this.id('choice', f.id, c.id),
          text: this.text(c.label),
        }));
        const q = Q.ranking(qid, title, items, (i) => this.id('rank', f.id, String(i)));
        const labels = (f.choices ?? []).map((c) => this.every(c.label));
        on((v) => {
          const order = strings(v);
          if (!order) return 'not a ranking';
          const out: SmAnswer[] = [];
          for (const [i, label] of order.entries()) {
            const at = labels.findIndex((l) => l.includes(label));
            if (at < 0) return `"${label}" is not an item to rank`;
            out.push({ row_id: items[at].id, choice_id: q.answers!.choices![i].id });
          }
          return out;
        });
        return q;
      }
      default:
        this.report.skip('question', title, `Formbricks' ${f.type} questions have no counterpart here`);
        on(() => `its question (${f.type}) was not carried over`);
        return null;
    }
  }

  private choice(f: FbQuestion, qid: string, title: string): SmQuestion {
    const pictures = f.type === 'pictureSelection';
    const all = f.choices ?? [];
    const listed = all.filter((c) => c.id !== 'other');
    const choices: SmChoice[] = listed.map((c, i) => ({
      id: this.id('choice', f.id, c.id),
      text: pictures ? `Picture ${i + 1}` : this.text(c.label),
      ...(pictures && c.imageUrl ? { image: { url: c.imageUrl } } : {}),
    }));
    const hasOther = !pictures && all.some((c) => c.id === 'other');
    const other = hasOther
      ? { id: this.id('other', f.id), text: this.text(all.find((c) => c.id === 'other')?.label) || 'Other' }
      : undefined;
    const multi = f.type === 'multipleChoiceMulti' || (pictures && !!f.allowMulti);
    this.readers.set(f.id, {
      question: qid,
      title,
      read: (v) => {
        const picked = typeof v === 'string' ? [v] : strings(v);
        if (!picked) return 'not a choice';
        const out: SmAnswer[] = [];
        for (const p of picked) {
          const i = listed.findIndex((c) => (pictures ? c.id === p : this.every(c.label).includes(p)));
          if (i >= 0) out.push({ choice_id: choices[i].id });
          else if (other && p !== '') out.push({ other_id: other.id, text: p });
          else if (p !== '') return `"${p}" is not one of its choices`;
        }
        return out;
      },
    });
    return Q.choice(qid, title, { multi, choices, other, images: pictures }, f.required);
  }

  private matrix(f: FbQuestion, qid: string, title: string): SmQuestion {
    const rows = (f.rows ?? []).map((r, i) => ({
      id: this.id('row', f.id, String(i)),
      text: this.labelOf(r),
    }));
    const cols = (f.columns ?? []).map((c, i) => ({
      id: this.id('col', f.id, String(i)),
      text: this.labelOf(c),
    }));
    const all = (x: Static<typeof Labelled>) => this.every(i18nOf(x));
    const rowTexts = (f.rows ?? []).map(all);
    const colTexts = (f.columns ?? []).map(all);
    this.readers.set(f.id, {
      question: qid,
      title,
      read: (v) => {
        if (!v || typeof v !== 'object' || Array.isArray(v)) return 'not a row-to-column map';
        const out: SmAnswer[] = [];
        for (const [r, c] of Object.entries(v)) {
          if (c === '' || c === null) continue;
          const ri = rowTexts.findIndex((t) => t.includes(r));
          const ci = colTexts.findIndex((t) => t.includes(String(c)));
          if (ri < 0 || ci < 0) return `"${r}: ${String(c)}" is not a cell of the matrix`;
          out.push({ row_id: rows[ri].id, choice_id: cols[ci].id });
        }
        return out;
      },
    });
    return Q.grid(qid, title, rows, cols, false, f.required);
  }

  /** Jumps to a later question or an ending, on a choice or always, as skip logic. */
  applyLogic() {
    const endings = new Set((this.survey.endings ?? []).map((e) => e.id));
    const destination = (from: SmPage, target: string): Logic | string => {
      if (endings.has(target) || target === 'end') return { action: 'end_survey' };
      const q = this.questionOf.get(target);
      const page = q && this.pager.pageOf.get(q.id);
      if (!page || this.pager.pages.indexOf(page) <= this.pager.pages.indexOf(from))
        return 'a jump back or to a question left out is not carried over';
      return { action: 'go_to_page', page_id: page.id };
    };
    for (const [qid, f] of this.sourceOf) {
      const q = this.questionOf.get(f.id)!;
      const page = this.pager.pageOf.get(qid)!;
      const title = this.text(f.headline);
      for (const raw of f.logic ?? []) {
        const why = this.rule(f, q, page, raw, destination);
        if (why) this.report.skip('logic', title, why);
      }
      if (f.logicFallback) {
        const to = destination(page, f.logicFallback);
        if (typeof to === 'string') this.report.skip('logic', title, to);
        else page.logic = to;
      }
    }
  }

  private rule(
    f: FbQuestion,
    q: SmQuestion,
    page: SmPage,
    raw: unknown,
    destination: (from: SmPage, target: string) => Logic | string,
  ): string | null {
    const rule = checked(Type.Union([NewRule, OldRule]), raw, `the logic of question ${f.id}`);
    let op: string;
    let value: unknown;
    let target: string | undefined;
    if ('actions' in rule) {
      const conds = rule.conditions.conditions;
      const jump = rule.actions.find((a) => a.objective === 'jumpToQuestion');
      const others = rule.actions.filter((a) => a.objective !== 'jumpToQuestion');
      if (others.length > 0 && !jump)
        return `its ${others.map((a) => a.objective).join(', ')} action is not carried over`;
      if (conds.length !== 1 || conds[0].leftOperand?.value !== f.id)
        return 'a rule on several conditions or on another question is not carried over';
      op = conds[0].operator ?? '';
      value = conds[0].rightOperand?.value;
      target = jump?.target ?? undefined;
      if (others.length > 0)
        this.report.skip(
          'logic',
          this.text(f.headline),
          `its ${others.map((a) => a.objective).join(', ')} action is not carried over`,
        );
    } else {
      op = rule.condition === 'submitted' ? 'isSubmitted' : rule.condition;
      value = rule.value;
      target = rule.destination;
    }
    if (!target) return null;
    const to = destination(page, target);
    if (typeof to === 'string') return to;
    if (op === 'isSubmitted' && f.required) {
      if (page.logic) return 'a second jump after the question is not carried over';
      page.logic = to;
      return null;
    }
    if ((op === 'equals' || op === 'equalsOneOf') && q.family === 'single_choice') {
      const wanted = Array.isArray(value) ? value.map(String) : [String(value)];
      const listed = (f.choices ?? []).filter((c) => c.id !== 'other');
      const picked = listed.flatMap((c, i) =>
        wanted.includes(c.id) || this.every(c.label).some((l) => wanted.includes(l)) ? [i] : [],
      );
      if (picked.length > 0) {
        for (const i of picked) q.answers!.choices![i].logic = to;
        return null;
      }
    }
    return `a jump on "${op}" is not carried over (only a choice picked, or the question answered)`;
  }

  response(r: FbResponse, pages: SmPage[]): SmResponse {
    const out = new Answers();
    const vars: Record<string, string> = {};
    const hidden = new Set(this.survey.hiddenFields?.fieldIds ?? []);
    for (const [key, v] of Object.entries(r.data ?? {})) {
      if (hidden.has(key)) {
        vars[variableName(key)] = String(v ?? '');
        continue;
      }
      const reader = this.readers.get(key);
      const got = reader ? reader.read(v) : 'its question is not in the survey';
      if (typeof got === 'string' || !reader) {
        this.report.skip(
          'answer',
          `response ${r.id}`,
          `its answer to "${reader?.title ?? key}" was not carried over: ${got}`,
        );
        continue;
      }
      out.add(reader.question, ...got);
    }
    const names = new Map((this.survey.variables ?? []).map((x) => [x.id, x.name]));
    for (const [k, v] of Object.entries(r.variables ?? {}))
      vars[variableName(names.get(k) ?? k)] = String(v ?? '');
    return {
      id: r.id,
      date_created: r.createdAt,
      date_modified: r.updatedAt ?? r.createdAt,
      response_status: r.finished === false ? 'partial' : 'completed',
      custom_variables: vars,
      pages: out.pages(pages),
    };
  }

  settings(): string[] {
    const s = this.survey;
    if (s.welcomeCard?.enabled)
      this.report.skip('setting', 'welcome card', 'welcome cards are not carried over');
    for (const e of s.endings ?? [])
      this.report.skip(
        'setting',
        `ending ${e.id}`,
        'endings are not carried over: this service shows its own',
      );
    if (this.languages.size > 0)
      this.report.skip(
        'setting',
        'translations',
        `the texts in ${[...this.languages].sort().join(', ')} are not carried over: the default language's are`,
      );
    if (this.ctaAnswers > 0)
      this.report.skip(
        'answer',
        'call to action',
        `${this.ctaAnswers} clicks and dismissals of its calls to action are not carried over`,
      );
    const names = [...(s.hiddenFields?.fieldIds ?? []), ...(s.variables ?? []).map((v) => v.name)];
    if (names.length > 0)
      this.report.skip(
        'setting',
        'hidden fields and variables',
        "kept as custom variables holding each response's value; variables are not recalculated here",
      );
    return names.map(variableName);
  }
}

/** The body of a management API answer: its `data`, or the document itself. */
const unwrap = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v) && 'data' in v ? checked(Envelope, v, 'the file').data : v;

export const formbricks: Converter = {
  tool: 'formbricks',
  async convert({ file, responses }): Promise<ConvertedSurvey> {
    const survey = checked(
      FbSurvey,
      unwrap(parseJson(file, 'the survey file')),
      'the survey file (GET /api/v1/management/surveys/{id})',
    );
    const c = new FormbricksConversion(survey);
    c.addQuestions();
    c.applyLogic();
    const pages = c.pager.result();
    let items: FbResponse[] = [];
    if (responses) {
      const body = unwrap(parseJson(responses, 'the responses file'));
      const list = Array.isArray(body)
        ? body.flatMap((x) => (x && typeof x === 'object' && 'data' in x ? [unwrap(x)].flat() : [x]))
        : [body];
      items = list.map((r, i) => checked(FbResponse, r, `response ${i + 1}`));
    }
    const converted = items.map((r) => c.response(r, pages));
    const details: SmDetails = {
      id: survey.id,
      title: survey.name,
      language: 'en',
      custom_variables: Object.fromEntries(c.settings().map((n) => [n, ''])),
      pages,
      ...(survey.createdAt ? { date_created: survey.createdAt } : {}),
      ...(survey.updatedAt ? { date_modified: survey.updatedAt } : {}),
    };
    return { id: survey.id, details, responses: converted, skipped: c.report.skipped };
  },
};
