// The every-kind survey of test/helpers/fixtures.ts, created through POST /v3/surveys: it holds a
// question of every family and subtype the product supports and each display type, so a test that
// seeds it covers them all (a new subtype fails here until the fixture has it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBTYPES } from '../../src/domain/surveys/question-schema.js';
import { seedSurvey, startServer, type TestServer } from '../helpers/fixtures.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('the every-kind seeded survey', () => {
  it('has every family/subtype and display type, with the ids of each question by name', async () => {
    const owner = await server.account();
    const s = await seedSurvey(server, owner);
    const asked = s.details.pages.flatMap((p: any) => p.questions);
    const kinds = new Set(asked.map((q: any) => `${q.family}/${q.subtype}`));
    for (const [family, subtypes] of Object.entries(SUBTYPES))
      for (const subtype of subtypes) expect(kinds, `${family}/${subtype}`).toContain(`${family}/${subtype}`);
    const displays = new Set(asked.map((q: any) => q.display_options?.display_type).filter(Boolean));
    expect([...displays].sort()).toEqual(['emoji', 'file_upload', 'image_choice', 'slider']);
    expect(s.pages).toHaveLength(s.details.pages.length);
    expect(Object.keys(s.byFamily).sort()).toEqual(Object.keys(SUBTYPES).sort());
    expect(s.question('matrix_menu').id).toBe(s.questions.matrix_menu);
    expect(s.choices.single_vertical).toEqual(
      s.question('single_vertical').answers.choices.map((c: any) => c.id),
    );
    expect(s.rows.demographic_us).toHaveLength(10);
  });

  it('the simple variant: one page, a single choice and a text box, and a collector when asked', async () => {
    const owner = await server.account();
    const s = await seedSurvey(server, owner, { kind: 'simple', collector: 'weblink' });
    expect(s.pages).toHaveLength(1);
    expect(Object.keys(s.questions)).toEqual(['choice', 'text']);
    expect(s.choices.choice).toHaveLength(2);
    const c = await server.client.get(`/v3/collectors/${s.collector!.id}`, { token: owner.token });
    expect(c.status).toBe(200);
  });
});
