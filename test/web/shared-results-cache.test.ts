// The shared results page's figures are kept per results stamp (deps.caches.sharedResults), and a
// change to the survey's responses or design shows on the very next view: a new response, an
// edited one, a deleted one, a renamed question. Scaled out (TEST_SCALE_OUT=1: two app instances
// with their own caches behind a proxy taking turns), the write and the views go to different
// instances, so no instance may serve what it rendered before the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { type OfficeMove, seedOfficeMove } from './fixtures.js';

let server: TestServer;
let owner: TestAccount;
let seeded: OfficeMove;
let path: string;

beforeAll(async () => {
  server = await startServer();
  owner = await server.account({ plan: 'advantage' });
  seeded = await seedOfficeMove(server, owner, { questions: ['floor'], responses: 4 });
  const web = await signIn(server, owner);
  const share = `/analyze/share?sm=${seeded.analyze.split('/').pop()}`;
  const _csrf = await web.csrf(share);
  const saved = await web.post(share, { _csrf, state: 'on', q: [seeded.q.floor], filter: 'none' });
  expect(saved.status).toBe(303);
  const m = /id="share-link"[^>]*value="([^"]+)"/.exec((await web.get(share)).text);
  path = new URL(m![1]).pathname;
});
afterAll(async () => {
  await server?.close();
});

const tk = () => ({ token: owner.token });

interface Figures {
  total: number;
  ground: number;
  top: number;
  heading: boolean;
}

/** The page's total and floor counts, read twice so that, scaled out, each instance answers. */
async function figures(): Promise<Figures[]> {
  const out: Figures[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await fetch(new URL(path, server.url));
    expect(res.status).toBe(200);
    const text = await res.text();
    const n = (re: RegExp) => Number(re.exec(text)?.[1]);
    out.push({
      total: n(/id="total"><strong>(\d+)<\/strong>/),
      ground: n(/<title>Ground floor: (\d+) \(/),
      top: n(/<title>Top floor: (\d+) \(/),
      heading: text.includes('Which floor, then?'),
    });
  }
  return out;
}

async function expectFigures(want: Omit<Figures, 'heading'>, heading = false) {
  expect(await figures()).toEqual([
    { ...want, heading },
    { ...want, heading },
  ]);
}

describe('shared results page cache', () => {
  it('keeps the figures between views of an unchanged survey', async () => {
    // Responses i = 0 … 3: ground for even i.
    await expectFigures({ total: 4, ground: 2, top: 2 });
    const hit = server.deps.caches.sharedResults.get(seeded.surveyId);
    expect(hit?.markup).toContain('<strong>4</strong>');
    // The kept page is what is served: a view changes nothing in it.
    await expectFigures({ total: 4, ground: 2, top: 2 });
    expect(server.deps.caches.sharedResults.get(seeded.surveyId)).toBe(hit);
  });

  it('shows a new response on the next view', async () => {
    const collector = (await server.client.get(`/v3/surveys/${seeded.surveyId}/collectors`, tk())).body
      .data[0].id;
    const page = seeded.details.pages[0];
    const r = await server.client.post(
      `/v3/collectors/${collector}/responses`,
      {
        pages: [{ id: page.id, questions: [{ id: seeded.q.floor, answers: [{ choice_id: seeded.q.top }] }] }],
      },
      tk(),
    );
    expect(r.status, r.text).toBe(201);
    await expectFigures({ total: 5, ground: 2, top: 3 });
  });

  it('shows an edited response on the next view (same number of responses)', async () => {
    const page = seeded.details.pages[0];
    // Response 0 answered ground: now top.
    const r = await server.client.patch(
      `/v3/surveys/${seeded.surveyId}/responses/${seeded.ids[0]}`,
      {
        pages: [{ id: page.id, questions: [{ id: seeded.q.floor, answers: [{ choice_id: seeded.q.top }] }] }],
      },
      tk(),
    );
    expect(r.status, r.text).toBe(200);
    await expectFigures({ total: 5, ground: 1, top: 4 });
  });

  it('shows a deletion and a design change on the next view', async () => {
    const del = await server.client.delete(`/v3/surveys/${seeded.surveyId}/responses/${seeded.ids[1]}`, tk());
    expect(del.status, del.text).toBe(200);
    // Response 1 answered top.
    await expectFigures({ total: 4, ground: 1, top: 3 });
    const renamed = await server.client.patch(
      `/v3/surveys/${seeded.surveyId}/pages/${seeded.details.pages[0].id}/questions/${seeded.q.floor}`,
      { headings: [{ heading: 'Which floor, then?' }] },
      tk(),
    );
    expect(renamed.status, renamed.text).toBe(200);
    await expectFigures({ total: 4, ground: 1, top: 3 }, true);
  });

  it('shows the deletion of a collector with its responses on the next view', async () => {
    const other = (
      await server.client.post(`/v3/surveys/${seeded.surveyId}/collectors`, { type: 'weblink' }, tk())
    ).body.id;
    const page = seeded.details.pages[0];
    for (const choice of [seeded.q.ground, seeded.q.ground]) {
      const r = await server.client.post(
        `/v3/collectors/${other}/responses`,
        { pages: [{ id: page.id, questions: [{ id: seeded.q.floor, answers: [{ choice_id: choice }] }] }] },
        tk(),
      );
      expect(r.status, r.text).toBe(201);
    }
    await expectFigures({ total: 6, ground: 3, top: 3 }, true);
    expect((await server.client.delete(`/v3/collectors/${other}`, tk())).status).toBe(200);
    await expectFigures({ total: 4, ground: 1, top: 3 }, true);
  });
});
