// Shaping stored rows into the API's resources: dates per reference §1.1 (surveys: minute
// precision, no offset), absolute hrefs and survey URLs on the host that was called.
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { SurveyRow } from '../../../domain/surveys/access.js';
import { calculatedOf } from '../../../domain/surveys/calculated.js';
import type { PageWithCount, QuestionRow } from '../../../domain/surveys/design.js';
import type { Question, StoredQuestion } from '../../../domain/surveys/question-schema.js';
import { settingsOf } from '../../../domain/surveys/surveys.js';
import { surveyUrls } from '../../../domain/surveys/urls.js';
import { baseUrl } from '../../../http/paging.js';
import { minuteNoOffset } from '../../../platform/dates.js';
import { type JsonOf, jsonOf } from '../../../platform/json.js';
import type { Page, Survey, SurveyDetails } from './schemas.js';

export function presentSurvey(request: FastifyRequest, s: SurveyRow): Static<typeof Survey> {
  const base = baseUrl(request);
  const settings = settingsOf(s);
  return {
    title: s.title,
    nickname: s.nickname,
    language: s.language,
    folder_id: s.folder_id ?? '0',
    category: s.category,
    question_count: s.question_count,
    page_count: s.page_count,
    response_count: s.response_count,
    date_created: minuteNoOffset(s.date_created),
    date_modified: minuteNoOffset(s.date_modified),
    id: s.id,
    buttons_text: settings.buttons_text,
    is_owner: s.owner_id === request.auth.user.id,
    footer: settings.footer,
    ...(s.theme_id !== null ? { theme_id: s.theme_id } : {}),
    custom_variables: settings.custom_variables,
    ...(settings.quiz_options ? { quiz_options: settings.quiz_options } : {}),
    ...(settings.logo_url ? { logo_url: settings.logo_url } : {}),
    ...(settings.theme_color ? { theme_color: settings.theme_color } : {}),
    question_layout: settings.question_layout,
    calculated_variables: calculatedOf(s),
    href: `${base}/v3/surveys/${s.id}`,
    ...surveyUrls(base, s),
  };
}

export function pageHref(base: string, surveyId: string, pageId: string): string {
  return `${base}/v3/surveys/${surveyId}/pages/${pageId}`;
}

export function presentPage(
  base: string,
  p: Pick<
    PageWithCount,
    'id' | 'survey_id' | 'title' | 'description' | 'position' | 'question_count' | 'logic' | 'sorting'
  >,
): Static<typeof Page> {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    position: p.position,
    question_count: p.question_count,
    ...(p.logic ? { logic: p.logic } : {}),
    ...(p.sorting ? { sorting: p.sorting } : {}),
    href: pageHref(base, p.survey_id, p.id),
  };
}

export function presentQuestion(
  base: string,
  surveyId: string,
  q: { id: string; page_id: string; position: number; family: string; subtype: string; doc: StoredQuestion },
): Static<typeof Question> {
  return {
    id: q.id,
    position: q.position,
    family: q.family,
    subtype: q.subtype,
    ...q.doc,
    href: `${pageHref(base, surveyId, q.page_id)}/questions/${q.id}`,
  };
}

export function questionHeading(q: Pick<QuestionRow, 'doc'>): string {
  return q.doc.headings[0]?.heading ?? '';
}

/**
 * GET /details as JSON text, built around the stored question designs instead of parsing and
 * re-serialising each. A stored design is the output of normalizeQuestion from a body the
 * question schema accepted (no unknown fields anywhere), so it already has the Question shape;
 * the tests read every family back through this path and through GET question (schema-serialized).
 */
export function detailsJson(
  request: FastifyRequest,
  survey: SurveyRow,
  pages: Array<Pick<PageWithCount, 'id' | 'position' | 'title' | 'description' | 'logic' | 'sorting'>>,
  questions: Map<
    string,
    Array<{ id: string; page_id: string; position: number; family: string; subtype: string; doc: string }>
  >,
): JsonOf<typeof SurveyDetails> {
  const base = baseUrl(request);
  const head = JSON.stringify(presentSurvey(request, survey));
  const parts: string[] = [head.slice(0, -1), ',"pages":['];
  pages.forEach((p, i) => {
    const qs = questions.get(p.id) ?? [];
    const page = JSON.stringify(presentPage(base, { ...p, survey_id: survey.id, question_count: qs.length }));
    parts.push(i > 0 ? ',' : '', page.slice(0, -1), ',"questions":[');
    const href = `${pageHref(base, survey.id, p.id)}/questions/`;
    qs.forEach((q, j) => {
      parts.push(
        j > 0 ? ',{"id":' : '{"id":',
        JSON.stringify(q.id),
        ',"position":',
        String(q.position),
        ',"family":',
        JSON.stringify(q.family),
        ',"subtype":',
        JSON.stringify(q.subtype),
        ',"href":',
        JSON.stringify(href + q.id),
        // The stored design's members follow; an empty one ("{}") has none, so no comma.
        /^\{\s*\}$/.test(q.doc) ? '}' : `,${q.doc.slice(1)}`,
      );
    });
    parts.push(']}');
  });
  parts.push(']}');
  return jsonOf<typeof SurveyDetails>(parts.join(''));
}
