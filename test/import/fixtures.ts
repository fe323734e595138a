// A realistic small account on a source server (every question family, responses on an open and a
// closed collector, folders, contact fields, contacts and lists), and a field-by-field comparison
// of the source account with its copy, both read through the API.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { expect } from 'vitest';
import { createEveryFamilySurvey, postGeneratedResponses, prng, randomAnswers } from '../collect/fixtures.js';
import type { ApiClient } from '../helpers/client.js';

export interface SourceAccount {
  surveyIds: string[];
  responses: number;
}

async function ok(res: Promise<any>, status = [200, 201]) {
  const r = await res;
  if (!status.includes(r.status)) throw new Error(`${r.status} ${r.text}`);
  return r.body;
}

export async function fillSource(
  client: ApiClient,
  token: string,
  responses: number,
): Promise<SourceAccount> {
  const o = { token };
  const folder = await ok(client.post('/v3/survey_folders', { title: 'Research' }, o));
  const details = await createEveryFamilySurvey(client, token, 'Customer survey');
  await ok(client.patch(`/v3/surveys/${details.id}`, { folder_id: folder.id, nickname: 'cs' }, o));
  const open = await ok(
    client.post(
      `/v3/surveys/${details.id}/collectors`,
      { type: 'weblink', name: 'Web link', thank_you_message: 'Merci' },
      o,
    ),
  );
  const closed = await ok(
    client.post(`/v3/surveys/${details.id}/collectors`, { type: 'weblink', name: 'Old link' }, o),
  );
  const old = 20;
  await postGeneratedResponses(client, token, open.id, details, responses - old);
  const r = prng(7);
  for (let n = 0; n < old; n++)
    await ok(
      client.post(
        `/v3/collectors/${closed.id}/responses`,
        {
          pages: randomAnswers(details, r, n),
          custom_value: `old${n}`,
          custom_variables: { ref: `r${n}` },
          response_status: n % 3 === 0 ? 'partial' : 'completed',
          date_created: `2025-0${1 + (n % 9)}-1${n % 10}T08:30:00+00:00`,
        },
        o,
      ),
    );
  await ok(client.patch(`/v3/collectors/${closed.id}`, { status: 'closed' }, o));
  const plain = await ok(
    client.post(
      '/v3/surveys',
      {
        title: 'Quick poll',
        pages: [
          {
            title: 'First',
            questions: [
              { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why?' }] },
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Go on?' }],
                answers: { choices: [{ text: 'Yes' }, { text: 'Skip ahead' }, { text: 'No' }] },
              },
            ],
          },
          { title: 'Middle', questions: [] },
          { title: 'Last', questions: [] },
        ],
      },
      o,
    ),
  );
  // Skip logic: a page rule and choice rules, jumping to later pages (their ids must be remapped).
  const poll = await ok(client.get(`/v3/surveys/${plain.id}/details`, o));
  const [p1, p2, p3] = poll.pages.map((p: any) => p.id);
  await ok(
    client.patch(`/v3/surveys/${plain.id}/pages/${p1}`, { logic: { action: 'go_to_page', page_id: p2 } }, o),
  );
  const choiceQ = poll.pages[0].questions[1];
  await ok(
    client.patch(
      `/v3/surveys/${plain.id}/pages/${p1}/questions/${choiceQ.id}`,
      {
        answers: {
          choices: [
            { text: 'Yes' },
            { text: 'Skip ahead', logic: { action: 'go_to_page', page_id: p3 } },
            { text: 'No', logic: { action: 'disqualify' } },
          ],
        },
      },
      o,
    ),
  );
  await ok(client.patch(`/v3/surveys/${plain.id}/pages/${p2}`, { logic: { action: 'end_survey' } }, o));
  await ok(client.patch('/v3/contact_fields/1', { label: 'Company' }, o));
  const lists = [
    await ok(client.post('/v3/contact_lists', { name: 'Customers' }, o)),
    await ok(client.post('/v3/contact_lists', { name: 'Press' }, o)),
  ];
  for (let n = 0; n < 12; n++)
    await ok(
      client.post(
        `/v3/contact_lists/${lists[n % 2].id}/contacts`,
        {
          email: `person${n}@example.com`,
          first_name: `P${n}`,
          last_name: 'Doe',
          custom_fields: { '1': `Co ${n}` },
        },
        o,
      ),
    );
  await ok(client.post('/v3/contacts', { phone_number: '+15550001111', first_name: 'Phone' }, o));
  return { surveyIds: [details.id, plain.id], responses };
}

const strip = (v: any): any => {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') {
    const out: any = {};
    for (const [k, x] of Object.entries(v))
      if (
        ![
          'id',
          'href',
          'preview',
          'edit_url',
          'collect_url',
          'analyze_url',
          'summary_url',
          'folder_id',
        ].includes(k)
      )
        out[k] = strip(x);
    return out;
  }
  return v;
};

const rounded = (v: any): any => {
  if (typeof v === 'number') return Number(v.toPrecision(12));
  if (Array.isArray(v)) return v.map(rounded);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)]));
  return v;
};

/** Source id -> copy id for pages, questions and answer options, paired by position. */
function pairIds(a: any, b: any, out: Map<string, string>) {
  if (Array.isArray(a)) {
    for (const [i, x] of a.entries()) pairIds(x, b?.[i], out);
  } else if (a && typeof a === 'object' && b) {
    if (a.id !== undefined && b.id !== undefined) out.set(String(a.id), String(b.id));
    for (const k of Object.keys(a)) if (k !== 'href') pairIds(a[k], b[k], out);
  }
}

async function all(client: ApiClient, token: string, path: string): Promise<any[]> {
  const out: any[] = [];
  let url: string | undefined = path;
  while (url) {
    const page = await ok(client.get(url.replace(/^https?:\/\/[^/]+/, ''), { token }));
    out.push(...page.data);
    url = page.links?.next;
  }
  return out;
}

const byKey = (xs: any[], key: (x: any) => string) => new Map(xs.map((x) => [key(x), x]));

/** Compares the source account with the copy through the API, field by field, ids mapped. */
export async function compareAccounts(src: ApiClient, srcToken: string, dst: ApiClient, dstToken: string) {
  // contact fields, lists, contacts
  expect(
    (await ok(dst.get('/v3/contact_fields', { token: dstToken }))).data.map((f: any) => f.label),
  ).toEqual((await ok(src.get('/v3/contact_fields', { token: srcToken }))).data.map((f: any) => f.label));
  for (const status of ['active', 'optout', 'bounced']) {
    const a = await all(src, srcToken, `/v3/contacts?per_page=1000&status=${status}`);
    const b = await all(dst, dstToken, `/v3/contacts?per_page=1000&status=${status}`);
    expect(b.length).toBe(a.length);
    const bByKey = byKey(b, (c) => c.email ?? c.phone_number);
    for (const c of a) {
      const copy = bByKey.get(c.email ?? c.phone_number);
      expect(copy).toBeDefined();
      const full = await ok(src.get(`/v3/contacts/${c.id}`, { token: srcToken }));
      const fullCopy = await ok(dst.get(`/v3/contacts/${copy.id}`, { token: dstToken }));
      expect(strip(fullCopy)).toEqual(strip(full));
    }
  }
  const srcLists = await all(src, srcToken, '/v3/contact_lists?per_page=1000');
  const dstLists = byKey(await all(dst, dstToken, '/v3/contact_lists?per_page=1000'), (l) => l.name);
  expect(dstLists.size).toBe(srcLists.length);
  for (const l of srcLists) {
    const members = (x: ApiClient, t: string, id: string) =>
      all(x, t, `/v3/contact_lists/${id}/contacts?per_page=1000`).then((cs) =>
        cs.map((c) => c.email ?? c.phone_number).sort(),
      );
    expect(await members(dst, dstToken, dstLists.get(l.name).id)).toEqual(await members(src, srcToken, l.id));
  }
  // folders
  const srcFolders = await all(src, srcToken, '/v3/survey_folders?per_page=1000');
  const dstFolders = await all(dst, dstToken, '/v3/survey_folders?per_page=1000');
  expect(strip(dstFolders)).toEqual(strip(srcFolders));
  const folderTitle = new Map([...srcFolders, ...dstFolders].map((f) => [String(f.id), f.title]));
  // surveys, collectors, responses, rollups
  const srcSurveys = await all(src, srcToken, '/v3/surveys?per_page=1000');
  const dstSurveys = byKey(await all(dst, dstToken, '/v3/surveys?per_page=1000'), (s) => s.title);
  expect(dstSurveys.size).toBe(srcSurveys.length);
  for (const s of srcSurveys) {
    const a = await ok(src.get(`/v3/surveys/${s.id}/details`, { token: srcToken }));
    const b = await ok(dst.get(`/v3/surveys/${dstSurveys.get(s.title).id}/details`, { token: dstToken }));
    const ids = new Map<string, string>();
    pairIds(a.pages, b.pages, ids);
    const id = (x: string) => ids.get(x) ?? x;
    const mapIds = (v: any): any => {
      if (Array.isArray(v)) return v.map(mapIds);
      if (v && typeof v === 'object')
        return Object.fromEntries(
          Object.entries(v).map(([k, x]) => {
            // The path of pages taken, and the rules that fired keyed by page id.
            if (k === 'page_path' && Array.isArray(x)) return [k, x.map(id)];
            if (k === 'logic_path' && x && typeof x === 'object')
              return [k, Object.fromEntries(Object.entries(x).map(([p, rule]) => [id(p), mapIds(rule)]))];
            return [k, typeof x === 'string' && /(^|_)id$/.test(k) ? id(x) : mapIds(x)];
          }),
        );
      return v;
    };
    // Every field but ids and URLs: design (skip-logic page ids mapped), counts, dates.
    expect(strip(b)).toEqual(strip(mapIds(a)));
    expect(folderTitle.get(String(b.folder_id)) ?? null).toBe(folderTitle.get(String(a.folder_id)) ?? null);
    const colA = await all(src, srcToken, `/v3/surveys/${a.id}/collectors?per_page=1000`);
    const colB = byKey(
      await all(dst, dstToken, `/v3/surveys/${b.id}/collectors?per_page=1000`),
      (c) => c.name,
    );
    expect(colB.size).toBe(colA.length);
    for (const c of colA) {
      const full = await ok(src.get(`/v3/collectors/${c.id}`, { token: srcToken }));
      const copy = await ok(dst.get(`/v3/collectors/${colB.get(c.name).id}`, { token: dstToken }));
      const { url: _u, survey_id: _s, ...rest } = strip(full);
      const { url: _u2, survey_id: _s2, ...restCopy } = strip(copy);
      expect(restCopy).toEqual(rest);
      ids.set(String(c.id), String(copy.id));
    }
    const ra = await all(src, srcToken, `/v3/surveys/${a.id}/responses/bulk?per_page=100`);
    const rb = byKey(
      await all(dst, dstToken, `/v3/surveys/${b.id}/responses/bulk?per_page=100`),
      (r) => r.custom_value,
    );
    expect(rb.size).toBe(ra.length);
    const fields = (r: any) => {
      const { id: _i, href: _h, analyze_url: _a, edit_url: _e, survey_id: _s, recipient_id: _r, ...rest } = r;
      return rest;
    };
    for (const r of ra) {
      const copy = rb.get(r.custom_value);
      expect(copy, `response ${r.custom_value}`).toBeDefined();
      expect(fields(copy)).toEqual(fields(mapIds(r)));
    }
    const rollA = await ok(src.get(`/v3/surveys/${a.id}/rollups`, { token: srcToken }));
    const rollB = await ok(dst.get(`/v3/surveys/${b.id}/rollups`, { token: dstToken }));
    // Statistics are summed in storage order, which differs between the copies: compare to 12 digits.
    expect(rounded(strip(rollB.data))).toEqual(rounded(strip(mapIds(rollA.data))));
  }
}

/**
 * For a test proxy in front of the source: forwards one request to `sourceUrl` and answers with the
 * source's status and headers and its body as `rewrite` returns it.
 */
export function forwardRewritten(
  req: IncomingMessage,
  res: ServerResponse,
  sourceUrl: string,
  rewrite: (status: number, text: string) => string,
): void {
  const up = httpRequest(new URL(req.url!, sourceUrl), { method: req.method, headers: req.headers }, (r) => {
    const chunks: Buffer[] = [];
    r.on('data', (c) => chunks.push(c));
    r.on('end', () => {
      const { 'content-length': _l, ...headers } = r.headers;
      res.writeHead(r.statusCode!, headers);
      res.end(rewrite(r.statusCode!, Buffer.concat(chunks).toString('utf8')));
    });
  });
  req.pipe(up);
}
