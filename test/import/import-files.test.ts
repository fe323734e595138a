// Importing LimeSurvey exports (test/import/files/limesurvey/generate.py writes the fixtures):
// a survey archive through `survey-service import-file`, a 2.x-layout structure file with its
// responses file apart through the domain; every answer arrives (the rollups equal the source's
// counts), what is not carried over is reported, a second run copies nothing, and every bad input
// is refused with a clear message before anything is written.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/domain/accounts/users.js';
import { requireUser } from '../../src/domain/accounts/users.js';
import { BadImportFile } from '../../src/domain/import/files/converted.js';
import { runFileImport } from '../../src/domain/import/files/import-file.js';
import { runCliAsync } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const DIR = 'test/import/files/limesurvey';
const fixture = (name: string) => readFileSync(join(DIR, name));
const expected: { responses: number; completed: number; questions: Record<string, any> } = JSON.parse(
  fixture('expected.json').toString(),
);

let server: TestServer;
let token: string;
let username: string;
let owner: Account;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  const a = await server.account();
  token = a.token;
  username = a.user.username;
  owner = await requireUser(server.deps, username);
  env = {
    DATABASE_URL: server.config.databaseUrl,
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyzABCDEF',
    SCRYPT_LOG_N: '10',
  };
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const cli = (args: string[], extra: Record<string, string> = {}) =>
  runCliAsync(['import-file', '--owner', username, ...args], { ...env, ...extra });

/** What is in the database that an import writes (nothing of it may change on a refusal). */
async function written() {
  const k = server.deps.db.kysely;
  const count = async (table: 'import_jobs' | 'surveys' | 'responses' | 'import_ids') =>
    Number(
      (
        await k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    jobs: await count('import_jobs'),
    surveys: await count('surveys'),
    responses: await count('responses'),
    ids: await count('import_ids'),
  };
}

/** The imported survey's rollups, in the fixture's terms (question code, option and row texts). */
async function countsOf(surveyId: string) {
  const details = (await server.client.get(`/v3/surveys/${surveyId}/details`, { token })).body;
  const rollups = (await server.client.get(`/v3/surveys/${surveyId}/rollups?per_page=100`, { token })).body;
  const summaries = new Map<string, any>(rollups.data.map((r: any) => [r.id, r.summary[0]]));
  const out: Record<string, any> = {};
  const text = (list: any[] | undefined) =>
    new Map<string, string>((list ?? []).map((x: any) => [x.id, x.text]));
  const nonZero = (choices: any[], names: Map<string, string>) =>
    Object.fromEntries(choices.filter((c) => c.count > 0).map((c) => [names.get(c.id), c.count]));
  for (const page of details.pages)
    for (const q of page.questions) {
      const s = summaries.get(q.id);
      if (!s) continue;
      const a = q.answers ?? {};
      if (q.family === 'single_choice' || q.family === 'multiple_choice') {
        out[q.nickname] = nonZero(s.choices, text(a.choices));
        if (s.other_answered) out[q.nickname].other = s.other_answered;
      } else if (q.family === 'matrix' && q.subtype === 'menu') {
        const cols = text(a.cols);
        out[q.nickname] = Object.fromEntries(
          s.rows[0].cols.map((c: any) => [
            cols.get(c.id),
            nonZero(c.choices, text(a.cols.find((x: any) => x.id === c.id).choices)),
          ]),
        );
      } else if (q.family === 'matrix') {
        const rows = text(a.rows);
        out[q.nickname] = Object.fromEntries(
          s.rows
            .filter((r: any) => r.answered > 0)
            .map((r: any) => [rows.get(r.id), nonZero(r.choices, text(a.choices))]),
        );
      } else if (q.family === 'open_ended' && (q.subtype === 'multi' || q.subtype === 'numerical')) {
        const rows = text(a.rows);
        out[q.nickname] = Object.fromEntries(
          s.rows
            .filter((r: any) => r.answered > 0)
            .map((r: any) => [rows.get(r.id), { answered: r.answered }]),
        );
      } else if (s.answered > 0) out[q.nickname] = { answered: s.answered };
    }
  return { details, counts: out };
}

async function responseTotals(surveyId: string) {
  const all = (await server.client.get(`/v3/surveys/${surveyId}/responses/bulk?per_page=100`, { token }))
    .body;
  return {
    responses: all.total,
    completed: all.data.filter((r: any) => r.response_status === 'completed').length,
  };
}

describe('import-file --from limesurvey', () => {
  let surveyId: string;

  it('imports a survey archive (.lsa): every answer arrives, what is not carried over is reported', async () => {
    const r = await cli(['--from', 'limesurvey', '--file', join(DIR, 'survey-6x.lsa'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ state: 'done', responses_copied: expected.responses });
    expect(out.copied).toMatchObject({ surveys: 1, responses: expected.responses });
    surveyId = out.survey_id;
    const reasons = out.skipped.map((s: any) => `${s.kind} ${s.name}: ${s.reason}`).join('\n');
    // each thing left behind, by name
    expect(reasons).toMatch(/question .*Q28: equation/);
    expect(reasons).toMatch(/answer .*Q14: a comment on a chosen option .*\(1 response\)/);
    expect(reasons).toMatch(/answer .*Q27: an uploaded file .*\(2 responses\)/);
    expect(reasons).toMatch(/logic .*Q30: shown always: .*more than one simple comparison/);
    expect(reasons).toMatch(/logic .*Q31: shown always: .*same page/);
    expect(reasons).toMatch(/response .*participant tokens: .*1 responses/);
    expect(reasons).toMatch(/file .*tokens\.lst: the participants \(tokens\) table/);
    expect(reasons).toMatch(/setting .*welcome text/);
    expect(reasons).not.toMatch(/column/); // every column of the responses has its question

    const { details, counts } = await countsOf(surveyId);
    expect(details.title).toBe('Moving in from LimeSurvey');
    expect(details.pages.map((p: any) => p.title)).toEqual(['About you', 'Arrays', 'Last page']);
    expect(counts).toEqual(expected.questions);
    expect(await responseTotals(surveyId)).toEqual({
      responses: expected.responses,
      completed: expected.completed,
    });
    // simple relevance equations became display logic on the right question and options
    const byCode = new Map<string, any>(
      details.pages.flatMap((p: any) => p.questions.map((q: any) => [q.nickname, q])),
    );
    const choiceId = (code: string, text: string) =>
      byCode.get(code).answers.choices.find((c: any) => c.text === text).id;
    expect(byCode.get('Q15').display_logic).toEqual({
      question_id: byCode.get('Q1').id,
      operator: 'selected',
      choice_ids: [choiceId('Q1', 'Red')],
    });
    expect(byCode.get('Q17').display_logic).toMatchObject({
      operator: 'selected',
      choice_ids: [choiceId('Q13', 'Reading')],
    });
    expect(byCode.get('Q18').display_logic).toMatchObject({
      question_id: byCode.get('Q8').id,
      operator: 'answered',
    });
    expect(byCode.get('Q19').display_logic).toMatchObject({ operator: 'greater_than', value: '30' });
    expect(byCode.get('Q32').display_logic).toMatchObject({
      operator: 'selected',
      choice_ids: [choiceId('Q5', 'Yes')],
    });
    expect(byCode.get('Q33').display_logic).toMatchObject({
      choice_ids: [choiceId('Q1', 'Green'), choiceId('Q1', 'Blue')],
    });
    expect(byCode.get('Q30').display_logic ?? null).toBeNull();
  }, 120_000);

  it('importing the same file again copies nothing new', async () => {
    const before = await written();
    const r = await cli(['--from', 'limesurvey', '--file', join(DIR, 'survey-6x.lsa'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ state: 'done', survey_id: surveyId, copied: {} });
    expect(await written()).toEqual(before);
  }, 60_000);

  it('a dry run says what would come over and writes nothing', async () => {
    const before = await written();
    const r = await cli([
      '--from',
      'limesurvey',
      '--file',
      join(DIR, 'survey-2x.lss'),
      '--responses',
      join(DIR, 'responses.lsr'),
      '--dry-run',
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({
      dry_run: true,
      tool: 'limesurvey',
      pages: 3,
      responses: expected.responses,
    });
    expect(plan.questions).toBe(32); // 33 less the equation
    expect(plan.skipped.map((s: any) => s.kind)).toContain('translation');
    expect(await written()).toEqual(before);
  }, 60_000);

  it('a 2.x survey structure file with its responses file apart: the same survey, German reported', async () => {
    const r = await runFileImport(server.deps, owner, {
      tool: 'limesurvey',
      file: fixture('survey-2x.lss'),
      responses: fixture('responses.lsr'),
    });
    expect(r.state).toBe('done');
    expect(r.surveyId).not.toBe(surveyId);
    const { details, counts } = await countsOf(r.surveyId!);
    // the base language's texts, whichever language's rows come first in the file
    expect(details.pages.map((p: any) => p.title)).toEqual(['About you', 'Arrays', 'Last page']);
    expect(counts).toEqual(expected.questions);
    expect(await responseTotals(r.surveyId!)).toEqual({
      responses: expected.responses,
      completed: expected.completed,
    });
    expect(r.skipped).toContainEqual(
      expect.objectContaining({ kind: 'translation', name: 'Moving in from LimeSurvey / de' }),
    );
  }, 60_000);

  it.each([
    ['truncated.lss', /not well-formed XML .*truncated/],
    ['entities.lss', /declares a DTD or entities/],
    ['traversal.lsa', /cannot be read.*(invalid relative path|\.\.)/],
    ['bomb.lsa', /unpacks to more than 256 MB/],
    ['liar.lsa', /cannot be read.*too many bytes/],
  ])('refuses bad/%s, writing nothing', async (name, message) => {
    const before = await written();
    const err = await runFileImport(server.deps, owner, {
      tool: 'limesurvey',
      file: fixture(`bad/${name}`),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(BadImportFile);
    expect(err.message).toMatch(message);
    expect(await written()).toEqual(before);
  });

  it.each([
    [
      'a responses file as the survey',
      () => fixture('responses.lsr'),
      /a LimeSurvey Responses export, not a survey/,
    ],
    ['an image', () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), /neither a LimeSurvey/],
    ['an empty file', () => Buffer.alloc(0), /empty/],
  ])('refuses %s, writing nothing', async (_what, file, message) => {
    const before = await written();
    const err = await runFileImport(server.deps, owner, { tool: 'limesurvey', file: file() }).catch((e) => e);
    expect(err).toBeInstanceOf(BadImportFile);
    expect(err.message).toMatch(message);
    expect(await written()).toEqual(before);
  });

  it('refuses a file over IMPORT_FILE_MAX_MB and an unknown tool, from the command line', async () => {
    const big = join(tmpdir(), `import-big-${process.pid}.lss`);
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024 + 1, 0x20));
    const before = await written();
    const r = await cli(['--from', 'limesurvey', '--file', big], { IMPORT_FILE_MAX_MB: '2' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/larger than 2 MB, the most this server takes \(IMPORT_FILE_MAX_MB\)/);
    const u = await cli(['--from', 'surveygizmo', '--file', join(DIR, 'survey-6x.lss')]);
    expect(u.status).toBe(1);
    expect(u.stderr).toMatch(/There is no importer for "surveygizmo": the tools are limesurvey/);
    expect(await written()).toEqual(before);
  }, 60_000);
});
