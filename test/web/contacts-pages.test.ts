// The Contacts pages over HTTP (a cookie-keeping client): the CSV import (the file upload, the
// guessed column mapping, a result per row, updating existing contacts, mapping mistakes, the
// plan's contact limit, also under concurrent imports), the export's neutralised formula cells,
// and the email collector pages refusing the basic plan as the API does.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { signIn, WebSession } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { CONTACT_LIMIT_STANDARD: '3' } });
});
afterAll(() => server.close());

/** Uploads `csv` as a file to the preview step, as the page's multipart form does. */
async function preview(web: WebSession, csv: string) {
  const _csrf = await web.csrf('/contacts/import');
  const form = new FormData();
  form.append('_csrf', _csrf);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
  form.append('csv', '');
  const res = await fetch(new URL('/contacts/import/preview', server.url), {
    method: 'POST',
    body: form,
    headers: { cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, text: await res.text() };
}

/** The import step, with the mapping the preview chose (or `map`). */
async function importCsv(web: WebSession, csv: string, map: string[], extra: Record<string, string> = {}) {
  const _csrf = await web.csrf('/contacts/import');
  return web.post('/contacts/import', { _csrf, csv, map, ...extra });
}

/** The selected option of each mapping select in a preview page. */
function mappingOf(text: string): string[] {
  return [...text.matchAll(/<select id="map-\d+" name="map">(.*?)<\/select>/gs)].map(
    (m) => /<option value="([^"]*)" selected>/.exec(m[1])?.[1] ?? '',
  );
}

/** Each row of a result page: [line, outcome, reason]. */
function outcomes(text: string): [string, string, string][] {
  return [
    ...text.matchAll(
      /<tr data-outcome="(\w+)"><td data-label="Line" class="num">(\d+)<\/td>.*?<td data-label="Reason">(.*?)<\/td><\/tr>/gs,
    ),
  ].map((m) => [m[2], m[1], m[3]]);
}

async function contacts(a: TestAccount) {
  const res = await server.client.get('/v3/contacts/bulk?per_page=100', { token: a.token });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

describe('CSV import', () => {
  it('guesses the mapping, then reports each row: created, existing, invalid, duplicate, updated', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    const fields = await web.csrf('/contacts/fields');
    await web.post('/contacts/fields', { _csrf: fields, label_2: 'Department' });
    await server.client.post(
      '/v3/contacts',
      { email: 'old@example.org', first_name: 'Old' },
      { token: a.token },
    );

    const csv =
      'E-mail,Given name,Surname,Department,Notes\r\n' +
      [
        'new@example.org,New,Person,Sales,x',
        'OLD@example.org,Changed,Name,Ops,y',
        'broken,Bad,Row,,z',
        'new@example.org,Again,Person,Sales,w',
        ',No,Address,,v',
      ].join('\r\n');
    const shown = await preview(web, csv);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('5 rows to import');
    const map = mappingOf(shown.text);
    expect(map).toEqual(['email', 'first_name', 'last_name', 'custom_2', '']);

    const res = await importCsv(web, csv, map);
    expect(res.status).toBe(200);
    expect(outcomes(res.text)).toEqual([
      ['2', 'created', ''],
      ['3', 'existing', ''],
      ['4', 'invalid', '&#39;broken&#39; is not an email address.'],
      ['5', 'duplicate', 'The same email or phone number is on an earlier line.'],
      ['6', 'invalid', '&#39;email&#39; or &#39;phone_number&#39; is required.'],
    ]);
    let all = await contacts(a);
    expect(all.map((c) => [c.email, c.first_name, c.custom_fields['2']]).sort()).toEqual([
      ['new@example.org', 'New', 'Sales'],
      ['old@example.org', 'Old', ''],
    ]);

    // Again with "update existing": the existing contact takes the row's values.
    const again = await importCsv(web, csv, map, { update_existing: 'yes' });
    expect(outcomes(again.text).map(([line, o]) => [line, o])).toEqual([
      ['2', 'updated'],
      ['3', 'updated'],
      ['4', 'invalid'],
      ['5', 'duplicate'],
      ['6', 'invalid'],
    ]);
    all = await contacts(a);
    expect(all.find((c) => c.email.toLowerCase() === 'old@example.org')).toMatchObject({
      first_name: 'Changed',
      last_name: 'Name',
      custom_fields: { '2': 'Ops' },
    });
  });

  it('refuses a mapping without an email column or with a field chosen twice, and a file that is not CSV', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    const csv = 'a,b\nx@example.org,y';
    let res = await importCsv(web, csv, ['first_name', 'last_name']);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Choose the column that holds the email address');
    res = await importCsv(web, csv, ['email', 'email']);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Each contact field can take only one column.');
    res = await importCsv(web, csv, ['email', 'nonsense']);
    expect(res.status).toBe(400);
    expect(res.text).toContain('is not a contact field');
    const empty = await preview(web, 'email\n');
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('at least one contact');
    expect(await contacts(a)).toEqual([]);
  });

  it('keeps to the plan’s contact limit, also when two imports race', async () => {
    const a = await server.account({ plan: 'standard' });
    const web = await signIn(server, a);
    const four = 'email\n1@example.org\n2@example.org\n3@example.org\n4@example.org';
    const over = await importCsv(web, four, ['email']);
    expect(over.status).toBe(403);
    expect(over.text).toContain('allows at most 3 contacts');
    expect(await contacts(a)).toEqual([]);

    const csvs = ['email\na1@example.org\na2@example.org', 'email\nb1@example.org\nb2@example.org'];
    const results = await Promise.all(csvs.map((c) => importCsv(web, c, ['email'])));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(await contacts(a)).toHaveLength(2);
  });
});

describe('CSV export', () => {
  it('holds every contact, with cells a spreadsheet would run neutralised', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    await server.client.post(
      '/v3/contacts',
      { email: 'eve@example.org', first_name: '=1+1', last_name: '-5', custom_fields: { '1': '@SUM(A1)' } },
      { token: a.token },
    );
    const res = await web.get('/contacts/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('contacts.csv');
    const rows = parse(res.text, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        email: 'eve@example.org',
        first_name: "'=1+1",
        last_name: '-5',
        phone_number: '',
        status: 'active',
        'Custom 1': "'@SUM(A1)",
        'Custom 2': '',
        'Custom 3': '',
        'Custom 4': '',
        'Custom 5': '',
        'Custom 6': '',
      },
    ]);
    const stranger = new WebSession(server.url);
    expect((await stranger.get('/contacts/export.csv')).status).toBe(303);
  });

  it('quotes cells holding a separator of any locale, and neutralises field labels', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    const label = await server.client.patch('/v3/contact_fields/2', { label: '=cmd' }, { token: a.token });
    expect(label.status).toBe(200);
    await server.client.post(
      '/v3/contacts',
      { email: 'semi@example.org', first_name: 'a;=1+1', last_name: 'b\t=2+2' },
      { token: a.token },
    );
    const res = await web.get('/contacts/export.csv');
    expect(res.status).toBe(200);
    // Excel in German, French or Dutch splits unquoted cells on `;`: quoted, each stays one cell
    expect(res.text).toContain('semi@example.org,"a;=1+1","b\t=2+2",');
    const [head, row] = parse(res.text, { bom: true }) as string[][];
    expect(head).toEqual([
      ...['email', 'first_name', 'last_name', 'phone_number', 'status'],
      ...['Custom 1', "'=cmd", 'Custom 3', 'Custom 4', 'Custom 5', 'Custom 6'],
    ]);
    expect(row.slice(0, 3)).toEqual(['semi@example.org', 'a;=1+1', 'b\t=2+2']);
  });
});

describe('email collector pages', () => {
  it('a basic account cannot write invitations (as the API: 403/1015)', async () => {
    const a = await server.account({ plan: 'basic' });
    const s = await server.client.post('/v3/surveys', { title: 'Basic' }, { token: a.token });
    const web = await signIn(server, a);
    const sm = new URL(s.body.collect_url).searchParams.get('sm')!;
    const _csrf = await web.csrf(`/collect/list?sm=${sm}`);
    const res = await web.post(`/collect/collectors?sm=${sm}`, { _csrf, type: 'email', name: 'Mail' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('needs a paid plan');
  });
});

describe('deleting a contact or a list', () => {
  it('asks first without script (the page names what is lost), then deletes when confirmed', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    const contact = await server.client.post(
      '/v3/contacts',
      { email: 'gone@example.org' },
      { token: a.token },
    );
    const list = await server.client.post('/v3/contact_lists', { name: 'Gone list' }, { token: a.token });
    expect([contact.status, list.status]).toEqual([201, 201]);

    const _csrf = await web.csrf('/contacts');
    const asked = await web.post(`/contacts/${contact.body.id}/delete`, { _csrf });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('<title>Delete the contact gone@example.org?');
    expect(asked.text).toContain('its place in every contact list');
    expect(await contacts(a)).toHaveLength(1);
    const done = await web.post(`/contacts/${contact.body.id}/delete`, { _csrf, confirm: 'yes' });
    expect([done.status, done.location]).toEqual([303, '/contacts?done=deleted']);
    expect(await contacts(a)).toHaveLength(0);

    const askedList = await web.post(`/contacts/lists/${list.body.id}/delete`, { _csrf });
    expect(askedList.status).toBe(200);
    expect(askedList.text).toContain('Gone list');
    expect((await server.client.get(`/v3/contact_lists/${list.body.id}`, { token: a.token })).status).toBe(
      200,
    );
    const doneList = await web.post(`/contacts/lists/${list.body.id}/delete`, { _csrf, confirm: 'yes' });
    expect(doneList.status).toBe(303);
    expect((await server.client.get(`/v3/contact_lists/${list.body.id}`, { token: a.token })).status).toBe(
      404,
    );
  });
});
