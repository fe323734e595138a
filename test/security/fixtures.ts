// One of every resource an account can own, made through the API (and, for teams, the service the
// `team create`/`team add` verbs use), for the security tests. Returns the ids by path parameter.
import { expect } from 'vitest';
import { openJob } from '../../src/domain/import/jobs.js';
import { addMember, createTeam } from '../../src/domain/teams/teams.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import type { TestAccount } from '../helpers/accounts.js';
import type { ApiResponse } from '../helpers/client.js';
import type { TestServer } from '../helpers/server.js';
import { Receiver } from '../reach/helpers/receiver.js';

export interface OwnedResources {
  surveyId: string;
  pageId: string;
  questionId: string;
  choiceId: string;
  otherId: string;
  textQuestionId: string;
  languageCode: string;
  folderId: string;
  weblinkId: string;
  emailCollectorId: string;
  messageId: string;
  recipientId: string;
  responseId: string;
  exportId: string;
  importId: string;
  contactId: string;
  contactListId: string;
  webhookId: string;
  deliveryId: string;
  teamId: string;
  teamMemberId: string;
  workgroupId: string;
  workgroupMemberId: string;
  shareId: string;
  userId: string;
  quotaId: string;
}

function created(res: ApiResponse, what: string): any {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBeLessThan(300);
  return res.body;
}

/** Everything `owner` (with `mate` as a member of its team) can create. The server must allow
 * private webhook targets (WEBHOOK_ALLOW_PRIVATE_TARGETS) so a delivery reaches a local receiver. */
export async function createEveryResource(
  server: TestServer,
  owner: TestAccount,
  mate: TestAccount,
): Promise<OwnedResources> {
  const c = server.client;
  const t = { token: owner.token };
  const survey = created(
    await c.post(
      '/v3/surveys',
      {
        title: 'Owner survey',
        pages: [
          {
            title: 'Page one',
            questions: [
              {
                family: 'single_choice',
                subtype: 'vertical',
                headings: [{ heading: 'Pick one' }],
                answers: { choices: [{ text: 'Yes' }, { text: 'No' }], other: [{ text: 'Other' }] },
              },
              { family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why?' }] },
            ],
          },
        ],
      },
      t,
    ),
    'survey',
  );
  const details = created(await c.get(`/v3/surveys/${survey.id}/details`, t), 'details');
  const page = details.pages[0];
  const [choiceQ, textQ] = page.questions;
  created(
    await c.post(
      `/v3/surveys/${survey.id}/languages/fr`,
      {
        translations: [
          {
            default: 'Owner survey',
            translation: 'Sondage',
            context: 'survey_title_html',
            resource_id: survey.id,
          },
        ],
      },
      t,
    ),
    'translation',
  );
  const folder = created(await c.post('/v3/survey_folders', { title: 'Owner folder' }, t), 'folder');
  const weblink = created(
    await c.post(`/v3/surveys/${survey.id}/collectors`, { type: 'weblink' }, t),
    'weblink',
  );
  const email = created(await c.post(`/v3/surveys/${survey.id}/collectors`, { type: 'email' }, t), 'email');
  const message = created(
    await c.post(`/v3/collectors/${email.id}/messages`, { type: 'invite' }, t),
    'message',
  );
  const recipient = created(
    await c.post(
      `/v3/collectors/${email.id}/messages/${message.id}/recipients`,
      { email: 'invitee@example.org' },
      t,
    ),
    'recipient',
  );
  const contact = created(
    await c.post('/v3/contacts', { email: 'contact@example.org', first_name: 'Ann' }, t),
    'contact',
  );
  const list = created(await c.post('/v3/contact_lists', { name: 'Owner list' }, t), 'list');
  created(
    await c.post(`/v3/contact_lists/${list.id}/contacts`, { email: 'listed@example.org' }, t),
    'listed',
  );

  const receiver = await new Receiver().start();
  const webhook = created(
    await c.post(
      '/v3/webhooks',
      {
        name: 'Owner hook',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [survey.id],
        subscription_url: receiver.url,
      },
      t,
    ),
    'webhook',
  );
  const response = created(
    await c.post(
      `/v3/collectors/${weblink.id}/responses`,
      {
        response_status: 'completed',
        pages: [
          {
            id: page.id,
            questions: [{ id: choiceQ.id, answers: [{ choice_id: choiceQ.answers.choices[0].id }] }],
          },
        ],
      },
      t,
    ),
    'response',
  );
  const exported = created(await c.post(`/v3/surveys/${survey.id}/exports`, {}, t), 'export');
  const worker = new OutboxWorker(server.deps, { pollMs: 5 });
  await worker.drain();
  await worker.stop();
  await receiver.stop();
  const deliveries = created(await c.get(`/v3/webhooks/${webhook.id}/deliveries`, t), 'deliveries');
  expect(deliveries.data.length, 'a delivery to point at').toBeGreaterThan(0);

  const team = await createTeam(server.deps, owner.user, { name: 'Owner team' });
  const member = await addMember(
    server.deps,
    team.id,
    { username: mate.user.username },
    { userId: owner.user.id, ip: '198.51.100.7' },
  );
  const workgroup = created(
    await c.post('/v3/workgroups', { name: 'Owner workgroup', is_visible: false }, t),
    'workgroup',
  );
  const wgMember = created(
    await c.post(
      `/v3/workgroups/${workgroup.id}/members`,
      { user_id: mate.user.id, is_workgroup_owner: false },
      t,
    ),
    'workgroup member',
  );
  const share = created(
    await c.post(
      `/v3/workgroups/${workgroup.id}/shares`,
      { resource_type: 'survey', resource_id: survey.id },
      t,
    ),
    'share',
  );
  const quota = created(
    await c.post(
      `/v3/surveys/${survey.id}/quotas`,
      {
        name: 'Yes sayers',
        limit: 10,
        conditions: [{ question_id: choiceQ.id, choice_id: choiceQ.answers.choices[0].id }],
        action: { type: 'end_survey', message: 'Thank you.' },
      },
      t,
    ),
    'quota',
  );
  created(
    await c.put(
      `/v3/surveys/${survey.id}/report_schedule`,
      { frequency: 'weekly', weekday: 1, hour: 9, time_zone: 'Europe/Berlin' },
      t,
    ),
    'report schedule',
  );
  return {
    surveyId: survey.id,
    pageId: page.id,
    questionId: choiceQ.id,
    choiceId: choiceQ.answers.choices[0].id,
    otherId: choiceQ.answers.other.id,
    textQuestionId: textQ.id,
    languageCode: 'fr',
    folderId: folder.id,
    weblinkId: weblink.id,
    emailCollectorId: email.id,
    messageId: message.id,
    recipientId: recipient.id,
    responseId: response.id,
    exportId: exported.id,
    // an import job of the owner's, as POST /v3/imports leaves it (no source server needed here)
    importId: (await openJob(server.deps, owner.user.id, 'https://api.surveymonkey.com', '1', 500)).id,
    contactId: contact.id,
    contactListId: list.id,
    webhookId: webhook.id,
    deliveryId: deliveries.data[0].id,
    teamId: team.id,
    teamMemberId: member.id,
    workgroupId: workgroup.id,
    workgroupMemberId: wgMember.id,
    shareId: share.id,
    userId: owner.user.id,
    quotaId: quota.id,
  };
}

/** The owner's id for a path parameter of the OpenAPI document (undefined: none known). Some
 * names mean different resources under different paths. */
export function ownedIdFor(ids: OwnedResources, param: string, path: string): string | undefined {
  const invitations = /\/(messages|recipients)/.test(path);
  const byName: Record<string, string> = {
    survey_id: ids.surveyId,
    page_id: ids.pageId,
    question_id: ids.questionId,
    language_code: ids.languageCode,
    folder_id: ids.folderId,
    collector_id: invitations ? ids.emailCollectorId : ids.weblinkId,
    message_id: ids.messageId,
    recipient_id: ids.recipientId,
    response_id: ids.responseId,
    export_id: ids.exportId,
    import_id: ids.importId,
    contact_id: ids.contactId,
    contact_list_id: ids.contactListId,
    webhook_id: ids.webhookId,
    delivery_id: ids.deliveryId,
    group_id: ids.teamId,
    member_id: path.startsWith('/v3/groups/') ? ids.teamMemberId : ids.workgroupMemberId,
    action_type: 'survey_info_create',
    workgroup_id: ids.workgroupId,
    share_id: ids.shareId,
    user_id: ids.userId,
    quota_id: ids.quotaId,
  };
  return byName[param];
}
