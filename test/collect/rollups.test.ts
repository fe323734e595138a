import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../helpers/client.js';
import { TestClock } from '../helpers/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEveryFamilySurvey, prng, randomAnswers } from './fixtures.js';

let server: TestServer;
const clock = new TestClock('2026-06-01T12:00:00Z');

beforeAll(async () => {
  server = await startServer({ clock });
});
afterAll(() => server.close());

/** Counts computed the slow, obvious way from what was posted. */
function expectedChoiceCounts(sent: any[][], qid: string) {
  const counts = new Map<string, number>();
  let answered = 0;
  for (const pages of sent)
    for (const p of pages)
      for (const q of p.questions)
        if (q.id === qid) {
          answered++;
          for (const a of q.answers)
            if (a.choice_id && !a.row_id) counts.set(a.choice_id, (counts.get(a.choice_id) ?? 0) + 1);
        }
  return { counts, answered };
}

describe('rollups and trends', () => {
  it('summarizes every question from kept counts, with filters, pages, questions and trends', async () => {
    const a = await server.account();
    const details = await createEveryFamilySurvey(server.client, a.token);
    const sid = details.id;
    const c1 = (
      await server.client.post(`/v3/surveys/${sid}/collectors`, { type: 'weblink' }, { token: a.token })
    ).body.id;
    const c2 = (
      await server.client.post(`/v3/surveys/${sid}/collectors`, { type: 'weblink' }, { token: a.token })
    ).body.id;
    const r = prng(5);
    const sent: any[][] = [];
    const byCollector: Record<string, any[][]> = { [c1]: [], [c2]: [] };
    for (let i = 0; i < 30; i++) {
      clock.set(i < 20 ? '2026-06-01T12:00:00Z' : '2026-06-03T09:00:00Z');
      const cid = i % 3 === 0 ? c2 : c1;
      const pages = randomAnswers(details, r, i);
      const res = await server.client.post(
        `/v3/collectors/${cid}/responses`,
        { pages, response_status: i % 5 === 0 ? 'partial' : 'completed' },
        { token: a.token },
      );
      expect(res.status).toBe(201);
      sent.push(pages);
      byCollector[cid].push(pages);
    }
    // one response changed and one deleted: counts follow
    const colour = details.pages[0].questions[1];
    const list = await server.client.get(`/v3/surveys/${sid}/responses?per_page=2`, { token: a.token });
    const [first, second] = list.body.data.map((d: any) => d.id);
    const repl = [
      {
        id: details.pages[0].id,
        questions: [{ id: colour.id, answers: [{ choice_id: colour.answers.choices[0].id }] }],
      },
    ];
    await server.client.put(`/v3/surveys/${sid}/responses/${first}`, { pages: repl }, { token: a.token });
    sent[0] = repl;
    byCollector[c2][0] = repl;
    await server.client.delete(`/v3/surveys/${sid}/responses/${second}`, { token: a.token });
    sent.splice(1, 1);
    byCollector[c1].splice(0, 1);

    const all = await server.client.get(`/v3/surveys/${sid}/rollups?per_page=100`, { token: a.token });
    expect(all.status).toBe(200);
    const nonPresentation = details.pages
      .flatMap((p: any) => p.questions)
      .filter((q: any) => q.family !== 'presentation');
    expect(all.body.total).toBe(nonPresentation.length);
    const colourRollup = all.body.data.find((x: any) => x.id === colour.id);
    const exp = expectedChoiceCounts(sent, colour.id);
    expect(colourRollup).toMatchObject({
      family: 'single_choice',
      subtype: 'vertical',
      href: `${server.url}/v3/surveys/${sid}/pages/${details.pages[0].id}/questions/${colour.id}/rollups`,
    });
    expect(colourRollup.summary[0].answered).toBe(exp.answered);
    expect(colourRollup.summary[0].skipped).toBe(29 - exp.answered);
    for (const ch of colourRollup.summary[0].choices) expect(ch.count).toBe(exp.counts.get(ch.id) ?? 0);

    // matrix rows and menu cells
    const msingle = details.pages[1].questions[0];
    const m = all.body.data.find((x: any) => x.id === msingle.id).summary[0];
    const speed = msingle.answers.rows[0].id;
    let speedGood = 0;
    for (const pages of sent)
      for (const p of pages)
        for (const q of p.questions)
          if (q.id === msingle.id)
            for (const ans of q.answers)
              if (ans.row_id === speed && ans.choice_id === msingle.answers.choices[1].id) speedGood++;
    expect(
      m.rows.find((x: any) => x.id === speed).choices.find((c: any) => c.id === msingle.answers.choices[1].id)
        .count,
    ).toBe(speedGood);
    const menu = details.pages[1].questions[4];
    const menuSummary = all.body.data.find((x: any) => x.id === menu.id).summary[0];
    const cell = menuSummary.rows[0].cols[0].choices;
    expect(cell.reduce((s: number, c: any) => s + c.count, 0)).toBe(menuSummary.answered);
    // numerical statistics
    const numbers = details.pages[2].questions[3];
    const stats = all.body.data.find((x: any) => x.id === numbers.id).summary[0].rows[0].stats;
    const values = sent.flatMap((pages) =>
      pages.flatMap((p: any) =>
        p.questions.filter((q: any) => q.id === numbers.id).map((q: any) => Number(q.answers[0].text)),
      ),
    );
    expect(stats.min).toBe(Math.min(...values));
    expect(stats.max).toBe(Math.max(...values));
    expect(stats.mean).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length);

    // collector filter (kept counts) equals the slow count over that collector's responses
    const one = await server.client.get(
      `/v3/surveys/${sid}/pages/${details.pages[0].id}/questions/${colour.id}/rollups?collector_ids=${c2}`,
      { token: a.token },
    );
    expect(one.status).toBe(200);
    const exp2 = expectedChoiceCounts(byCollector[c2], colour.id);
    expect(one.body.summary[0].answered).toBe(exp2.answered);
    for (const ch of one.body.summary[0].choices) expect(ch.count).toBe(exp2.counts.get(ch.id) ?? 0);
    // a filter that needs a scan gives the same numbers as the kept counts when it keeps everything
    const scanned = await server.client.get(
      `/v3/surveys/${sid}/pages/${details.pages[0].id}/questions/${colour.id}/rollups?status=completed,partial`,
      { token: a.token },
    );
    expect(scanned.body.summary).toEqual(colourRollup.summary);
    const later = await server.client.get(
      `/v3/surveys/${sid}/pages/${details.pages[0].id}/questions/${colour.id}/rollups?start_created_at=2026-06-02T00:00:00`,
      { token: a.token },
    );
    expect(later.body.summary[0].answered + later.body.summary[0].skipped).toBe(10);

    const pageRollups = await server.client.get(`/v3/surveys/${sid}/pages/${details.pages[1].id}/rollups`, {
      token: a.token,
    });
    expect(pageRollups.body.data.map((x: any) => x.id)).toEqual(
      details.pages[1].questions.map((q: any) => q.id),
    );

    const tr = await server.client.get(
      `/v3/surveys/${sid}/pages/${details.pages[0].id}/questions/${colour.id}/trends?trend_by=day`,
      {
        token: a.token,
      },
    );
    expect(tr.status).toBe(200);
    expect(tr.body.trend_by).toBe('day');
    expect(tr.body.trends.map((t: any) => [t.start, t.end])).toEqual([
      ['2026-06-01T00:00:00+00:00', '2026-06-02T00:00:00+00:00'],
      ['2026-06-03T00:00:00+00:00', '2026-06-04T00:00:00+00:00'],
    ]);
    const trendTotal = tr.body.trends.reduce(
      (s: number, t: any) => s + t.choices.reduce((x: number, c: any) => x + c.count, 0),
      0,
    );
    expect(trendTotal).toBe([...exp.counts.values()].reduce((s, v) => s + v, 0));
    const surveyTrends = await server.client.get(`/v3/surveys/${sid}/trends?trend_by=month`, {
      token: a.token,
    });
    expect(surveyTrends.body.data.find((x: any) => x.id === colour.id).trends).toHaveLength(1);
    const pageTrends = await server.client.get(`/v3/surveys/${sid}/pages/${details.pages[2].id}/trends`, {
      token: a.token,
    });
    // datetime questions have no trends
    expect(pageTrends.body.data.find((x: any) => x.family === 'datetime').trends).toEqual([]);

    // bad input, someone else's survey, wrong scope, no token, basic plan beyond 25 responses
    expect(
      errorCode(await server.client.get(`/v3/surveys/${sid}/trends?trend_by=minute`, { token: a.token })),
    ).toBe('1003');
    expect(
      errorCode(await server.client.get(`/v3/surveys/${sid}/rollups?status=new`, { token: a.token })),
    ).toBe('1003');
    expect((await server.client.get(`/v3/surveys/${sid}/pages/1/rollups`, { token: a.token })).status).toBe(
      404,
    );
    const other = await server.account();
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/rollups`, { token: other.token }))).toBe(
      '1020',
    );
    const reader = await server.account({ scopes: ['responses_read'] });
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/rollups`, { token: reader.token }))).toBe(
      '1014',
    );
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/rollups`))).toBe('1010');
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', a.user.id)
      .execute();
    expect(errorCode(await server.client.get(`/v3/surveys/${sid}/rollups`, { token: a.token }))).toBe('1005');
  });
});
