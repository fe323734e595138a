// Importing contacts into a list made with the import ("A new list, named below" on the preview):
// the list is created with the given name and holds the imported contacts; without a name the
// preview comes back with the reason and nothing is made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('contacts import into a new list', () => {
  it('creates the named list and adds the imported contacts to it', async () => {
    const a = await server.account();
    const web = await signIn(server, a);
    const csv = 'email,first_name\nann@example.org,Ann\nbob@example.org,Bob\n';
    let _csrf = await web.csrf('/contacts/import');
    const preview = await web.post('/contacts/import/preview', { _csrf, csv });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<option value="new">A new list, named below</option>');
    expect(preview.text).toContain('<label for="import-new-list">Name of the new list</label>');

    const lists = () => server.client.get('/v3/contact_lists', { token: a.token });
    _csrf = await web.csrf('/contacts/import');
    const unnamed = await web.post('/contacts/import', {
      _csrf,
      csv,
      map: ['email', 'first_name'],
      list_id: 'new',
      new_list: '  ',
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.text).toContain('Give the list a name.');
    expect(unnamed.text).toContain('<option value="new" selected>');
    expect((await lists()).body.data).toEqual([]);

    const done = await web.post('/contacts/import', {
      _csrf,
      csv,
      map: ['email', 'first_name'],
      list_id: 'new',
      new_list: 'Canteen panel',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('2 created');
    const made = (await lists()).body.data;
    expect(made.map((l: { name: string }) => l.name)).toEqual(['Canteen panel']);
    const members = await server.client.get(`/v3/contact_lists/${made[0].id}/contacts`, { token: a.token });
    expect(members.body.data.map((c: { email: string }) => c.email).sort()).toEqual([
      'ann@example.org',
      'bob@example.org',
    ]);
  });
});
