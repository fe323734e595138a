// Scheduled summaries, read as a real SMTP server receives them, with a test clock: a weekly summary
// in Europe/Berlin stays at 09:00 local across the spring-forward change; a monthly one in
// America/New_York on the 31st is sent on the last day of a shorter month and keeps 08:00 local
// across the autumn change; two workers running the job at once send one email; an owner who
// opted out of alerts gets none. The summary carries the survey's PDF report (read with pdftotext),
// except for a basic-plan survey past the plan's limit, whose email says where the report is.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAlertsOptOut } from '../../src/domain/alerts/alerts.js';
import { reportScheduleOf, setReportSchedule } from '../../src/domain/reports/schedules.js';
import { OutboxWorker, scheduledJobs } from '../../src/outbox/worker.js';
import { TestClock } from '../helpers/clock.js';
import { seedSurvey, singleChoice } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { decoded } from '../invite/helpers.js';
import { SmtpSink } from './helpers/smtp.js';

let server: TestServer;
let smtp: SmtpSink;
let workers: OutboxWorker[];
const clock = new TestClock('2026-03-18T12:00:00Z');

beforeAll(async () => {
  smtp = await new SmtpSink().start();
  server = await startServer({
    clock,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Surveys <surveys@example.com>' },
  });
  workers = [new OutboxWorker(server.deps, { name: 'one' }), new OutboxWorker(server.deps, { name: 'two' })];
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await server.close();
  await smtp.stop();
});

const job = () => scheduledJobs(server.deps).find((j) => j.name === 'report-summaries')!;
/** Both workers run the job at once, then send what was queued. */
async function race(): Promise<void> {
  await Promise.all([job().run(server.deps), job().run(server.deps)]);
  await Promise.all(workers.map((w) => w.drain()));
}
const mailTo = (to: string) => smtp.messages.filter((m) => m.to.includes(to));

/** The message's attachments: content type, file name and bytes of each part sent as a file. */
function attachmentsOf(raw: string) {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  return parts
    .filter((p) => /content-disposition:\s*attachment/i.test(p))
    .map((p) => {
      const cut = p.search(/\r?\n\r?\n/);
      const head = p.slice(0, cut);
      return {
        type: /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1],
        name: /filename="?([^";\r\n]+)"?/i.exec(head)?.[1],
        bytes: Buffer.from(p.slice(cut).replace(/--[^\r\n]*--\s*$/, ''), 'base64'),
      };
    });
}

function pdfText(pdf: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'summary-')), 'report.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

async function surveyWithAnswers(n: number) {
  const a = await server.account({ plan: 'premier' });
  const s = await seedSurvey(server, a, {
    title: `Lunch ${a.user.id}`,
    questions: { dish: singleChoice('Favourite dish?', ['Soup', 'Salad']) },
    collector: 'weblink',
  });
  const respond = async (k: number, status = 'completed') => {
    const r = await server.client.post(
      `/v3/collectors/${s.collector.id}/responses`,
      {
        response_status: status,
        pages: [
          {
            id: s.pages[0],
            questions: [
              { id: s.questions.dish, answers: [{ choice_id: s.choices.dish[k % 3 === 2 ? 1 : 0] }] },
            ],
          },
        ],
      },
      { token: a.token },
    );
    expect(r.status, r.text).toBe(201);
  };
  for (let k = 0; k < n; k++) await respond(k);
  return { a, survey: { id: s.id, owner_id: a.user.id }, respond };
}

describe('scheduled summaries', () => {
  it('sends a weekly summary at 09:00 Berlin time across the spring-forward change, once with two workers', async () => {
    clock.set('2026-03-18T12:00:00Z'); // a Wednesday
    const { a, survey, respond } = await surveyWithAnswers(3);
    const set = await setReportSchedule(server.deps, a.user.id, survey, {
      frequency: 'weekly',
      weekday: 1,
      hour: 9,
      time_zone: 'Europe/Berlin',
    });
    expect(set.nextSendAt).toBe('2026-03-23T08:00:00.000Z'); // Monday 09:00 CET
    await race();
    expect(mailTo(a.user.email)).toHaveLength(0); // not due yet
    clock.set('2026-03-23T08:00:00Z');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(1);
    const first = decoded(mailTo(a.user.email)[0].raw);
    expect(first).toMatch(/Subject: Weekly summary: Lunch/);
    expect(first).toContain('2026-03-16 09:00 to 2026-03-23 09:00 (Europe/Berlin)');
    expect(first).toContain('Responses this period: 3');
    expect(first).toContain('Responses in all: 3');
    expect(first).toContain('Completion rate: 100% (3 of 3)');
    expect(first).toContain('Favourite dish?: Soup (67% of 3)');
    expect(first).toContain('The full report is attached (PDF).');
    const files = attachmentsOf(mailTo(a.user.email)[0].raw);
    expect(files.map((f) => [f.type, f.name])).toEqual([
      ['application/pdf', expect.stringMatching(/_report\.pdf$/)],
    ]);
    const report = pdfText(files[0].bytes);
    expect(report).toContain('Favourite dish?');
    expect(report).toMatch(/Soup\s+2\s+66\.67%/);
    expect(report).toMatch(/Salad\s+1\s+33\.33%/);
    // After the change to summer time, Monday 09:00 is 07:00 UTC.
    expect((await reportScheduleOf(server.deps, survey.id))?.nextSendAt).toBe('2026-03-30T07:00:00.000Z');
    clock.set('2026-03-25T10:00:00Z');
    await respond(0, 'partial');
    clock.set('2026-03-30T06:59:00Z');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(1);
    clock.set('2026-03-30T07:00:00Z');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(2); // one email for the period, not two
    const second = decoded(mailTo(a.user.email)[1].raw);
    expect(second).toContain('Responses this period: 1');
    expect(second).toContain('Completion rate: 75% (3 of 4)');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(2);
  });

  it('sends a monthly summary on the 31st or the last day, at 08:00 New York time across the autumn change', async () => {
    clock.set('2026-10-20T15:00:00Z');
    const { a, survey } = await surveyWithAnswers(1);
    const set = await setReportSchedule(server.deps, a.user.id, survey, {
      frequency: 'monthly',
      day_of_month: 31,
      hour: 8,
      time_zone: 'America/New_York',
    });
    expect(set.nextSendAt).toBe('2026-10-31T12:00:00.000Z'); // 08:00 EDT
    clock.set('2026-10-31T12:00:00Z');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(1);
    expect(decoded(mailTo(a.user.email)[0].raw)).toMatch(/Subject: Monthly summary: Lunch/);
    // November has 30 days, and New York is on standard time (UTC−5) by then.
    expect((await reportScheduleOf(server.deps, survey.id))?.nextSendAt).toBe('2026-11-30T13:00:00.000Z');
  });

  it('sends nothing to an owner who opted out, and passes the period over', async () => {
    clock.set('2026-06-01T10:00:00Z');
    const { a, survey } = await surveyWithAnswers(1);
    await setReportSchedule(server.deps, a.user.id, survey, {
      frequency: 'weekly',
      weekday: 3,
      hour: 7,
      time_zone: 'Asia/Tokyo',
    });
    await setAlertsOptOut(server.deps, a.user.id, true);
    clock.set('2026-06-02T22:00:00Z'); // Wednesday 07:00 in Tokyo
    await race();
    expect(mailTo(a.user.email)).toHaveLength(0);
    expect((await reportScheduleOf(server.deps, survey.id))?.nextSendAt).toBe('2026-06-09T22:00:00.000Z');
    // Opted back in: the next period is sent.
    await setAlertsOptOut(server.deps, a.user.id, false);
    clock.set('2026-06-09T22:00:00Z');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(1);
  });

  it('sends a basic-plan survey past the plan limit without its report, saying where it is', async () => {
    clock.set('2026-05-04T10:00:00Z'); // a Monday
    const { a, survey } = await surveyWithAnswers(26);
    // Answered on a paid plan, then moved to basic: the plan reads the first 25 of them.
    await server.deps.db.kysely
      .updateTable('users')
      .set({ account_type: 'basic' })
      .where('id', '=', a.user.id)
      .execute();
    await setReportSchedule(server.deps, a.user.id, survey, {
      frequency: 'weekly',
      weekday: 2,
      hour: 9,
      time_zone: 'UTC',
    });
    clock.set('2026-05-05T09:00:00Z');
    await race();
    expect(mailTo(a.user.email)).toHaveLength(1);
    const raw = mailTo(a.user.email)[0].raw;
    expect(decoded(raw)).toContain('The full report is on the results page.');
    expect(attachmentsOf(raw)).toEqual([]);
  });
});
