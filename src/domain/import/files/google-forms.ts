// Google Forms: a form as the Forms API returns it (forms.get) and its responses
// (forms.responses.list: one page body {responses}, several in an array, or the responses alone),
// converted to the details and bulk responses the importer copies. Sections become pages and
// "go to section" choices skip logic.
import { type Static, Type } from 'typebox';
import type { ConvertedSurvey, Converter } from './converted.js';
import {
  Answers,
  ampm,
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
  scaleChoices,
  usDate,
} from './shape.js';

const Str = Type.String();
const Bool = Type.Boolean();
const Int = Type.Integer();
const Dict = Type.Record(Str, Type.Unknown());
const GOption = Type.Object({
  value: Opt(Str),
  isOther: Opt(Bool),
  goToAction: Opt(Str),
  goToSectionId: Opt(Str),
  image: Opt(Type.Object({ contentUri: Opt(Str) })),
});
const GQuestion = Type.Object({
  questionId: Type.String({ minLength: 1 }),
  required: Opt(Bool),
  grading: Opt(
    Type.Object({
      pointValue: Opt(Int),
      correctAnswers: Opt(Type.Object({ answers: Opt(Type.Array(Type.Object({ value: Opt(Str) }))) })),
    }),
  ),
  choiceQuestion: Opt(Type.Object({ type: Str, options: Type.Array(GOption) })),
  textQuestion: Opt(Type.Object({ paragraph: Opt(Bool) })),
  scaleQuestion: Opt(Type.Object({ low: Opt(Int), high: Int, lowLabel: Opt(Str), highLabel: Opt(Str) })),
  dateQuestion: Opt(Type.Object({ includeTime: Opt(Bool), includeYear: Opt(Bool) })),
  timeQuestion: Opt(Type.Object({ duration: Opt(Bool) })),
  fileUploadQuestion: Opt(Dict),
  rowQuestion: Opt(Type.Object({ title: Opt(Str) })),
  ratingQuestion: Opt(
    Type.Object({ ratingScaleLevel: Type.Integer({ minimum: 1, maximum: 20 }), iconType: Opt(Str) }),
  ),
});
type GQuestion = Static<typeof GQuestion>;
const GItem = Type.Object({
  itemId: Type.String({ minLength: 1 }),
  title: Opt(Str),
  description: Opt(Str),
  questionItem: Opt(Type.Object({ question: GQuestion })),
  questionGroupItem: Opt(
    Type.Object({
      questions: Type.Array(GQuestion),
      grid: Opt(Type.Object({ columns: Type.Object({ type: Opt(Str), options: Type.Array(GOption) }) })),
    }),
  ),
  pageBreakItem: Opt(Dict),
  textItem: Opt(Dict),
  imageItem: Opt(Type.Object({ image: Type.Object({ contentUri: Opt(Str), sourceUri: Opt(Str) }) })),
  videoItem: Opt(Type.Object({ video: Type.Object({ youtubeUri: Opt(Str) }), caption: Opt(Str) })),
});
type GItem = Static<typeof GItem>;
const GForm = Type.Object({
  formId: Type.String({ minLength: 1 }),
  info: Type.Object({ title: Opt(Str), documentTitle: Opt(Str), description: Opt(Str) }),
  settings: Opt(Type.Object({ quizSettings: Opt(Type.Object({ isQuiz: Opt(Bool) })) })),
  items: Opt(Type.Array(Type.Unknown())),
});
const GAnswer = Type.Object({
  textAnswers: Opt(Type.Object({ answers: Opt(Type.Array(Type.Object({ value: Opt(Str) }))) })),
  fileUploadAnswers: Opt(
    Type.Object({ answers: Opt(Type.Array(Type.Object({ fileId: Str, fileName: Opt(Str) }))) }),
  ),
  grade: Opt(Dict),
});
type GAnswer = Static<typeof GAnswer>;
const GResponse = Type.Object({
  responseId: Type.String({ minLength: 1 }),
  createTime: Str,
  lastSubmittedTime: Opt(Str),
  respondentEmail: Opt(Str),
  totalScore: Opt(Type.Number()),
  answers: Opt(Type.Record(Str, GAnswer)),
});
type GResponse = Static<typeof GResponse>;
const GPage = Type.Object({ responses: Opt(Type.Array(Type.Unknown())) });
const GResponses = Type.Union([GPage, Type.Array(Type.Unknown())]);

type Reader = (a: GAnswer) => SmAnswer[] | string;
const values = (a: GAnswer) => (a.textAnswers?.answers ?? []).map((x) => x.value ?? '');
const EMOJI: Record<string, 'star' | 'heart' | 'thumb'> = { STAR: 'star', HEART: 'heart', THUMB_UP: 'thumb' };

class GoogleConversion {
  readonly id: (...key: string[]) => string;
  readonly report: Report;
  readonly pager: Pager;
  readonly readers = new Map<string, { question: string; title: string; read: Reader }>();
  /** Each section's page, by the section's item id. */
  private readonly sections = new Map<string, SmPage>();
  /** Choices that go to a section, applied once every section has its page. */
  private readonly jumps: Array<{
    choice: SmChoice;
    option: Static<typeof GOption>;
    title: string;
    page: SmPage;
  }> = [];
  private graded = false;

  constructor(
    readonly form: Static<typeof GForm>,
    readonly title: string,
  ) {
    this.id = idMaker(`google-forms:${form.formId}`);
    this.report = new Report(title);
    this.pager = new Pager((n) => this.id('page', String(n)));
  }

  get quiz() {
    return !!this.form.settings?.quizSettings?.isQuiz;
  }

  addItems() {
    (this.form.items ?? []).forEach((raw, i) => {
      const item = checked(GItem, raw, `the form's item ${i}`);
      const title = plain(item.title);
      if (item.pageBreakItem) {
        this.sections.set(item.itemId, this.pager.page(title, plain(item.description)));
        return;
      }
      const q = this.question(item, title);
      if (q) this.pager.add(q);
    });
  }

  private question(item: GItem, title: string): SmQuestion | null {
    const qid = this.id('item', item.itemId);
    if (item.textItem) return Q.statement(qid, title, plain(item.description));
    if (item.imageItem) {
      const url = item.imageItem.image.contentUri ?? item.imageItem.image.sourceUri;
      if (url) return Q.image(qid, title, url);
    }
    if (item.videoItem) {
      this.report.skip('question', title || 'video', 'videos are kept as a link to the video');
      return Q.statement(qid, title, item.videoItem.video.youtubeUri ?? '');
    }
    if (item.questionGroupItem) return this.grid(item, qid, title);
    const q = item.questionItem?.question;
    if (!q) {
      this.report.skip(
        'question',
        title || item.itemId,
        'an item of a kind this service has no counterpart for',
      );
      return null;
    }
    const name = title || q.questionId;
    const on = (read: Reader) => this.readers.set(q.questionId, { question: qid, title: name, read });
    const row = this.id('row', q.questionId);
    if (q.grading && !q.choiceQuestion) {
      this.report.skip(
        'question',
        name,
        'its quiz points are not carried over: this service scores choices only',
      );
    }
    if (q.choiceQuestion) return this.choice(q, qid, name);
    if (q.textQuestion) {
      on((a) => [{ text: values(a).join('\n') }]);
      return Q.text(qid, name, !!q.textQuestion.paragraph, q.required);
    }
    const scale =
      q.scaleQuestion ?? (q.ratingQuestion && { low: 1, high: q.ratingQuestion.ratingScaleLevel });
    if (scale) {
      const choices = scaleChoices(
        (v) => this.id('choice', q.questionId, String(v)),
        scale.low ?? 1,
        scale.high,
      );
      on((a) => {
        const c = choices.find((x) => String(x.weight) === values(a)[0]);
        return c ? [{ row_id: row, choice_id: c.id }] : `${values(a)[0]} is off the scale`;
      });
      const emoji = q.ratingQuestion ? (EMOJI[q.ratingQuestion.iconType ?? 'STAR'] ?? 'star') : undefined;
      return Q.scale(qid, name, row, choices, emoji, q.required);
    }
    if (q.dateQuestion) {
      on((a) => {
        const v = values(a)[0] ?? '';
        const [d, t] = v.split(/[ T]/);
        return [
          { row_id: row, text: q.dateQuestion!.includeTime && t ? `${usDate(d)} ${ampm(t)}` : usDate(d) },
        ];
      });
      return Q.date(qid, name, row, q.dateQuestion.includeTime ? 'both' : 'date_only', q.required);
    }
    if (q.timeQuestion) {
      if (q.timeQuestion.duration) {
        on((a) => [{ text: values(a)[0] ?? '' }]);
        return Q.text(qid, name, false, q.required);
      }
      on((a) => [{ row_id: row, text: ampm(values(a)[0] ?? '') }]);
      return Q.date(qid, name, row, 'time_only', q.required);
    }
    if (q.fileUploadQuestion) {
      this.report.skip(
        'question',
        name,
        'the uploaded files stay in Google Drive: each answer keeps the links to its files',
      );
      on((a) => {
        const files = a.fileUploadAnswers?.answers ?? [];
        return [
          {
            text: files
              .map((f) => `${f.fileName ?? f.fileId} https://drive.google.com/open?id=${f.fileId}`)
              .join('\n'),
          },
        ];
      });
      return Q.text(qid, name, false, q.required);
    }
    this.report.skip('question', name, 'a question of a kind this service has no counterpart for');
    return null;
  }

  private choice(q: GQuestion, qid: string, name: string): SmQuestion {
    const cq = q.choiceQuestion!;
    const multi = cq.type === 'CHECKBOX';
    const options = cq.options.filter((o) => !o.isOther);
    const correct = new Set((q.grading?.correctAnswers?.answers ?? []).map((a) => a.value));
    const choices: SmChoice[] = options.map((o, i) => {
      const c: SmChoice = { id: this.id('choice', q.questionId, String(i)), text: o.value ?? '' };
      if (o.image?.contentUri) c.image = { url: o.image.contentUri };
      if (q.grading && this.quiz)
        c.quiz_options = { score: correct.has(o.value) ? (q.grading.pointValue ?? 0) : 0 };
      return c;
    });
    const otherOption = cq.options.find((o) => o.isOther);
    const other = otherOption ? { id: this.id('other', q.questionId), text: 'Other' } : undefined;
    const sm = Q.choice(qid, name, { multi, menu: cq.type === 'DROP_DOWN', choices, other }, q.required);
    if (q.grading && this.quiz) {
      sm.quiz_options = { scoring_enabled: true };
      this.graded = true;
    }
    if (!multi)
      options.forEach((o, i) => {
        if (o.goToSectionId || (o.goToAction && o.goToAction !== 'NEXT_SECTION'))
          this.jumps.push({
            choice: choices[i],
            option: o,
            title: name,
            page: this.pager.pages.at(-1) ?? this.pager.page(),
          });
      });
    this.readers.set(q.questionId, {
      question: qid,
      title: name,
      read: (a) => {
        const out: SmAnswer[] = [];
        for (const v of values(a)) {
          const i = options.findIndex((o) => o.value === v);
          if (i >= 0) out.push({ choice_id: choices[i].id });
          else if (other) out.push({ other_id: other.id, text: v });
          else return `"${v}" is not one of its choices`;
        }
        return out;
      },
    });
    return sm;
  }

  private grid(item: GItem, qid: string, title: string): SmQuestion | null {
    const g = item.questionGroupItem!;
    if (!g.grid) {
      this.report.skip('question', title, 'a question group without a grid has no counterpart here');
      return null;
    }
    const multi = g.grid.columns.type === 'CHECKBOX';
    const cols: SmChoice[] = g.grid.columns.options.map((o, i) => ({
      id: this.id('col', item.itemId, String(i)),
      text: o.value ?? '',
    }));
    const rows = g.questions.map((q) => ({
      id: this.id('row', q.questionId),
      text: plain(q.rowQuestion?.title),
    }));
    g.questions.forEach((q, ri) => {
      this.readers.set(q.questionId, {
        question: qid,
        title,
        read: (a) => {
          const out: SmAnswer[] = [];
          for (const v of values(a)) {
            const c = cols.find((x) => x.text === v);
            if (!c) return `"${v}" is not a column of the grid`;
            out.push({ row_id: rows[ri].id, choice_id: c.id });
          }
          return out;
        },
      });
    });
    return Q.grid(
      qid,
      title,
      rows,
      cols,
      multi,
      g.questions.some((q) => q.required),
    );
  }

  /** "Go to section" choices as skip logic: to a later section, or submit. */
  applyJumps() {
    const pages = this.pager.pages;
    for (const j of this.jumps) {
      const o = j.option;
      if (o.goToAction === 'SUBMIT_FORM') {
        j.choice.logic = { action: 'end_survey' };
        continue;
      }
      const section = o.goToSectionId ? this.sections.get(o.goToSectionId) : undefined;
      // an empty section leads on to the next one that has questions
      const target = section && pages.slice(pages.indexOf(section)).find((p) => p.questions.length > 0);
      if (target && pages.indexOf(target) > pages.indexOf(j.page)) {
        j.choice.logic = { action: 'go_to_page', page_id: target.id };
        continue;
      }
      this.report.skip(
        'logic',
        `${j.title} / ${j.choice.text}`,
        o.goToAction === 'RESTART_FORM'
          ? '"restart the form" is not carried over'
          : 'a jump back to an earlier section (or to none) is not carried over',
      );
    }
  }

  response(r: GResponse, pages: SmPage[]): SmResponse {
    const out = new Answers();
    for (const [questionId, a] of Object.entries(r.answers ?? {})) {
      const reader = this.readers.get(questionId);
      const got = reader ? reader.read(a) : 'its question is not in the form';
      if (typeof got === 'string' || !reader) {
        this.report.skip(
          'answer',
          `response ${r.responseId}`,
          `its answer to "${reader?.title ?? questionId}" was not carried over: ${got}`,
        );
        continue;
      }
      out.add(reader.question, ...got);
    }
    return {
      id: r.responseId,
      date_created: r.createTime,
      date_modified: r.lastSubmittedTime ?? r.createTime,
      response_status: 'completed',
      custom_variables: {},
      ...(r.respondentEmail ? { email_address: r.respondentEmail } : {}),
      pages: out.pages(pages),
    };
  }

  quizOptions(): Record<string, unknown> | undefined {
    if (!this.quiz) return undefined;
    if (!this.graded)
      this.report.skip('setting', 'quiz', 'no choice question has points: the survey is not a quiz here');
    return this.graded
      ? {
          is_quiz_mode: true,
          show_results_type: 'results_only',
          feedback: { ranges_type: 'disabled', ranges: [] },
        }
      : undefined;
  }
}

function responsesOf(file: Buffer): GResponse[] {
  const body = checked(GResponses, parseJson(file, 'the responses file'), 'the responses file');
  const raw = Array.isArray(body)
    ? body.flatMap((x) =>
        x && typeof x === 'object' && !('responseId' in x)
          ? (checked(GPage, x, 'a page of responses').responses ?? [])
          : [x],
      )
    : (body.responses ?? []);
  return raw.map((r, i) => checked(GResponse, r, `response ${i + 1}`));
}

export const googleForms: Converter = {
  tool: 'google-forms',
  async convert({ file, responses }): Promise<ConvertedSurvey> {
    const form = checked(GForm, parseJson(file, 'the form file'), 'the form file (forms.get)');
    const items = responses ? responsesOf(responses) : [];
    const title = plain(form.info.title) || plain(form.info.documentTitle) || form.formId;
    const c = new GoogleConversion(form, title);
    c.addItems();
    c.applyJumps();
    const pages = c.pager.result();
    const quiz = c.quizOptions();
    if (items.some((r) => r.totalScore !== undefined && r.totalScore !== null))
      c.report.skip(
        'setting',
        'grades',
        "the responses' grades are not copied: this service scores them from the choices' points",
      );
    const details: SmDetails = {
      id: form.formId,
      title,
      language: 'en',
      custom_variables: {},
      pages,
      ...(quiz ? { quiz_options: quiz } : {}),
    };
    return {
      id: form.formId,
      details,
      responses: items.map((r) => c.response(r, pages)),
      skipped: c.report.skipped,
    };
  },
};
