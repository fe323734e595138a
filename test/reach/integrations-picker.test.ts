// The /integrations form picks what a webhook watches by name: the account's surveys and their
// collectors as checkboxes (another account's are neither offered nor accepted), the list and the
// webhook's page name what it watches, and typed ids still work beside the ticks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { surveyWithCollector } from './helpers/objects.js';
import { Receiver } from './helpers/receiver.js';

let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await server?.close();
  await receiver?.stop();
});

describe('/integrations survey picker', () => {
  it('offers the account’s surveys and collectors by name and makes webhooks of the ticked ones', async () => {
    const a = await server.account();
    const other = await server.account();
    const lunch = await surveyWithCollector(server.client, a.token, 'Lunch poll');
    const dinner = await surveyWithCollector(server.client, a.token, 'Dinner & drinks');
    const theirs = await surveyWithCollector(server.client, other.token, 'Not yours');
    const web = await signIn(server, a);

    const page = await web.get('/integrations');
    expect(page.text).toMatch(
      new RegExp(
        `name="survey_ids" value="${lunch.surveyId}"><label for="wh-survey-${lunch.surveyId}">Lunch poll</label>`,
      ),
    );
    expect(page.text).toContain('>Dinner &amp; drinks</label>');
    expect(page.text).toContain(`name="collector_ids" value="${dinner.collectorId}"`);
    expect(page.text).not.toContain('Not yours');

    const make = async (form: Record<string, string | string[]>) => {
      const _csrf = await web.csrf('/integrations');
      return web.post('/integrations', {
        _csrf,
        name: 'Picked',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: '',
        format: 'slack',
        ...form,
      });
    };
    // A webhook made on the page belongs to no app, so the store is read for what it watches.
    const watchedBy = async (id: string) =>
      (
        JSON.parse(
          (
            await server.deps.db.kysely
              .selectFrom('webhooks')
              .select('object_ids')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).object_ids,
        ) as string[]
      ).sort();

    const bySurvey = await make({
      survey_ids: [lunch.surveyId, dinner.surveyId],
      subscription_url: `${receiver.url}/s`,
    });
    expect(bySurvey.status, bySurvey.text).toBe(303);
    const surveyHook = bySurvey.location!.split('?')[0].split('/').pop()!;
    expect(await watchedBy(surveyHook)).toEqual([lunch.surveyId, dinner.surveyId].sort());
    const detail = await web.get(`/integrations/${surveyHook}`);
    expect(detail.text).toContain('Lunch poll, Dinner &amp; drinks');

    // Collectors: the ticked collectors (the survey ticks are not used), with a typed id added.
    const byCollector = await make({
      object_type: 'collector',
      survey_ids: lunch.surveyId,
      collector_ids: dinner.collectorId,
      object_ids: lunch.collectorId,
      subscription_url: `${receiver.url}/c`,
    });
    expect(byCollector.status, byCollector.text).toBe(303);
    const collectorHook = byCollector.location!.split('?')[0].split('/').pop()!;
    expect(await watchedBy(collectorHook)).toEqual([dinner.collectorId, lunch.collectorId].sort());
    const list = await web.get('/integrations');
    expect(list.text).toMatch(/Dinner &amp; drinks: [^,<]+, Lunch poll: /);

    // Someone else's survey, posted directly, is refused with the form again, ticks kept.
    const refused = await make({
      survey_ids: [lunch.surveyId, theirs.surveyId],
      subscription_url: `${receiver.url}/x`,
    });
    expect(refused.status).toBe(404);
    expect(refused.text).toContain(`Survey ${theirs.surveyId} not found.`);
    expect(refused.text).toContain(`value="${lunch.surveyId}" checked`);
  });
});
