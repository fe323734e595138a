// Messages an owner can act on, read as a real SMTP server and a real HTTP receiver get them: a
// response alert is an HTML email in the survey's theme colour (with a plain-text part) naming the
// survey, showing the first answers and linking to the response; it goes to the team members the
// owner chose on the alerts page (members only; one who left the team gets nothing); a
// Slack-compatible webhook posts the survey's name, the first answers and the response's link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeMember } from '../../src/domain/teams/teams.js';
import { OutboxWorker } from '../../src/outbox/worker.js';
import { openEnded, seedSurvey, signIn, singleChoice } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { decoded } from '../invite/helpers.js';
import { makeTeam } from '../teams/fixtures.js';
import { Receiver } from './helpers/receiver.js';
import { SmtpSink } from './helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let receiver: Receiver;
let worker: OutboxWorker;

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  receiver = await new Receiver().start();
  server = await startServer({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Surveys <surveys@example.com>',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  worker = new OutboxWorker(server.deps);
});
afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await smtp?.stop();
  await receiver?.stop();
});

describe('alerts people can act on', () => {
  it('sends themed HTML alerts with answers to chosen team members, and Slack messages with a link', async () => {
    const { owner, admin, regular, team } = await makeTeam(server);
    const outsider = await server.account();
    const s = await seedSurvey(server, owner, {
      title: 'Lunch <poll> & more',
      body: { theme_color: '#8a2be2' },
      questions: {
        dish: singleChoice('Which dish?', ['Soup', 'Salad']),
        why: openEnded('Why that one?'),
        when: openEnded('When do you eat?'),
        where: openEnded('Where do you eat?'),
      },
      collector: 'weblink',
    });
    const sm = new URL(s.survey.collect_url).searchParams.get('sm')!;
    const hook = await server.client.post(
      '/v3/webhooks',
      {
        name: 'Team channel',
        event_type: 'response_completed',
        object_type: 'survey',
        object_ids: [s.id],
        subscription_url: `${receiver.url}/slack`,
        format: 'slack',
      },
      { token: owner.token },
    );
    expect(hook.status, hook.text).toBe(201);

    // The alerts page offers the owner and the team's members, the owner ticked by default.
    const web = await signIn(server, owner);
    const page = `/collect/alerts?sm=${sm}`;
    const form = await web.get(page);
    for (const u of [owner, admin, regular]) expect(form.text).toContain(`value="${u.user.id}"`);
    expect(form.text).toMatch(new RegExp(`value="${owner.user.id}" checked`));
    expect(form.text).not.toMatch(new RegExp(`value="${admin.user.id}" checked`));
    expect(form.text).not.toContain(outsider.user.id);

    // Someone outside the team is refused; the admin and the regular member are taken.
    const _csrf = await web.csrf(page);
    const refused = await web.post(page, { _csrf, mode: 'each', to: [owner.user.id, outsider.user.id] });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('members of the owner&#39;s team');
    const saved = await web.post(page, { _csrf, mode: 'each', to: [admin.user.id, regular.user.id] });
    expect(saved.status).toBe(303);
    const again = await web.get(page);
    expect(again.text).toMatch(new RegExp(`value="${admin.user.id}" checked`));
    expect(again.text).not.toMatch(new RegExp(`value="${owner.user.id}" checked`));

    // The analyze page links the alerts page.
    expect((await web.get(`/analyze/${sm}`)).text).toContain(`href="/collect/alerts?sm=${sm}"`);

    const q = s.questions;
    const answer = {
      pages: [
        {
          id: s.pages[0],
          questions: [
            { id: q.dish, answers: [{ choice_id: s.choices.dish[0] }] },
            { id: q.why, answers: [{ text: 'Warm & <cheap>' }] },
            { id: q.when, answers: [{ text: 'Noon' }] },
            { id: q.where, answers: [{ text: 'At my desk' }] },
          ],
        },
      ],
    };
    const r = await server.client.post(`/v3/collectors/${s.collector.id}/responses`, answer, {
      token: owner.token,
    });
    expect(r.status, r.text).toBe(201);
    await worker.drain();

    const to = (u: { user: { email: string } }) => smtp.messages.filter((m) => m.to.includes(u.user.email));
    expect(to(owner)).toHaveLength(0);
    expect(to(admin)).toHaveLength(1);
    expect(to(regular)).toHaveLength(1);
    const mail = decoded(to(admin)[0].raw).replace(/\r\n/g, '\n');
    const link = `/analyze/${sm}/responses/${r.body.id}`;
    expect(mail).toMatch(/Content-Type: text\/plain/i);
    expect(mail).toMatch(/Content-Type: text\/html/i);
    // Text part: survey, first three answers, the response's link.
    expect(mail).toContain('A response (#1) to "Lunch <poll> & more" was completed');
    expect(mail).toContain('Which dish?\n  Soup');
    expect(mail).toContain('Why that one?\n  Warm & <cheap>');
    expect(mail).toContain(`View the response: http`);
    expect(mail).not.toContain('At my desk'); // only the first few answers
    // HTML part: escaped, in the survey's colour, a button to the response.
    expect(mail).toContain('New response to Lunch &lt;poll&gt; &amp; more');
    expect(mail).toContain('Warm &amp; &lt;cheap&gt;');
    expect(mail).toMatch(
      new RegExp(`<a href="http[^"]*${link}" style="display:inline-block[^"]*background:#8a2be2`),
    );

    // Slack: the survey's name, the answers, the link on a line of its own.
    const slack = receiver.posts().filter((p) => p.path === '/hook/slack');
    expect(slack).toHaveLength(1);
    const text: string = slack[0].json.text;
    expect(text).toContain(
      `A response was completed in survey “Lunch &lt;poll&gt; &amp; more” (${s.id}) — response #1.`,
    );
    expect(text).toContain('• Which dish?: Soup');
    expect(text).toContain('• Why that one?: Warm &amp; &lt;cheap&gt;');
    expect(text).toContain('• When do you eat?: Noon');
    expect(text).not.toContain('At my desk');
    expect(text).toMatch(new RegExp(`\\nView the response: http\\S*${link}$`));

    // A chosen member who leaves the team gets no more alerts.
    await removeMember(server.deps, team.id, regular.user.username, {
      userId: owner.user.id,
      ip: '198.51.100.7',
    });
    const r2 = await server.client.post(`/v3/collectors/${s.collector.id}/responses`, answer, {
      token: owner.token,
    });
    expect(r2.status).toBe(201);
    await worker.drain();
    expect(to(admin)).toHaveLength(2);
    expect(to(regular)).toHaveLength(1);
  });

  it('keeps one whole set of recipients when saves race', async () => {
    const { owner, admin, regular } = await makeTeam(server);
    const s = await seedSurvey(server, owner, { kind: 'simple', title: 'Race' });
    const sm = new URL(s.survey.collect_url).searchParams.get('sm')!;
    const web = await signIn(server, owner);
    const page = `/collect/alerts?sm=${sm}`;
    const _csrf = await web.csrf(page);
    const sets = [
      [owner.user.id, admin.user.id],
      [regular.user.id],
      [admin.user.id, regular.user.id],
      [owner.user.id],
      [owner.user.id, admin.user.id, regular.user.id],
      [admin.user.id],
    ];
    const saved = await Promise.all(sets.map((to) => web.post(page, { _csrf, mode: 'each', to })));
    expect(saved.map((r) => r.status)).toEqual(sets.map(() => 303));
    const form = (await web.get(page)).text;
    const ticked = [owner, admin, regular]
      .filter((u) => new RegExp(`value="${u.user.id}" checked`).test(form))
      .map((u) => u.user.id);
    expect(sets.map((x) => [...x].sort().join())).toContain([...ticked].sort().join());
  });
});
