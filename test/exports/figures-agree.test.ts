// One definition of each figure, wherever it is read: a survey with partial responses and a matrix
// that display logic hides from some respondents, compared across the analyze page, the summary
// page, the summary export and the API's rollups and trends, without a filter and with one (which
// takes the other path, through the kept answers). Skipped counts those shown the matrix who left it
// unanswered, never those its display logic hid it from.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { seedSurvey, signIn, singleChoice, type WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;
let web: WebSession;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account();
  web = await signIn(server, owner);
});
afterAll(async () => {
  await server?.close();
});

const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;|\s+/g, ' ')
    .trim();

describe('figures agree across pages, export and API', () => {
  it('counts completed, partial, completion rate and skipped alike everywhere', async () => {
    const t = { token: owner.token };
    const seeded = await seedSurvey(server, owner, {
      title: 'Tool feedback',
      collector: 'weblink',
      body: { custom_variables: { src: 'Source' } },
      pages: [
        { title: 'You', questions: { uses: singleChoice('Do you use the planner?', ['Yes', 'No']) } },
        { title: 'Planner', questions: {} },
      ],
    });
    const [yes, no] = seeded.choices.uses;
    const matrix = await server.client.post(
      `/v3/surveys/${seeded.id}/pages/${seeded.pages[1]}/questions`,
      {
        family: 'matrix',
        subtype: 'single',
        headings: [{ heading: 'Rate the planner' }],
        answers: {
          rows: [{ text: 'Speed' }, { text: 'Price' }],
          choices: [{ text: 'Bad' }, { text: 'Good' }],
        },
        display_logic: { question_id: seeded.questions.uses, choice_ids: [yes] },
      },
      t,
    );
    expect(matrix.status, matrix.text).toBe(201);
    const m = matrix.body;
    // A condition on the link's variable: the other way hidden responses are found (their answers).
    const why = await server.client.post(
      `/v3/surveys/${seeded.id}/pages/${seeded.pages[1]}/questions`,
      {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: 'Why did the newsletter bring you?' }],
        display_logic: { custom_variable: 'src', value: 'news' },
      },
      t,
    );
    expect(why.status, why.text).toBe(201);
    const [speed, price] = m.answers.rows.map((r: { id: string }) => r.id);
    const good = m.answers.choices[1].id;

    // 11 responses: 8 completed, 3 partial. The matrix: answered by 3, left unanswered by 3 who were
    // shown it (one completed, two partial), hidden from the 5 who do not use the planner.
    const respond = async (status: string, uses: string, rated: boolean, src = '', reason = '') => {
      const pages: any[] = [
        { id: seeded.pages[0], questions: [{ id: seeded.questions.uses, answers: [{ choice_id: uses }] }] },
      ];
      if (rated)
        pages.push({
          id: seeded.pages[1],
          questions: [
            {
              id: m.id,
              answers: [
                { row_id: speed, choice_id: good },
                { row_id: price, choice_id: good },
              ],
            },
            ...(reason ? [{ id: why.body.id, answers: [{ text: reason }] }] : []),
          ],
        });
      const r = await server.client.post(
        `/v3/collectors/${seeded.collector.id}/responses`,
        { response_status: status, pages, custom_variables: src ? { src } : {} },
        t,
      );
      expect(r.status, r.text).toBe(201);
    };
    // The newsletter question: shown to the three who came with src=news, answered by one.
    await respond('completed', yes, true, 'news', 'A friend forwarded it');
    for (let i = 0; i < 2; i++) await respond('completed', yes, true, 'news');
    await respond('completed', yes, false);
    for (let i = 0; i < 4; i++) await respond('completed', no, false);
    for (let i = 0; i < 2; i++) await respond('partial', yes, false);
    await respond('partial', no, false);

    const sm = new URL(seeded.survey.analyze_url).pathname.split('/').at(-1);
    const expectAll = async (
      query: string,
      want: {
        total: number;
        completed: number;
        partial: number;
        answered: number;
        skipped: number;
        hidden: number;
        why: { answered: number; skipped: number; hidden: number };
      },
    ) => {
      const rate = `${Math.round((want.completed / want.total) * 100)}% (${want.completed} of ${want.total})`;
      const figure = { answered: want.answered, skipped: want.skipped };

      // The summary page.
      const summary = await web.get(`/summary/${sm}${query ? `?${query}` : ''}`);
      expect(summary.status).toBe(200);
      const fig = (id: string) =>
        text(new RegExp(`id="${id}"><span class="n">([^<]*)<`).exec(summary.text)![1]);
      expect([fig('f-total'), fig('f-completed'), fig('f-partial')]).toEqual([
        String(want.total),
        String(want.completed),
        String(want.partial),
      ]);
      const rateFigure = /id="f-rate"><span class="n">([^<]*)<\/span>([^<]*)</.exec(summary.text)!;
      expect([rateFigure[1], rateFigure[2]]).toEqual([
        `${Math.round((want.completed / want.total) * 100)}%`,
        `Completion rate (${want.completed} of ${want.total})`,
      ]);

      // The analyze page: the matrix's figures and the trend's completion rate.
      const analyze = await web.get(`/analyze/${sm}${query ? `?${query}` : ''}`);
      expect(analyze.status).toBe(200);
      const section = new RegExp(`id="r${m.id}"[\\s\\S]*?<p class="muted q-figures">([^<]*)</p>`).exec(
        analyze.text,
      );
      const shown = want.answered + want.skipped;
      expect(text(section![1])).toBe(
        `Answered: ${want.answered} · Skipped: ${want.skipped} · Hidden by display logic: ${want.hidden} · ${Math.round((want.answered / shown) * 100)}% answered`,
      );
      expect(analyze.text).toContain(`<strong id="trend-rate">${rate}</strong>`);
      expect(analyze.text).not.toContain('>100% completed</text>'); // the scale's top is not a figure

      // The API's rollups and trends.
      const rollups = await server.client.get(
        `/v3/surveys/${seeded.id}/rollups${query ? `?${query}` : ''}`,
        t,
      );
      expect(rollups.status, rollups.text).toBe(200);
      const rolled = rollups.body.data.find((d: { id: string }) => d.id === m.id);
      expect(rolled.summary[0]).toMatchObject(figure);
      const whyRolled = rollups.body.data.find((d: { id: string }) => d.id === why.body.id);
      expect(whyRolled.summary[0]).toMatchObject({ answered: want.why.answered, skipped: want.why.skipped });
      const whySection = new RegExp(
        `id="r${why.body.id}"[\\s\\S]*?<p class="muted q-figures">([^<]*)</p>`,
      ).exec(analyze.text);
      expect(text(whySection![1])).toContain(
        `Answered: ${want.why.answered} · Skipped: ${want.why.skipped} · Hidden by display logic: ${want.why.hidden}`,
      );
      const trends = await server.client.get(`/v3/surveys/${seeded.id}/trends${query ? `?${query}` : ''}`, t);
      expect(trends.status, trends.text).toBe(200);
      const trend = trends.body.data.find((d: { id: string }) => d.id === m.id);
      expect({ answered: trend.answered, skipped: trend.skipped }).toEqual(figure);
    };

    await expectAll('', {
      total: 11,
      completed: 8,
      partial: 3,
      answered: 3,
      skipped: 3,
      hidden: 5,
      why: { answered: 1, skipped: 2, hidden: 8 },
    });
    // Completed only: the other path (the kept answers of the matching responses).
    await expectAll('status=completed', {
      total: 8,
      completed: 8,
      partial: 0,
      answered: 3,
      skipped: 1,
      hidden: 4,
      why: { answered: 1, skipped: 2, hidden: 5 },
    });

    // The summary export: the matrix's Answered and Skipped columns.
    const exported = await server.client.post(`/v3/surveys/${seeded.id}/exports`, { format: 'summary' }, t);
    expect(exported.status, exported.text).toBe(201);
    const file = await fetch(exported.body.download_url.replace('http://localhost', server.url), {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const lines: string[][] = parse(Buffer.from(await file.arrayBuffer()), {
      bom: true,
      record_delimiter: '\r\n',
    });
    const [head, ...rest] = lines;
    const col = (name: string) => head.indexOf(name);
    const rows = rest.filter((l) => l[0] === 'Rate the planner');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect([r[col('Answered')], r[col('Skipped')]]).toEqual(['3', '3']);
  });
});
