// The authorization matrix: account A owns one of every resource; account B (another user, paid
// plan, every scope) calls every endpoint of /v3/openapi.json that takes a path parameter with A's
// ids. Each must answer 404/1020 or 403 with a catalogue error: never 2xx, never 5xx. The list of
// endpoints comes from the OpenAPI document, so a new endpoint is covered without editing this
// file, and a path parameter the test has no id for fails the test instead of being skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/platform/errors.js';
import type { TestAccount } from '../helpers/accounts.js';
import type { ApiResponse } from '../helpers/client.js';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { createEveryResource, type OwnedResources, ownedIdFor } from './fixtures.js';

let server: TestServer;
let a: TestAccount;
let b: TestAccount;
let ids: OwnedResources;
let operations: Array<{ method: string; path: string; params: string[]; required: string[] }>;

/** Path parameters that name no account's resource: the same for every caller. */
const GLOBAL_PARAMS = new Set(['error_id', 'role_id']);
/** Per-account numbering (fields 1..6 of each account's address book): B reaches its own. */
const OWN_NUMBERED_PARAMS = new Set(['contact_field_id']);

/** A body the endpoint accepts, so it is the ownership check and not validation that answers. */
function bodyFor(method: string, path: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  const bodies: Record<string, unknown> = {
    'PATCH /v3/groups/{group_id}/members/{member_id}': { email: 'taken@example.org' },
    'PATCH /v3/workgroups/{workgroup_id}': { name: 'Taken' },
    'POST /v3/workgroups/{workgroup_id}/members': { user_id: b.user.id, is_workgroup_owner: false },
    'POST /v3/workgroups/{workgroup_id}/members/bulk': {
      members: [{ user_id: b.user.id, is_workgroup_owner: false }],
    },
    'PATCH /v3/workgroups/{workgroup_id}/members/{member_id}': { is_workgroup_owner: true },
    'PUT /v3/surveys/{survey_id}': { title: 'Taken' },
    'PATCH /v3/surveys/{survey_id}': { title: 'Taken' },
    'POST /v3/surveys/{survey_id}/pages': { title: 'Taken' },
    'PUT /v3/surveys/{survey_id}/pages/{page_id}': { title: 'Taken' },
    'PATCH /v3/surveys/{survey_id}/pages/{page_id}': { title: 'Taken' },
    'POST /v3/surveys/{survey_id}/pages/{page_id}/questions': question(),
    'PUT /v3/surveys/{survey_id}/pages/{page_id}/questions/{question_id}': question(),
    'PATCH /v3/surveys/{survey_id}/pages/{page_id}/questions/{question_id}': {
      headings: [{ heading: 'Taken' }],
    },
    'PATCH /v3/survey_folders/{folder_id}': { title: 'Taken' },
    'POST /v3/surveys/{survey_id}/quotas': {
      name: 'Taken',
      limit: 1,
      conditions: [{ question_id: '1', choice_id: '1' }],
      action: { type: 'end_survey' },
    },
    'PUT /v3/surveys/{survey_id}/quotas/{quota_id}': {
      name: 'Taken',
      limit: 1,
      conditions: [{ question_id: '1', choice_id: '1' }],
      action: { type: 'end_survey' },
    },
    'PUT /v3/surveys/{survey_id}/report_schedule': {
      frequency: 'weekly',
      weekday: 1,
      hour: 9,
      time_zone: 'Europe/Berlin',
    },
    'POST /v3/surveys/{survey_id}/languages/{language_code}': translations(),
    'PATCH /v3/surveys/{survey_id}/languages/{language_code}': translations(),
    'PUT /v3/webhooks/{webhook_id}': {
      name: 'Taken',
      event_type: 'response_completed',
      object_type: 'survey',
      object_ids: [],
      subscription_url: 'https://example.com/hook',
    },
    'PATCH /v3/webhooks/{webhook_id}': { name: 'Taken' },
    'PUT /v3/contacts/{contact_id}': { email: 'taken@example.org' },
    'PATCH /v3/contacts/{contact_id}': { first_name: 'Taken' },
    'PUT /v3/contact_lists/{contact_list_id}': { name: 'Taken' },
    'PATCH /v3/contact_lists/{contact_list_id}': { name: 'Taken' },
    'POST /v3/contact_lists/{contact_list_id}/copy': {},
    'POST /v3/contact_lists/{contact_list_id}/merge': { list_id: ids.contactListId },
    'POST /v3/contact_lists/{contact_list_id}/contacts': { email: 'taken@example.org' },
    'POST /v3/contact_lists/{contact_list_id}/contacts/bulk': { contacts: [{ email: 'taken@example.org' }] },
    'POST /v3/workgroups/{workgroup_id}/shares': { resource_type: 'survey', resource_id: ids.surveyId },
    'POST /v3/workgroups/{workgroup_id}/shares/bulk': {
      shares: [{ resource_type: 'survey', resource_id: ids.surveyId }],
    },
    'PATCH /v3/workgroups/{workgroup_id}/shares/{share_id}': { role_id: 'f24b9ce183b8430e811d5175831b5937' },
    'POST /v3/surveys/{survey_id}/collectors': { type: 'weblink' },
    'PUT /v3/collectors/{collector_id}': { name: 'Taken' },
    'PATCH /v3/collectors/{collector_id}': { name: 'Taken' },
    'POST /v3/collectors/{collector_id}/responses': { pages: [] },
    'PUT /v3/surveys/{survey_id}/responses/{response_id}': { pages: [] },
    'PATCH /v3/surveys/{survey_id}/responses/{response_id}': { custom_value: 'taken' },
    'PUT /v3/collectors/{collector_id}/responses/{response_id}': { pages: [] },
    'PATCH /v3/collectors/{collector_id}/responses/{response_id}': { custom_value: 'taken' },
    'POST /v3/collectors/{collector_id}/messages': { type: 'invite' },
    'PUT /v3/collectors/{collector_id}/messages/{message_id}': { subject: 'Taken' },
    'PATCH /v3/collectors/{collector_id}/messages/{message_id}': { subject: 'Taken' },
    'POST /v3/collectors/{collector_id}/messages/{message_id}/send': {},
    'POST /v3/collectors/{collector_id}/messages/{message_id}/recipients': { email: 'taken@example.org' },
    'POST /v3/collectors/{collector_id}/messages/{message_id}/recipients/bulk': {
      contacts: [{ email: 'taken@example.org' }],
    },
    'PATCH /v3/contact_fields/{contact_field_id}': { label: 'Taken' },
  };
  return bodies[`${method} ${path}`] ?? {};
}

function translations() {
  return {
    translations: [
      {
        default: 'Owner survey',
        translation: 'Pris',
        context: 'survey_title_html',
        resource_id: ids.surveyId,
      },
    ],
  };
}

function question() {
  return { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Taken' }] };
}

/** Values for required query parameters (a missing one fails the endpoint's call loudly). */
const REQUIRED_QUERY: Record<string, string> = { interval: 'daily' };

function fill(op: { path: string; required: string[] }): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(ownedIdFor(ids, name, op.path)!),
  );
  const query = new URLSearchParams(
    op.required.map((name): [string, string] => [name, REQUIRED_QUERY[name] ?? '']),
  );
  return op.required.length ? `${path}?${query}` : path;
}

/** Why a reply is not a refusal (404/1020, or 403 with a catalogue body), or null when it is. */
function notRefused(res: ApiResponse): string | null {
  const code = Number(res.body?.error?.id);
  if (res.status === 404 && code === 1020) return null;
  if (res.status === 403 && errorCatalogue.get(code)?.status === 403) return null;
  return `${res.status} ${res.text.slice(0, 200)}`;
}

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  a = await server.account();
  b = await server.account();
  const mate = await server.account();
  ids = await createEveryResource(server, a, mate);
  const doc = (await server.client.get('/v3/openapi.json')).body;
  operations = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
      const required = (op.parameters ?? [])
        .filter((p: any) => p.in === 'query' && p.required)
        .map((p: any) => p.name);
      if (params.length > 0) operations.push({ method: method.toUpperCase(), path, params, required });
    }
  }
});
afterAll(() => server.close());

/** A's view of every resource, read by A: proves the ids are real (before and after B's calls). */
async function expectAOwnsEverything() {
  const t = { token: a.token };
  const reads = [
    `/v3/surveys/${ids.surveyId}/details`,
    `/v3/surveys/${ids.surveyId}/pages/${ids.pageId}/questions/${ids.questionId}`,
    `/v3/surveys/${ids.surveyId}/languages/${ids.languageCode}`,
    `/v3/survey_folders/${ids.folderId}`,
    `/v3/collectors/${ids.weblinkId}`,
    `/v3/collectors/${ids.emailCollectorId}/messages/${ids.messageId}`,
    `/v3/collectors/${ids.emailCollectorId}/recipients/${ids.recipientId}`,
    `/v3/surveys/${ids.surveyId}/responses/${ids.responseId}/details`,
    `/v3/contacts/${ids.contactId}`,
    `/v3/contact_lists/${ids.contactListId}`,
    `/v3/webhooks/${ids.webhookId}/deliveries/${ids.deliveryId}`,
    `/v3/groups/${ids.teamId}/members/${ids.teamMemberId}`,
    `/v3/workgroups/${ids.workgroupId}/members/${ids.workgroupMemberId}`,
    `/v3/workgroups/${ids.workgroupId}/shares/${ids.shareId}`,
    `/v3/users/${ids.userId}/workgroups`,
  ];
  for (const path of reads) {
    const res = await server.client.get(path, t);
    expect(res.status, `A reads ${path}: ${res.text.slice(0, 200)}`).toBe(200);
  }
  const survey = await server.client.get(`/v3/surveys/${ids.surveyId}`, t);
  expect(survey.body.title).toBe('Owner survey');
  expect(survey.body.response_count).toBe(1);
}

describe('another account’s resources', () => {
  it('A can read every resource it created', async () => {
    await expectAOwnsEverything();
  });

  it('has an id for every path parameter of every endpoint', () => {
    expect(operations.length).toBeGreaterThan(90);
    const missing = operations.flatMap((op) =>
      op.params
        .filter(
          (p) =>
            !GLOBAL_PARAMS.has(p) && !OWN_NUMBERED_PARAMS.has(p) && ownedIdFor(ids, p, op.path) === undefined,
        )
        .map((p) => `${op.method} ${op.path}: {${p}}`),
    );
    expect(missing).toEqual([]);
  });

  it('refuses B every endpoint that names one of A’s resources, with 404/1020 or 403', async () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const op of operations) {
      if (op.params.every((p) => GLOBAL_PARAMS.has(p) || OWN_NUMBERED_PARAMS.has(p))) continue;
      const path = fill(op);
      const res = await server.client.request(op.method, path, {
        token: b.token,
        body: bodyFor(op.method, op.path),
      });
      const why = notRefused(res);
      if (why) wrong.push(`${op.method} ${path} → ${why}`);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(85);
  });

  it('leaves A’s resources as they were', async () => {
    await expectAOwnsEverything();
    const contact = await server.client.get(`/v3/contacts/${ids.contactId}`, { token: a.token });
    expect(contact.body.first_name).toBe('Ann');
  });

  it('numbers contact fields per account: B reads and renames its own field 1, never A’s', async () => {
    const label = 'A private label';
    expect((await server.client.patch('/v3/contact_fields/1', { label }, { token: a.token })).status).toBe(
      200,
    );
    const mine = await server.client.get('/v3/contact_fields/1', { token: b.token });
    expect(mine.status).toBe(200);
    expect(mine.text).not.toContain(label);
    const list = await server.client.get('/v3/contact_fields', { token: b.token });
    expect(list.text).not.toContain(label);
    expect(
      (await server.client.patch('/v3/contact_fields/1', { label: 'B label' }, { token: b.token })).status,
    ).toBe(200);
    const again = await server.client.get('/v3/contact_fields/1', { token: a.token });
    expect(again.body.label).toBe(label);
  });
});

describe('A’s ids inside B’s bodies and queries', () => {
  const refusals: Array<[string, string, () => string, () => unknown]> = [
    ['POST', 'copy A’s survey', () => '/v3/surveys', () => ({ from_survey_id: ids.surveyId })],
    ['POST', 'move into A’s folder', () => '/v3/surveys', () => ({ title: 'x', folder_id: ids.folderId })],
    [
      'POST',
      'subscribe to A’s survey',
      () => '/v3/webhooks',
      () => ({
        name: 'x',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [ids.surveyId],
        subscription_url: 'https://example.com/hook',
      }),
    ],
    [
      'POST',
      'subscribe to A’s collector',
      () => '/v3/webhooks',
      () => ({
        name: 'x',
        event_type: 'response_completed',
        object_type: 'collector',
        object_ids: [ids.weblinkId],
        subscription_url: 'https://example.com/hook',
      }),
    ],
  ];
  it.each(refusals)('%s %s', async (method, _name, path, body) => {
    const res = await server.client.request(method, path(), { token: b.token, body: body() });
    expect([400, 403, 404], res.text).toContain(res.status);
    expect(errorCatalogue.get(Number(res.body.error.id))?.status).toBe(res.status);
  });

  it('does not copy A’s collector or message into B’s survey', async () => {
    const t = { token: b.token };
    const s = await server.client.post('/v3/surveys', { title: 'B survey' }, t);
    const copy = await server.client.post(
      `/v3/surveys/${s.body.id}/collectors`,
      { from_collector_id: ids.weblinkId },
      t,
    );
    expect([400, 403, 404], copy.text).toContain(copy.status);
    const email = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'email' }, t);
    const msg = await server.client.post(
      `/v3/collectors/${email.body.id}/messages`,
      { from_collector_id: ids.emailCollectorId, from_message_id: ids.messageId, include_recipients: true },
      t,
    );
    expect([400, 403, 404], msg.text).toContain(msg.status);
  });

  it('does not put A’s contacts or lists on B’s message, nor merge A’s list into B’s', async () => {
    const t = { token: b.token };
    const list = await server.client.post('/v3/contact_lists', { name: 'B list' }, t);
    const merge = await server.client.post(
      `/v3/contact_lists/${list.body.id}/merge`,
      { list_id: ids.contactListId },
      t,
    );
    expect([400, 403, 404], merge.text).toContain(merge.status);
    const members = await server.client.get(`/v3/contact_lists/${list.body.id}/contacts`, t);
    expect(members.body.total).toBe(0);
    const s = await server.client.post(
      '/v3/surveys',
      { title: 'B mail', pages: [{ questions: [question()] }] },
      t,
    );
    const email = await server.client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'email' }, t);
    const msg = await server.client.post(`/v3/collectors/${email.body.id}/messages`, { type: 'invite' }, t);
    const bulk = await server.client.post(
      `/v3/collectors/${email.body.id}/messages/${msg.body.id}/recipients/bulk`,
      { contact_ids: [ids.contactId], contact_list_ids: [ids.contactListId] },
      t,
    );
    expect(bulk.status, bulk.text).toBeLessThan(500);
    const recipients = await server.client.get(`/v3/collectors/${email.body.id}/recipients`, t);
    expect(recipients.body.total).toBe(0);
    expect(recipients.text).not.toContain('example.org');
  });

  it('lists none of A’s resources to B', async () => {
    const t = { token: b.token };
    for (const path of [
      '/v3/surveys',
      '/v3/survey_folders',
      '/v3/contacts',
      '/v3/contact_lists',
      '/v3/webhooks',
      '/v3/workgroups',
      '/v3/groups',
      `/v3/surveys?folder_id=${ids.folderId}`,
    ]) {
      const res = await server.client.get(path, t);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
      const listed = JSON.stringify(res.body.data);
      for (const id of [
        ids.surveyId,
        ids.folderId,
        ids.contactId,
        ids.contactListId,
        ids.webhookId,
        ids.workgroupId,
      ])
        expect(listed, path).not.toContain(id);
    }
  });
});

describe('pages with ids, as B signed in', () => {
  it('does not show A’s survey on the edit, collect, analyze, summary or browse pages', async () => {
    const survey = await server.client.get(`/v3/surveys/${ids.surveyId}`, { token: a.token });
    const web = await signIn(server, b);
    const manage = new URL(survey.body.edit_url).searchParams.get('sm')!;
    const analyze = new URL(survey.body.analyze_url).pathname;
    const paths = [
      new URL(survey.body.edit_url).pathname + new URL(survey.body.edit_url).search,
      new URL(survey.body.collect_url).pathname + new URL(survey.body.collect_url).search,
      analyze,
      analyze.replace('/analyze/', '/summary/'),
      `${analyze.replace('/analyze/', '/analyze/browse/')}?respondent_id=${ids.responseId}`,
    ];
    expect(manage.length).toBeGreaterThan(0);
    for (const path of paths) {
      const page = await web.get(path);
      expect([403, 404], `${path} → ${page.status}`).toContain(page.status);
      expect(page.text, path).not.toContain('Owner survey');
      expect(page.text, path).not.toContain('Pick one');
    }
    const home = await web.get('/');
    expect(home.status).toBe(200);
    expect(home.text).not.toContain('Owner survey');
    // Signed in as A, the same pages do show the survey (so the paths are right).
    const own = await signIn(server, a);
    for (const path of paths) {
      const page = await own.get(path);
      // browse answers with the responses page's address for that response
      expect(page.status, path).toBe(path.includes('/browse/') ? 303 : 200);
    }
  });
});
