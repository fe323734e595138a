// The domain tier's check of a converted survey: its details and responses read as the importer
// reads SurveyMonkey's (the same schemas), the design goes through createSurvey and every response
// through createResponse (which refuse what does not fit), and the answers stored are counted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Value from 'typebox/value';
import { createCollector } from '../../../src/domain/collectors/collectors.js';
import { blueprintPages, pairDesign } from '../../../src/domain/import/design.js';
import type { ConvertedSurvey } from '../../../src/domain/import/files/converted.js';
import { mapAnswers } from '../../../src/domain/import/responses.js';
import { problem, SourceResponse, SurveyDetails } from '../../../src/domain/import/source.js';
import { designIndex } from '../../../src/domain/responses/design-index.js';
import { createResponse, getResponse, type ResponseStatus } from '../../../src/domain/responses/responses.js';
import { requireSurvey } from '../../../src/domain/surveys/access.js';
import { createSurvey, loadDesign } from '../../../src/domain/surveys/surveys.js';
import type { DomainAccount, DomainTest } from '../../domain/setup.js';

export const fixture = (tool: string, name: string) => readFileSync(join(__dirname, tool, name));

/** How many answers the converted responses hold. */
export const answerCount = (responses: unknown[]) =>
  responses.reduce<number>((n, r) => {
    if (!Value.Check(SourceResponse, { collector_id: '1', ...(r as object) })) return n;
    const x = Value.Parse(SourceResponse, { collector_id: '1', ...(r as object) });
    return (
      n +
      (x.pages ?? []).reduce(
        (m, p) => m + (p.questions ?? []).reduce((k, q) => k + (q.answers ?? []).length, 0),
        0,
      )
    );
  }, 0);

/** Lands a converted survey as the importer would; returns the stored answers' count and the design. */
export async function land(t: DomainTest, owner: DomainAccount, c: ConvertedSurvey) {
  const wrong = problem(SurveyDetails, c.details);
  if (wrong) throw new Error(`details: ${wrong}`);
  const details = Value.Parse(SurveyDetails, c.details);
  const skipped: Array<{ kind: string; name: string; reason: string }> = [];
  const pages = blueprintPages(details, skipped);
  if (skipped.length) throw new Error(`the importer left out: ${JSON.stringify(skipped)}`);
  const row = await createSurvey(t.deps, owner.actor, {
    title: details.title,
    language: details.language ?? 'en',
    custom_variables: details.custom_variables ?? {},
    ...(details.quiz_options ? { quiz_options: details.quiz_options as never } : {}),
    pages,
  });
  const design = await loadDesign(t.deps, row.id);
  const pairs = pairDesign(details, design);
  const map = new Map([...pairs.page, ...pairs.question, ...pairs.answer]);
  const survey = await requireSurvey(t.deps, owner.actor, row.id, 'collect', 'write');
  const collector = await createCollector(t.deps, owner.actor, survey, { type: 'weblink' }, undefined);
  const index = await designIndex(t.deps, survey);
  let stored = 0;
  for (const raw of c.responses) {
    const item = { collector_id: '1', ...(raw as object) };
    const bad = problem(SourceResponse, item);
    if (bad) throw new Error(`response: ${bad}`);
    const r = Value.Parse(SourceResponse, item);
    const created = await createResponse(
      t.deps,
      { userId: owner.user.id, ip: null },
      survey,
      collector,
      index,
      {
        pages: mapAnswers(r.pages ?? [], map, () => {
          throw new Error('a file answer');
        }),
        custom_variables: r.custom_variables ?? {},
        response_status: r.response_status as ResponseStatus,
      },
      r.date_created ?? undefined,
      { silent: true, dateModified: r.date_modified },
    );
    const back = await getResponse(t.deps, { surveyId: survey.id }, created.id);
    stored += JSON.parse(back.pages).reduce(
      (n: number, p: { questions: Array<{ answers: unknown[] }> }) =>
        n + p.questions.reduce((m, q) => m + q.answers.length, 0),
      0,
    );
  }
  return { survey, design, stored, map };
}
