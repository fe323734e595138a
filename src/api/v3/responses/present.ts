// Shaping stored responses into the API's response objects (reference §10.3–10.6).
import { type Static, Type } from 'typebox';
import { answerMarks, type QuizContext, scoreResponse } from '../../../domain/quiz/score.js';
import type { Answer, StoredPage } from '../../../domain/responses/answers.js';
import type { DesignIndex } from '../../../domain/responses/design-index.js';
import { answerText } from '../../../domain/responses/readable.js';
import { type ResponseRow, storedPages } from '../../../domain/responses/responses.js';
import type { SurveyRow } from '../../../domain/surveys/access.js';
import { withOffset } from '../../../platform/dates.js';
import { JsonObject, type JsonOf, jsonOf, parseAs } from '../../../platform/json.js';
import type { Response, Responses } from './schemas.js';

export interface PresentOptions {
  base: string;
  form: 'survey' | 'collector';
  survey: Pick<SurveyRow, 'manage_token'>;
  pages: boolean;
  details?: boolean;
  simple?: DesignIndex;
  pageIds?: Set<string>;
  questionIds?: Set<string>;
  /** A quiz survey's scoring context (`quizContext`): adds quiz_results and per-answer marks. */
  quiz?: QuizContext;
}

/**
 * A file-upload answer as the reference gives it: `{text, download_url, content_type}` (§6.5). The
 * URL is the owner's download page (signed in, analyze access), not a bearer-token endpoint.
 */
function fileAnswer(a: Answer, o: PresentOptions): Answer {
  if (a.upload_id === undefined) return a;
  const { upload_id, ...rest } = a;
  return { ...rest, download_url: `${o.base}/analyze/${o.survey.manage_token}/files/${upload_id}` };
}

function shapePages(stored: StoredPage[], o: PresentOptions) {
  const out = [];
  for (const p of stored) {
    if (o.pageIds && !o.pageIds.has(p.id)) continue;
    const questions = [];
    for (let q of p.questions) {
      if (o.questionIds && !o.questionIds.has(q.id)) continue;
      if (q.answers.some((a) => a.upload_id !== undefined))
        q = { ...q, answers: q.answers.map((a) => fileAnswer(a, o)) };
      if (o.quiz) {
        const iq = o.quiz.index.questions.get(q.id);
        q = { ...q, answers: q.answers.map((a) => ({ ...a, ...answerMarks(iq, a) })) };
      }
      if (!o.simple) {
        questions.push(q);
        continue;
      }
      const iq = o.simple.questions.get(q.id);
      const index = o.simple;
      questions.push({
        ...q,
        family: iq?.family ?? '',
        subtype: iq?.subtype ?? '',
        heading: iq?.heading ?? '',
        answers: q.answers.map((a) => {
          const weight = a.choice_id !== undefined ? iq?.choices.get(a.choice_id)?.weight : undefined;
          return {
            ...a,
            simple_text: answerText(index, q.id, a as Record<string, unknown>),
            ...(weight !== undefined ? { choice_metadata: { weight: String(weight) } } : {}),
          };
        }),
      });
    }
    out.push({ id: p.id, questions });
  }
  return out;
}

export function presentResponse(r: ResponseRow, o: PresentOptions): Static<typeof Response> {
  const href =
    o.form === 'survey'
      ? `${o.base}/v3/surveys/${r.survey_id}/responses/${r.id}`
      : `${o.base}/v3/collectors/${r.collector_id}/responses/${r.id}`;
  const out: Static<typeof Response> = {
    total_time: r.total_time,
    href,
    custom_variables: JSON.parse(r.custom_variables),
    ip_address: r.ip_address,
    id: r.id,
    logic_path: JSON.parse(r.logic_path),
    date_modified: withOffset(r.date_modified),
    response_status: r.response_status,
    custom_value: r.custom_value,
    analyze_url: `${o.base}/analyze/browse/${o.survey.manage_token}?respondent_id=${r.id}`,
    page_path: JSON.parse(r.page_path),
    recipient_id: r.recipient_id,
    collector_id: r.collector_id,
    date_created: withOffset(r.date_created),
    survey_id: r.survey_id,
    ...(o.quiz ? { quiz_results: scoreResponse(o.quiz.index, o.quiz.options, storedPages(r)).results } : {}),
    collection_mode: r.collection_mode,
    edit_url: `${o.base}/r/?sm=${r.edit_token}`,
    metadata: JSON.parse(r.metadata),
    first_name: r.first_name,
    last_name: r.last_name,
    email_address: r.email_address,
  };
  if (o.pages) out.pages = shapePages(storedPages(r), o);
  if (o.details) out.current_page_id = r.current_page_id;
  return out;
}

/** True when presentResponse would give each stored document as it is (no per-answer additions,
 * no page or question selection): responsesJson can then splice them. */
export function plainShape(o: PresentOptions): boolean {
  return o.pages && !o.details && !o.quiz && !o.simple && !o.pageIds && !o.questionIds;
}

/**
 * A page of responses as a JSON array in text, the fields in the order the schema serializer
 * writes them (pages last), for
 * plainShape options: the stored JSON documents (answers, custom variables, page path, metadata)
 * are spliced in as they are instead of parsed and re-serialised. They are what the API's input
 * schemas accepted (answers checked field by field in domain/responses/answers.ts), so they have
 * the API's shapes; the tests read responses back through both paths.
 */
export function responsesJson(rows: ResponseRow[], o: PresentOptions): JsonOf<typeof Responses> {
  const q = JSON.stringify;
  const parts: string[] = [];
  for (const r of rows) {
    const href =
      o.form === 'survey'
        ? `${o.base}/v3/surveys/${r.survey_id}/responses/${r.id}`
        : `${o.base}/v3/collectors/${r.collector_id}/responses/${r.id}`;
    parts.push(
      `{"total_time":${r.total_time},"href":${q(href)},"custom_variables":${r.custom_variables},"ip_address":${q(r.ip_address)},"id":${q(r.id)},"logic_path":${logicPathJson(r.logic_path)},"date_modified":${q(withOffset(r.date_modified))},"response_status":${q(r.response_status)},"custom_value":${q(r.custom_value)},"analyze_url":${q(`${o.base}/analyze/browse/${o.survey.manage_token}?respondent_id=${r.id}`)},"page_path":${r.page_path},"recipient_id":${q(r.recipient_id)},"collector_id":${q(r.collector_id)},"date_created":${q(withOffset(r.date_created))},"survey_id":${q(r.survey_id)},"collection_mode":${q(r.collection_mode)},"edit_url":${q(`${o.base}/r/?sm=${r.edit_token}`)},"metadata":${r.metadata},"first_name":${q(r.first_name)},"last_name":${q(r.last_name)},"email_address":${q(r.email_address)},"pages":${pagesJson(r, o)}}`,
    );
  }
  return jsonOf<typeof Responses>(`[${parts.join(',')}]`);
}

/** Stored pages as they are, unless an answer is a file upload: its stored upload_id becomes the
 * download_url presentResponse gives (the substring test is cheaper than parsing every page). */
function pagesJson(r: ResponseRow, o: PresentOptions): string {
  return r.pages.includes('"upload_id"') ? JSON.stringify(shapePages(storedPages(r), o)) : r.pages;
}

const LogicPath = Type.Record(Type.String(), JsonObject);

/** logic_path: most responses have none ("{}"); a path's steps keep only the schema's fields. */
function logicPathJson(stored: string): string {
  if (stored === '{}') return stored;
  const out: Record<string, unknown> = {};
  for (const [page, step] of Object.entries(parseAs(LogicPath, stored)))
    out[page] = {
      question_id: step.question_id,
      choice_id: step.choice_id,
      action: step.action,
      page_id: step.page_id,
    };
  return JSON.stringify(out);
}
