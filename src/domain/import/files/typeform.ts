// Typeform: a form as its Create API returns it (GET /forms/{id}) and its responses
// (GET /forms/{id}/responses: a page body {items}, several page bodies in an array, or the items
// themselves), converted to the details and bulk responses the importer copies.
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
const Num = Type.Number();
const TfChoice = Type.Object({
  id: Opt(Str),
  ref: Opt(Str),
  label: Opt(Str),
  attachment: Opt(Type.Object({ href: Opt(Str) })),
});
const TfField = Type.Object({
  id: Str,
  ref: Opt(Str),
  title: Opt(Str),
  type: Str,
  properties: Opt(
    Type.Object({
      description: Opt(Str),
      choices: Opt(Type.Array(TfChoice)),
      allow_multiple_selection: Opt(Bool),
      allow_other_choice: Opt(Bool),
      steps: Opt(Type.Integer({ minimum: 1, maximum: 100 })),
      start_at_one: Opt(Bool),
      shape: Opt(Str),
      subfield_key: Opt(Str),
      fields: Opt(Type.Array(Type.Unknown())),
    }),
  ),
  validations: Opt(Type.Object({ required: Opt(Bool) })),
});
type TfField = Static<typeof TfField>;
const TfCondition = Type.Object({
  op: Str,
  vars: Type.Array(Type.Object({ type: Opt(Str), value: Opt(Type.Unknown()) })),
});
const TfAction = Type.Object({
  action: Str,
  details: Opt(Type.Object({ to: Opt(Type.Object({ type: Str, value: Str })) })),
  condition: TfCondition,
});
const TfForm = Type.Object({
  id: Type.String({ minLength: 1 }),
  title: Str,
  created_at: Opt(Str),
  last_updated_at: Opt(Str),
  settings: Opt(Type.Object({ language: Opt(Str) })),
  hidden: Opt(Type.Array(Str)),
  variables: Opt(Type.Record(Str, Type.Unknown())),
  welcome_screens: Opt(Type.Array(Type.Object({ title: Opt(Str) }))),
  thankyou_screens: Opt(Type.Array(Type.Object({ title: Opt(Str) }))),
  fields: Type.Array(TfField),
  logic: Opt(Type.Array(Type.Object({ type: Str, ref: Str, actions: Type.Array(TfAction) }))),
});
const TfAnswer = Type.Object({
  field: Type.Object({ id: Str, type: Opt(Str), ref: Opt(Str) }),
  type: Str,
  text: Opt(Str),
  email: Opt(Str),
  url: Opt(Str),
  file_url: Opt(Str),
  date: Opt(Str),
  phone_number: Opt(Str),
  number: Opt(Num),
  boolean: Opt(Bool),
  choice: Opt(Type.Object({ id: Opt(Str), ref: Opt(Str), label: Opt(Str), other: Opt(Str) })),
  choices: Opt(
    Type.Object({
      ids: Opt(Type.Array(Str)),
      refs: Opt(Type.Array(Str)),
      labels: Opt(Type.Array(Str)),
      other: Opt(Str),
    }),
  ),
  payment: Opt(Type.Object({ amount: Opt(Str), last4: Opt(Str), name: Opt(Str), success: Opt(Bool) })),
});
type TfAnswer = Static<typeof TfAnswer>;
const TfItem = Type.Object({
  response_id: Opt(Str),
  token: Opt(Str),
  landing_id: Opt(Str),
  landed_at: Str,
  submitted_at: Opt(Str),
  response_type: Opt(Str),
  hidden: Opt(Type.Record(Str, Type.Unknown())),
  calculated: Opt(Type.Object({ score: Opt(Num) })),
  variables: Opt(Type.Array(Type.Object({ key: Str, number: Opt(Num), text: Opt(Str) }))),
  answers: Opt(Type.Array(TfAnswer)),
});
type TfItem = Static<typeof TfItem>;
const TfPage = Type.Object({ items: Type.Array(Type.Unknown()) });
const TfResponses = Type.Union([TfPage, Type.Array(Type.Unknown())]);

/** Turns one answer into this service's answers, or says why it cannot. */
type Reader = (a: TfAnswer) => SmAnswer[] | string;

const CHOICE_TYPES = ['multiple_choice', 'picture_choice', 'dropdown'];
const TEXT_TYPES: Record<string, boolean> = {
  short_text: false,
  long_text: true,
  email: false,
  phone_number: false,
  website: false,
  file_upload: false,
  payment: false,
  calendly: false,
  multi_format: false,
};
const ADDRESS_KEYS: Array<[RegExp, string]> = [
  [/line.?2/, 'address2'],
  [/line/, 'address'],
  [/city|town/, 'city'],
  [/state|region|province/, 'state'],
  [/zip|post/, 'zip'],
  [/country/, 'country'],
];

function textOf(a: TfAnswer): string | undefined {
  if (a.payment)
    return `${a.payment.amount ?? ''} ${a.payment.success === false ? 'failed' : 'paid'}${a.payment.name ? ` by ${a.payment.name}` : ''}${a.payment.last4 ? ` (card ending ${a.payment.last4})` : ''}`.trim();
  const v = a.text ?? a.email ?? a.phone_number ?? a.url ?? a.file_url ?? a.date;
  if (v !== undefined && v !== null) return v;
  if (typeof a.number === 'number') return String(a.number);
  if (typeof a.boolean === 'boolean') return a.boolean ? 'yes' : 'no';
  return undefined;
}

class TypeformConversion {
  readonly id: (...key: string[]) => string;
  readonly report: Report;
  readonly pager: Pager;
  readonly readers = new Map<string, Reader>();
  /** Each field's question here, by the field's ref and by its id. */
  readonly questionOf = new Map<string, SmQuestion>();
  /** The question each field's answers go to (a matrix row's, a contact part's: their question's). */
  readonly answersTo = new Map<string, { question: string; title: string }>();
  /** The page each field or group starts or sits on, by ref and by id (where a jump lands). */
  private readonly pageAt = new Map<string, SmPage>();
  /** The tool's choices of each single-choice question (a jump names one by ref). */
  private readonly sourceChoices = new Map<string, Array<{ id?: string | null; ref?: string | null }>>();
  private readonly decides = new Set<string>();
  private readonly targets = new Set<string>();

  constructor(readonly form: Static<typeof TfForm>) {
    this.id = idMaker(`typeform:${form.id}`);
    this.report = new Report(form.title);
    this.pager = new Pager((n) => this.id('page', String(n)));
    for (const l of form.logic ?? []) {
      if (l.type === 'field') this.decides.add(l.ref);
      for (const a of l.actions) if (a.details?.to?.type === 'field') this.targets.add(a.details.to.value);
    }
  }

  private key = (f: TfField) => f.ref ?? f.id;

  addFields(fields: unknown[], where: string) {
    fields.forEach((raw, i) => {
      const f = checked(TfField, raw, `the form's field ${where}${i}`);
      const startsPage = this.targets.has(this.key(f)) || this.targets.has(f.id);
      if (f.type === 'group') {
        const page = this.pager.page(plain(f.title), plain(f.properties?.description));
        this.pageAt.set(f.id, page);
        if (f.ref) this.pageAt.set(f.ref, page);
        this.addFields(f.properties?.fields ?? [], `${where}${i}.`);
        this.pager.close();
        return;
      }
      if (f.type === 'inline_group') {
        this.addFields(f.properties?.fields ?? [], `${where}${i}.`);
        return;
      }
      const q = this.question(f);
      if (!q) return;
      const page = this.pager.add(q, { startsPage });
      this.remember(f, q);
      this.pageAt.set(f.id, page);
      if (f.ref) this.pageAt.set(f.ref, page);
      if (this.decides.has(this.key(f))) this.pager.close();
    });
  }

  private remember(f: TfField, q: SmQuestion) {
    this.questionOf.set(f.id, q);
    if (!this.answersTo.has(f.id)) this.answersTo.set(f.id, { question: q.id, title: q.headings[0].heading });
    if (f.properties?.choices) this.sourceChoices.set(q.id, f.properties.choices);
    if (f.ref) this.questionOf.set(f.ref, q);
  }

  /** The question of one field, with the readers of its answers (null: left out, reported). */
  private question(f: TfField): SmQuestion | null {
    const title = plain(f.title) || f.type;
    const qid = this.id('field', f.id);
    const p = f.properties ?? {};
    const required = f.validations?.required;
    if (f.type in TEXT_TYPES) {
      if (f.type === 'file_upload')
        this.report.skip(
          'question',
          title,
          'the uploaded files stay at Typeform: each answer keeps the link to its file',
        );
      if (f.type === 'payment')
        this.report.skip(
          'question',
          title,
          'payments are not taken here: the question is kept as text holding each payment (amount, payer)',
        );
      if (f.type === 'calendly' || f.type === 'multi_format')
        this.report.skip(
          'question',
          title,
          `a ${f.type} question is kept as a text question holding each answer`,
        );
      this.readers.set(f.id, (a) => {
        const text = textOf(a);
        return text === undefined ? `no text in a ${a.type} answer` : [{ text }];
      });
      return Q.text(qid, title, TEXT_TYPES[f.type], required);
    }
    if (CHOICE_TYPES.includes(f.type)) return this.choiceQuestion(f, qid, title);
    if (f.type === 'yes_no' || f.type === 'legal') {
      const choices = (f.type === 'yes_no' ? ['Yes', 'No'] : ['I accept', "I don't accept"]).map(
        (text, i) => ({
          id: this.id('choice', f.id, String(i)),
          text,
        }),
      );
      this.readers.set(f.id, (a) =>
        typeof a.boolean === 'boolean'
          ? [{ choice_id: choices[a.boolean ? 0 : 1].id }]
          : 'no yes/no in the answer',
      );
      const q = Q.choice(qid, title, { choices }, required);
      q.subtype = 'horiz';
      return q;
    }
    if (f.type === 'number') {
      const row = this.id('row', f.id);
      this.readers.set(f.id, (a) =>
        typeof a.number === 'number' ? [{ row_id: row, text: String(a.number) }] : 'no number',
      );
      return Q.boxes(qid, title, [{ id: row, text: '' }], true, required);
    }
    if (f.type === 'rating' || f.type === 'opinion_scale' || f.type === 'nps') {
      const steps = f.type === 'nps' ? 11 : (p.steps ?? (f.type === 'rating' ? 5 : 11));
      const from = f.type === 'rating' || p.start_at_one ? 1 : 0;
      const to = f.type === 'rating' ? steps : from + steps - 1;
      const row = this.id('row', f.id);
      const choices = scaleChoices((v) => this.id('choice', f.id, String(v)), from, to);
      this.readers.set(f.id, (a) => {
        const c = choices.find((x) => x.weight === a.number);
        return c ? [{ row_id: row, choice_id: c.id }] : `${a.number} is off the scale`;
      });
      return Q.scale(qid, title, row, choices, f.type === 'rating' ? 'star' : undefined, required);
    }
    if (f.type === 'ranking') {
      const rows = (p.choices ?? []).map((c, i) => ({
        id: this.id('choice', f.id, c.id ?? String(i)),
        text: c.label ?? '',
      }));
      const q = Q.ranking(qid, title, rows, (i) => this.id('rank', f.id, String(i)));
      const ranks = q.answers!.choices!;
      this.readers.set(f.id, (a) => {
        const labels = a.choices?.labels ?? [];
        const out: SmAnswer[] = [];
        for (const [i, label] of labels.entries()) {
          const row = rows.find((r) => r.text === label);
          if (!row || !ranks[i]) return `"${label}" is not an item to rank`;
          out.push({ row_id: row.id, choice_id: ranks[i].id });
        }
        return out;
      });
      return q;
    }
    if (f.type === 'matrix') return this.matrix(f, qid, title);
    if (f.type === 'date') {
      const row = this.id('row', f.id);
      this.readers.set(f.id, (a) => (a.date ? [{ row_id: row, text: usDate(a.date) }] : 'no date'));
      return Q.date(qid, title, row, 'date_only', required);
    }
    if (f.type === 'contact_info' || f.type === 'address') return this.subfields(f, qid, title);
    if (f.type === 'statement') return Q.statement(qid, title, plain(p.description));
    this.report.skip('question', title, `Typeform's ${f.type} questions have no counterpart here`);
    this.readers.set(f.id, () => `its question (${f.type}) was not carried over`);
    return null;
  }

  private choiceQuestion(f: TfField, qid: string, title: string): SmQuestion {
    const p = f.properties ?? {};
    const source = p.choices ?? [];
    const choices: SmChoice[] = source.map((c, i) => {
      const out: SmChoice = { id: this.id('choice', f.id, c.id ?? String(i)), text: plain(c.label) };
      if (c.attachment?.href) out.image = { url: c.attachment.href };
      return out;
    });
    const other = p.allow_other_choice ? { id: this.id('other', f.id), text: 'Other' } : undefined;
    const multi = !!p.allow_multiple_selection;
    const find = (ref: { id?: string | null; ref?: string | null; label?: string | null }) => {
      const i = source.findIndex((c) => (ref.id && c.id === ref.id) || (ref.ref && c.ref === ref.ref));
      const at = i >= 0 ? i : source.findIndex((c) => ref.label !== undefined && c.label === ref.label);
      return at >= 0 ? choices[at] : undefined;
    };
    this.readers.set(f.id, (a) => {
      const out: SmAnswer[] = [];
      const picked: Array<{ id?: string | null; ref?: string | null; label?: string | null }> = [];
      let otherText: string | null | undefined;
      if (a.choice) {
        if (a.choice.other !== undefined && a.choice.other !== null) otherText = a.choice.other;
        else picked.push(a.choice);
      }
      if (a.choices) {
        const c = a.choices;
        const n = Math.max(c.ids?.length ?? 0, c.refs?.length ?? 0, c.labels?.length ?? 0);
        for (let i = 0; i < n; i++) picked.push({ id: c.ids?.[i], ref: c.refs?.[i], label: c.labels?.[i] });
        if (c.other !== undefined && c.other !== null) otherText = c.other;
      }
      for (const ref of picked) {
        const c = find(ref);
        if (!c) return `"${ref.label ?? ref.id}" is not one of its choices`;
        out.push({ choice_id: c.id });
      }
      if (otherText !== undefined && otherText !== null) {
        if (!other) return 'an "other" answer to a question without one';
        out.push({ other_id: other.id, text: otherText });
      }
      return out;
    });
    return Q.choice(
      qid,
      title,
      {
        multi,
        menu: f.type === 'dropdown',
        choices,
        other,
        images: f.type === 'picture_choice' && choices.every((c) => c.image),
      },
      f.validations?.required,
    );
  }

  private matrix(f: TfField, qid: string, title: string): SmQuestion {
    const rowFields = (f.properties?.fields ?? []).map((r, i) =>
      checked(TfField, r, `the matrix ${title}'s row ${i}`),
    );
    const columns = rowFields[0]?.properties?.choices ?? [];
    const cols: SmChoice[] = columns.map((c, i) => ({
      id: this.id('col', f.id, String(i)),
      text: plain(c.label),
    }));
    const rows: SmRow[] = rowFields.map((r) => ({ id: this.id('row', f.id, r.id), text: plain(r.title) }));
    const multi = rowFields.some((r) => r.properties?.allow_multiple_selection);
    rowFields.forEach((r, ri) => {
      const own = r.properties?.choices ?? [];
      const col = (ref: { id?: string | null; label?: string | null }) => {
        const i = own.findIndex((c) => ref.id && c.id === ref.id);
        const at = i >= 0 ? i : columns.findIndex((c) => c.label === ref.label);
        return cols[at];
      };
      const reader: Reader = (a) => {
        const picked = a.choice
          ? [a.choice]
          : (a.choices?.labels ?? []).map((label, i) => ({ id: a.choices?.ids?.[i], label }));
        const out: SmAnswer[] = [];
        for (const p of picked) {
          const c = col(p);
          if (!c) return `"${p.label}" is not a column of the matrix`;
          out.push({ row_id: rows[ri].id, choice_id: c.id });
        }
        return out;
      };
      this.readers.set(r.id, reader);
      this.answersTo.set(r.id, { question: qid, title });
    });
    return Q.grid(qid, title, rows, cols, multi, f.validations?.required);
  }

  /** contact_info (labelled boxes) and address (an address question): one row per sub-field. */
  private subfields(f: TfField, qid: string, title: string): SmQuestion {
    const subs = (f.properties?.fields ?? []).map((s, i) =>
      checked(TfField, s, `the field ${title}'s part ${i}`),
    );
    const address = f.type === 'address';
    const used = new Set<string>();
    const rows: SmRow[] = subs.map((s, i) => {
      const row: SmRow = { id: this.id('row', f.id, s.id), text: plain(s.title) || s.type };
      if (address) {
        const key = (s.properties?.subfield_key ?? s.ref ?? '').toLowerCase();
        const type =
          ADDRESS_KEYS.find(([re, t]) => re.test(key) && !used.has(t))?.[1] ??
          ['address', 'address2', 'city', 'state', 'zip', 'country'].find((t) => !used.has(t)) ??
          String(i);
        used.add(type);
        row.type = type;
      }
      return row;
    });
    subs.forEach((s, i) => {
      this.readers.set(s.id, (a) => {
        const text = textOf(a);
        return text === undefined ? 'no text' : [{ row_id: rows[i].id, text }];
      });
      this.answersTo.set(s.id, { question: qid, title });
    });
    return address
      ? Q.address(qid, title, rows, f.validations?.required)
      : Q.boxes(qid, title, rows, false, f.validations?.required);
  }

  /** Logic jumps as skip logic where they map (to a later page or the end, on a choice or always). */
  applyLogic() {
    const pages = this.pager.pages;
    for (const l of this.form.logic ?? []) {
      const q = this.questionOf.get(l.ref);
      const name = q ? (q.headings[0]?.heading ?? l.ref) : l.ref;
      if (l.type !== 'field' || !q) {
        this.report.skip('logic', name, `${l.type} logic is not carried over`);
        continue;
      }
      const page = this.pager.pageOf.get(q.id)!;
      for (const a of l.actions) {
        const why = this.rule(q, page, a, pages.indexOf(page));
        if (why) this.report.skip('logic', name, why);
      }
    }
  }

  private rule(
    q: SmQuestion,
    page: { logic?: Logic },
    a: Static<typeof TfAction>,
    at: number,
  ): string | null {
    if (a.action !== 'jump')
      return `the ${a.action} calculation is not carried over (each response keeps its calculated values)`;
    const to = a.details?.to;
    let logic: Logic;
    if (to?.type === 'thankyou') logic = { action: 'end_survey' };
    else {
      const tp = to ? this.pageAt.get(to.value) : undefined;
      if (!tp || this.pager.pages.indexOf(tp) <= at)
        return 'a jump back or to a question left out is not carried over';
      logic = { action: 'go_to_page', page_id: tp.id };
    }
    const c = a.condition;
    if (c.op === 'always') {
      if (page.logic) return 'a second "always" jump from the same question is not carried over';
      page.logic = logic;
      return null;
    }
    const value = c.vars.find((v) => v.type === 'choice' || v.type === 'constant');
    if ((c.op === 'is' || c.op === 'equal') && c.vars.length === 2 && value && q.family === 'single_choice') {
      const choices = q.answers?.choices ?? [];
      const i =
        value.type === 'constant'
          ? value.value === true
            ? 0
            : 1
          : (this.sourceChoices.get(q.id) ?? []).findIndex(
              (ch) => ch.ref === value.value || ch.id === value.value,
            );
      if (choices[i]) {
        choices[i].logic = logic;
        return null;
      }
    }
    return `a jump on "${c.op}" is not carried over (only a choice picked, or always)`;
  }

  variables(): string[] {
    const names = [...(this.form.hidden ?? []), ...Object.keys(this.form.variables ?? {})];
    if ((this.form.hidden ?? []).length > 0)
      this.report.skip(
        'setting',
        'hidden fields',
        'kept as custom variables: links to the survey here pass them as query parameters',
      );
    if (Object.keys(this.form.variables ?? {}).length > 0)
      this.report.skip(
        'setting',
        'variables',
        "kept as custom variables holding each response's value; not recalculated here",
      );
    return names.map(variableName);
  }

  response(r: TfItem, pages: SmDetails['pages']): SmResponse {
    const id = r.response_id ?? r.token ?? r.landing_id ?? '';
    const out = new Answers();
    for (const a of r.answers ?? []) {
      const read = this.readers.get(a.field.id);
      const to = this.answersTo.get(a.field.id);
      const got = read ? read(a) : 'its question is not in the form';
      if (typeof got === 'string' || !to) {
        this.report.skip(
          'answer',
          `response ${id}`,
          `its answer to "${to?.title ?? a.field.ref ?? a.field.id}" was not carried over: ${got}`,
        );
        continue;
      }
      if (got.length > 0) out.add(to.question, ...got);
    }
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.hidden ?? {})) vars[variableName(k)] = String(v ?? '');
    for (const v of r.variables ?? []) vars[variableName(v.key)] = String(v.number ?? v.text ?? '');
    if (r.calculated?.score !== undefined && r.calculated.score !== null && !('score' in vars))
      vars.score = String(r.calculated.score);
    const completed = r.response_type ? r.response_type === 'completed' : !!r.submitted_at;
    return {
      id,
      date_created: r.landed_at,
      date_modified: r.submitted_at ?? r.landed_at,
      response_status: completed ? 'completed' : 'partial',
      custom_variables: vars,
      pages: out.pages(pages),
    };
  }
}

/** The response items of a responses file (one page body, several, or the items alone). */
function itemsOf(file: Buffer): TfItem[] {
  const body = checked(TfResponses, parseJson(file, 'the responses file'), 'the responses file');
  const raw = Array.isArray(body)
    ? body.flatMap((x) =>
        x && typeof x === 'object' && 'items' in x ? checked(TfPage, x, 'a page of responses').items : [x],
      )
    : body.items;
  return raw.map((r, i) => checked(TfItem, r, `response ${i + 1}`));
}

export const typeform: Converter = {
  tool: 'typeform',
  async convert({ file, responses }): Promise<ConvertedSurvey> {
    const form = checked(TfForm, parseJson(file, 'the form file'), 'the form file (GET /forms/{id})');
    const items = responses ? itemsOf(responses) : [];
    const c = new TypeformConversion(form);
    c.addFields(form.fields, '');
    c.applyLogic();
    for (const s of form.welcome_screens ?? [])
      c.report.skip('setting', plain(s.title) || 'welcome screen', 'welcome screens are not carried over');
    for (const s of form.thankyou_screens ?? [])
      c.report.skip(
        'setting',
        plain(s.title) || 'thank-you screen',
        'thank-you screens are not carried over',
      );
    const pages = c.pager.result();
    const details: SmDetails = {
      id: form.id,
      title: form.title,
      language: form.settings?.language ?? 'en',
      custom_variables: Object.fromEntries(c.variables().map((n) => [n, ''])),
      pages,
      ...(form.created_at ? { date_created: form.created_at } : {}),
      ...(form.last_updated_at ? { date_modified: form.last_updated_at } : {}),
    };
    return {
      id: form.id,
      details,
      responses: items.map((r) => c.response(r, pages)),
      skipped: c.report.skipped,
    };
  },
};
