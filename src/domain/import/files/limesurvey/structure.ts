// A LimeSurvey survey structure file (.lss) read into one model, whatever the version that wrote
// it. The layouts (both are XML tables: <section><rows><row><field>…):
// - 2.x and 3.x (DBVersion below 400): texts sit in the rows themselves, one row per language
//   (groups, questions, subquestions and answers each carry a <language>);
// - 4.x, 5.x and 6.x: the rows hold the structure once and the texts move to group_l10ns,
//   question_l10ns (questions and subquestions) and answer_l10ns (by aid).
// The survey's base language is the survey; the other languages' texts are kept apart.
import { BadImportFile } from '../converted.js';

export type Row = Record<string, string>;

export interface LsAnswer {
  code: string;
  text: string;
  order: number;
  scale: number;
}
export interface LsSub {
  qid: string;
  code: string;
  text: string;
  order: number;
  scale: number;
  relevance: string;
}
export interface LsQuestion {
  qid: string;
  gid: string;
  type: string;
  code: string;
  text: string;
  help: string;
  mandatory: boolean;
  other: boolean;
  order: number;
  relevance: string;
  subs: LsSub[];
  answers: LsAnswer[];
  attributes: Record<string, string>;
}
export interface LsGroup {
  gid: string;
  name: string;
  description: string;
  order: number;
  relevance: string;
  questions: LsQuestion[];
}
export interface LsSurvey {
  sid: string;
  dbVersion: number;
  title: string;
  description: string;
  welcome: string;
  end: string;
  language: string;
  /** The other languages the survey is written in. */
  languages: string[];
  created?: string;
  groups: LsGroup[];
  /** Sections of the file that hold something this service has no place for (quotas, assessments…). */
  extras: string[];
}

const field = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' ? Reflect.get(o, key) : undefined;

/** A field's text: xml2js gives a string, '' for an empty element, or {_: text, $: attrs}. */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  const t = field(v, '_');
  return typeof t === 'string' ? t : '';
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v]);

/** The rows of one table of the document, each field as text. */
export function rowsOf(doc: unknown, section: string): Row[] {
  return asArray(field(field(field(doc, section), 'rows'), 'row')).map((r) => {
    const out: Row = {};
    if (r && typeof r === 'object') for (const [k, v] of Object.entries(r)) out[k] = textOf(v);
    return out;
  });
}

/** The field names a table lists (<fields><fieldname>…). */
export const fieldsOf = (doc: unknown, section: string): string[] =>
  asArray(field(field(field(doc, section), 'fields'), 'fieldname'))
    .map(textOf)
    .filter(Boolean);

const num = (v: string | undefined) => (v && /^-?\d+$/.test(v.trim()) ? Number(v) : 0);

/** The root <document> of a LimeSurvey export of the given doc type, or BadImportFile. */
export function documentOf(
  parsed: unknown,
  docType: 'Survey' | 'Responses' | 'Timings' | 'Tokens',
  what: string,
) {
  const doc = field(parsed, 'document');
  const type = textOf(field(doc, 'LimeSurveyDocType'));
  if (!doc || !type)
    throw new BadImportFile(
      `The ${what} is not a LimeSurvey export (no <document> with a LimeSurveyDocType).`,
    );
  if (type !== docType)
    throw new BadImportFile(
      `The ${what} is a LimeSurvey ${type} export, not a ${docType === 'Survey' ? 'survey structure (.lss) or survey archive (.lsa)' : docType.toLowerCase()} file.`,
    );
  return doc;
}

/** The survey of a .lss document (parsed XML). */
export function readStructure(parsed: unknown): LsSurvey {
  const doc = documentOf(parsed, 'Survey', 'file');
  const dbVersion = num(textOf(field(doc, 'DBVersion')));
  const survey = rowsOf(doc, 'surveys')[0];
  if (!survey) throw new BadImportFile('The file is a LimeSurvey export without a survey in it.');
  const sid = survey.sid ?? '';
  const languages = asArray(field(field(doc, 'languages'), 'language'))
    .map(textOf)
    .filter(Boolean);
  const language = survey.language || languages[0] || 'en';
  const others = [
    ...new Set([...(survey.additional_languages ?? '').split(/\s+/).filter(Boolean), ...languages]),
  ].filter((l) => l !== language);
  const inBase = (r: Row) => !r.language || r.language === language;

  const settings =
    rowsOf(doc, 'surveys_languagesettings').find((r) => r.surveyls_language === language) ?? {};

  // Group texts: in the rows (2.x/3.x) or in group_l10ns (4.x+).
  const groupText = new Map<string, Row>();
  for (const r of [...rowsOf(doc, 'groups'), ...rowsOf(doc, 'group_l10ns')])
    if (r.group_name !== undefined && inBase(r)) groupText.set(r.gid, r);
  const groups = new Map<string, LsGroup>();
  for (const r of rowsOf(doc, 'groups'))
    if (!groups.has(r.gid) && inBase(r)) {
      const t = groupText.get(r.gid) ?? {};
      groups.set(r.gid, {
        gid: r.gid,
        name: t.group_name ?? '',
        description: t.description ?? '',
        order: num(r.group_order),
        relevance: r.grelevance ?? '',
        questions: [],
      });
    }

  // Question texts: in the rows (2.x/3.x) or in question_l10ns (4.x+), for questions and
  // subquestions alike.
  const qText = new Map<string, Row>();
  const all = [...rowsOf(doc, 'questions'), ...rowsOf(doc, 'subquestions')];
  for (const r of [...all, ...rowsOf(doc, 'question_l10ns')])
    if (r.question !== undefined && inBase(r) && !qText.has(r.qid)) qText.set(r.qid, r);
  const seen = new Set<string>();
  const questions = new Map<string, LsQuestion>();
  const subs: Row[] = [];
  for (const r of all) {
    if (!r.qid || seen.has(r.qid) || !inBase(r)) continue;
    seen.add(r.qid);
    if (r.parent_qid && r.parent_qid !== '0') {
      subs.push(r);
      continue;
    }
    const t = qText.get(r.qid) ?? {};
    questions.set(r.qid, {
      qid: r.qid,
      gid: r.gid,
      type: r.type ?? '',
      code: r.title ?? r.qid,
      text: t.question ?? '',
      help: t.help ?? '',
      mandatory: r.mandatory === 'Y',
      other: r.other === 'Y',
      order: num(r.question_order),
      relevance: r.relevance ?? '',
      subs: [],
      answers: [],
      attributes: {},
    });
  }
  for (const r of subs) {
    const q = questions.get(r.parent_qid);
    if (!q) continue;
    q.subs.push({
      qid: r.qid,
      code: r.title ?? r.qid,
      text: qText.get(r.qid)?.question ?? '',
      order: num(r.question_order),
      scale: num(r.scale_id),
      relevance: r.relevance ?? '',
    });
  }

  // Answer options: text in the rows (2.x/3.x) or in answer_l10ns by aid (4.x+).
  const aText = new Map<string, string>();
  for (const r of rowsOf(doc, 'answer_l10ns'))
    if (inBase(r) && !aText.has(r.aid)) aText.set(r.aid, r.answer ?? '');
  const aSeen = new Set<string>();
  for (const r of rowsOf(doc, 'answers')) {
    const q = questions.get(r.qid);
    const key = `${r.qid}/${r.scale_id ?? 0}/${r.code}`;
    if (!q || !inBase(r) || aSeen.has(key)) continue;
    aSeen.add(key);
    q.answers.push({
      code: r.code ?? '',
      text: r.answer ?? aText.get(r.aid) ?? '',
      order: num(r.sortorder),
      scale: num(r.scale_id),
    });
  }
  for (const r of rowsOf(doc, 'question_attributes')) {
    const q = questions.get(r.qid);
    if (q && r.attribute && (!r.language || r.language === language))
      q.attributes[r.attribute] = r.value ?? '';
  }

  const byOrder = <T extends { order: number }>(a: T, b: T) => a.order - b.order;
  for (const q of questions.values()) {
    q.subs.sort(byOrder);
    q.answers.sort(byOrder);
    groups.get(q.gid)?.questions.push(q);
  }
  for (const g of groups.values()) g.questions.sort(byOrder);
  const extras = ['quotas', 'assessments', 'conditions', 'defaultvalues'].filter(
    (s) => rowsOf(doc, s).length > 0,
  );
  return {
    sid,
    dbVersion,
    title: settings.surveyls_title || `LimeSurvey survey ${sid}`,
    description: settings.surveyls_description ?? '',
    welcome: settings.surveyls_welcometext ?? '',
    end: settings.surveyls_endtext ?? '',
    language,
    languages: others,
    created: survey.datecreated || undefined,
    groups: [...groups.values()].sort(byOrder),
    extras,
  };
}
