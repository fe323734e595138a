// Erasure finds the person in answers too: a response whose text, email-validated or contact-details
// answer is the address (trimmed, any case) is erased with the rest, and `--dry-run` reports what
// would go (counts and ids per kind) without deleting anything.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliJsonAsync } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const H = (heading: string) => [{ heading }];

/** A survey asking for an address three ways, its collector, and a poster of answers. */
async function surveyAskingForAddresses() {
  const { token, user } = await server.account({ plan: 'premier' });
  const t = { token };
  const created = await server.client.post(
    '/v3/surveys',
    {
      title: 'Tell us about you',
      pages: [
        {
          questions: [
            { family: 'open_ended', subtype: 'single', headings: H('Anything to add?') },
            {
              family: 'open_ended',
              subtype: 'single',
              headings: H('Your email'),
              validation: { type: 'email', text: 'An email address, please' },
            },
            {
              family: 'demographic',
              subtype: 'international',
              headings: H('Contact'),
              answers: { rows: [{ type: 'name' }, { type: 'email' }] },
            },
          ],
        },
      ],
    },
    t,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const details = (await server.client.get(`/v3/surveys/${created.body.id}/details`, t)).body;
  const page = details.pages[0];
  const [free, validated, contact] = page.questions;
  const collector = await server.client.post(
    `/v3/surveys/${created.body.id}/collectors`,
    { type: 'weblink' },
    t,
  );
  const post = async (question: 'free' | 'validated' | 'contact', text: string) => {
    const q = { free, validated, contact }[question];
    const answers = question === 'contact' ? [{ row_id: q.answers.rows[1].id, text }] : [{ text }];
    const r = await server.client.post(
      `/v3/collectors/${collector.body.id}/responses`,
      { pages: [{ id: page.id, questions: [{ id: q.id, answers }] }] },
      t,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };
  return { token, user, surveyId: created.body.id as string, post };
}

const env = () => ({ DATABASE_URL: server.config.databaseUrl });

it('erase finds responses that hold the address as an answer; --dry-run reports them and deletes nothing', async () => {
  const s = await surveyAskingForAddresses();
  const inText = await s.post('free', '  P3@Example.org ');
  const inValidated = await s.post('validated', 'p3@example.org');
  const inContact = await s.post('contact', 'P3@EXAMPLE.ORG');
  const mentions = await s.post('free', 'my friend p3@example.org said hello'); // not an answer that is the address
  const other = await s.post('validated', 'p4@example.org');
  const lookalike = await s.post('validated', 'xp3@example.org');

  const dry = await runCliJsonAsync(['erase', '--email', 'p3@example.org', '--dry-run'], env());
  expect(dry).toMatchObject({
    email: 'p3@example.org',
    dry_run: true,
    responses: 3,
    responses_by_answer: 3,
    surveys: 1,
    contacts: 0,
    recipients: 0,
    emails: 0,
  });
  expect([...dry.ids.responses].sort()).toEqual([inText, inValidated, inContact].sort());
  expect(dry.ids.surveys).toEqual([s.surveyId]);
  const t = { token: s.token };
  for (const id of [inText, inValidated, inContact])
    expect((await server.client.get(`/v3/surveys/${s.surveyId}/responses/${id}`, t)).status).toBe(200);
  expect((await server.client.get(`/v3/surveys/${s.surveyId}`, t)).body.response_count).toBe(6);

  const done = await runCliJsonAsync(
    ['erase', '--email', 'P3@example.org', '--owner', s.user.username],
    env(),
  );
  expect(done).toMatchObject({ dry_run: false, responses: 3, responses_by_answer: 3, surveys: 1 });
  expect([...done.ids.responses].sort()).toEqual([...dry.ids.responses].sort());
  for (const id of [inText, inValidated, inContact])
    expect((await server.client.get(`/v3/surveys/${s.surveyId}/responses/${id}`, t)).status).toBe(404);
  for (const id of [mentions, other, lookalike])
    expect((await server.client.get(`/v3/surveys/${s.surveyId}/responses/${id}`, t)).status).toBe(200);
  expect((await server.client.get(`/v3/surveys/${s.surveyId}`, t)).body.response_count).toBe(3);
}, 180_000);

it('--dry-run lists contacts and emails by id, and --owner keeps another account out of it', async () => {
  const mine = await surveyAskingForAddresses();
  const theirs = await surveyAskingForAddresses();
  const contact = await server.client.post(
    '/v3/contacts',
    { email: 'dry.run@example.org' },
    { token: mine.token },
  );
  expect(contact.status).toBe(201);
  const myResponse = await mine.post('validated', 'dry.run@example.org');
  const theirResponse = await theirs.post('validated', 'dry.run@example.org');

  const all = await runCliJsonAsync(['erase', '--email', 'dry.run@example.org', '--dry-run'], env());
  expect(all.ids.contacts).toEqual([contact.body.id]);
  expect([...all.ids.responses].sort()).toEqual([myResponse, theirResponse].sort());
  expect(all.surveys).toBe(2);

  const one = await runCliJsonAsync(
    ['erase', '--email', 'dry.run@example.org', '--owner', mine.user.username, '--dry-run'],
    env(),
  );
  expect(one).toMatchObject({ contacts: 1, responses: 1, surveys: 1, dry_run: true });
  expect(one.ids.responses).toEqual([myResponse]);
  // Nothing was deleted by either dry run.
  const t = { token: mine.token };
  expect((await server.client.get(`/v3/contacts/${contact.body.id}`, t)).status).toBe(200);
  expect((await server.client.get(`/v3/surveys/${mine.surveyId}/responses/${myResponse}`, t)).status).toBe(
    200,
  );
}, 180_000);
