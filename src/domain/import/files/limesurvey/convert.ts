// LimeSurvey: a survey structure file (.lss) or a survey archive (.lsa: a zip holding the .lss,
// the responses table export .lsr, and maybe the participants' tokens .lst and timings .lsi), of
// any version from 2.x on, as a ConvertedSurvey. Question groups become pages, each question type
// the nearest question here (questions.ts), simple relevance equations display logic
// (relevance.ts); the other languages, quotas, assessments, equations, timings and tokens are
// named in the report.
import { findLanguage } from '../../../surveys/languages.js';
import type { Skipped } from '../../design.js';
import { isZip, MAX_UNPACKED_BYTES, parseXml, readZip } from '../archive.js';
import { BadImportFile, type ConvertedSurvey, type Converter } from '../converted.js';
import { type MappedQuestion, mapQuestion, plain } from './questions.js';
import { convertRelevance, type Target } from './relevance.js';
import { type Placed, readResponses } from './responses.js';
import { type LsSurvey, readStructure } from './structure.js';

interface Archive {
  lss: Buffer;
  lsr?: Buffer;
  others: string[];
}

async function unpack(file: Buffer): Promise<Archive> {
  const entries = await readZip(file, MAX_UNPACKED_BYTES);
  const named = (ext: string) => [...entries.keys()].filter((n) => n.toLowerCase().endsWith(ext));
  const lss = named('.lss');
  if (lss.length !== 1)
    throw new BadImportFile(
      lss.length === 0
        ? 'The archive holds no survey structure file (.lss): export a survey archive (.lsa) from LimeSurvey.'
        : 'The archive holds more than one survey structure file (.lss).',
    );
  const lsr = named('.lsr');
  if (lsr.length > 1) throw new BadImportFile('The archive holds more than one responses file (.lsr).');
  return {
    lss: entries.get(lss[0])!,
    lsr: lsr[0] ? entries.get(lsr[0]) : undefined,
    others: [...entries.keys()].filter((n) => n !== lss[0] && n !== lsr[0]),
  };
}

/** The language here of a LimeSurvey language code (de-informal -> de), or undefined. */
function languageOf(code: string): string | undefined {
  return (findLanguage(code) ?? findLanguage(code.split(/[-_]/)[0]))?.id;
}

/** The converted design with every question placed, and what is not carried over. */
function design(s: LsSurvey, skipped: Skipped[]) {
  let n = 0;
  const mint = () => String(++n);
  const placed: Placed[] = [];
  const accounted = new Set<string>();
  const targets = new Map<string, { target: Target; subs: Set<string> }>();
  const languages = [s.language, ...s.languages];
  const named = (code: string) => `${s.title} / ${code}`;
  const pages = s.groups.map((g, pageIndex) => {
    const pageId = mint();
    const questions: Array<Record<string, unknown>> = [];
    for (const q of g.questions) {
      const base = `${s.sid}X${g.gid}X${q.qid}`;
      const m = mapQuestion({ mint, base, languages }, q);
      if ('reason' in m) {
        skipped.push({ kind: 'question', name: named(q.code), reason: m.reason });
        accounted.add(base);
        continue;
      }
      const mapped: MappedQuestion = m;
      const id = String(mapped.question.id);
      // The question's conditions: its own relevance, else its group's.
      const own = q.relevance.trim();
      const equation = own && own !== '1' ? own : g.relevance.trim();
      if (own && own !== '1' && g.relevance.trim() && g.relevance.trim() !== '1')
        skipped.push({
          kind: 'logic',
          name: named(q.code),
          reason: `it has a condition of its own and one of its group ("${g.relevance}"); only its own is carried over`,
        });
      const c = convertRelevance(equation, pageIndex, (name) => {
        const direct = targets.get(name);
        if (direct) return { target: direct.target };
        const cut = name.lastIndexOf('_');
        const parent = cut > 0 ? targets.get(name.slice(0, cut)) : undefined;
        return parent?.subs.has(name.slice(cut + 1))
          ? { target: parent.target, sub: name.slice(cut + 1) }
          : undefined;
      });
      if ('logic' in c) mapped.question.display_logic = c.logic;
      else if ('reason' in c)
        skipped.push({ kind: 'logic', name: named(q.code), reason: `shown always: ${c.reason}` });
      for (const sub of q.subs)
        if (sub.relevance.trim() && sub.relevance.trim() !== '1')
          skipped.push({
            kind: 'logic',
            name: named(`${q.code}_${sub.code}`),
            reason: `the condition on this subquestion ("${sub.relevance}") is not carried over`,
          });
      if (q.attributes.random_order === '1')
        skipped.push({
          kind: 'setting',
          name: named(q.code),
          reason: 'its options in random order: shown in their order',
        });
      const target: Target = {
        id,
        page: pageIndex,
        kind: mapped.kind,
        choiceOf: mapped.choiceOf,
        subChoiceOf: mapped.subChoiceOf,
      };
      const entry = { target, subs: new Set(q.subs.map((x) => x.code)) };
      targets.set(q.code, entry);
      targets.set(base, entry);
      questions.push(mapped.question);
      placed.push({ pageId, questionId: id, code: q.code, mapped });
    }
    return { id: pageId, title: plain(g.name), description: plain(g.description), questions };
  });
  return { pages, placed, accounted };
}

export async function convertLimeSurvey(input: {
  file: Buffer;
  responses?: Buffer;
}): Promise<ConvertedSurvey> {
  const archive: Archive = isZip(input.file) ? await unpack(input.file) : { lss: input.file, others: [] };
  if (!isZip(input.file) && !/^\s*(\uFEFF)?\s*</.test(input.file.subarray(0, 64).toString('utf8')))
    throw new BadImportFile(
      'The file is neither a LimeSurvey survey structure (.lss) nor a survey archive (.lsa).',
    );
  const s = readStructure(await parseXml(archive.lss, 'survey structure file'));
  const skipped: Skipped[] = [];
  const language = languageOf(s.language);
  if (!language)
    skipped.push({
      kind: 'setting',
      name: `${s.title} / language`,
      reason: `the language "${s.language}" is not one of this service's: the survey is marked English`,
    });
  for (const l of s.languages)
    skipped.push({
      kind: 'translation',
      name: `${s.title} / ${l}`,
      reason: `the survey's texts in ${l} are not carried over (only its base language, ${s.language}); translate it here from Design > Translate`,
    });
  for (const [what, text] of [
    ['welcome text', s.welcome],
    ['end message', s.end],
  ] as const)
    if (plain(text))
      skipped.push({
        kind: 'setting',
        name: `${s.title} / ${what}`,
        reason: `the ${what} is not carried over`,
      });
  for (const extra of s.extras)
    skipped.push({
      kind: 'setting',
      name: `${s.title} / ${extra}`,
      reason: `LimeSurvey ${extra} have no counterpart here`,
    });
  const { pages, placed, accounted } = design(s, skipped);
  const lsr = archive.lsr ?? input.responses;
  const responses = lsr ? await readResponses(lsr, s.sid, s.title, placed, accounted, skipped) : [];
  for (const name of archive.others)
    skipped.push({
      kind: 'file',
      name: `${s.title} / ${name}`,
      reason: /\.lst$/i.test(name)
        ? 'the participants (tokens) table is not carried over'
        : /\.lsi$/i.test(name)
          ? 'the timings are not carried over'
          : 'a file of the archive this import does not read',
    });
  const created =
    s.created && /^\d{4}-\d{2}-\d{2}/.test(s.created)
      ? `${s.created.slice(0, 10)}T00:00:00+00:00`
      : undefined;
  return {
    id: s.sid || 'limesurvey',
    details: {
      title: plain(s.title).slice(0, 200) || `LimeSurvey survey ${s.sid}`,
      nickname: '',
      language: language ?? 'en',
      ...(created ? { date_created: created, date_modified: created } : {}),
      pages,
    },
    responses,
    skipped,
  };
}

export const limesurvey: Converter = { tool: 'limesurvey', convert: convertLimeSurvey };
