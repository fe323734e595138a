// Piping for people: a bracket that starts like a recall but names nothing is refused (API and
// builder, naming the field), SurveyMonkey's [FirstName]/[LastName]/[Email] merge tags recall the
// invitation's contact, the builder's "Insert answer from…" works without script, and every
// owner-facing place (analyze, the CSV export, the builder's logic labels) reads a recall as
// "[answer to Q1]", never its syntax.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '../helpers/accounts.js';
import { type ApiResponse, errorCode } from '../helpers/client.js';
import { seedSurvey, signIn, smOf } from '../helpers/fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  // a plan that may share results
  owner = await server.account({ plan: 'advantage' });
});
afterAll(() => server.close());

const t = () => ({ token: owner.token });
const text = (heading: string) => ({ family: 'open_ended', subtype: 'single', headings: [{ heading }] });
const onServer = (u: string) => {
  const url = new URL(u);
  return `${server.url}${url.pathname}${url.search}`;
};

/** Page 1 asks a name; page 2 has a question that may recall it. */
async function twoPages() {
  return seedSurvey(server, owner, {
    title: 'Piping',
    body: { custom_variables: { src: 'Source' } },
    pages: [{ questions: { name: text('Your name?') } }, { questions: { later: text('Anything else?') } }],
  });
}

function expect1002(res: ApiResponse, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(errorCode(res)).toBe('1002');
  expect(res.body.error.message).toContain(`'${field}'`);
  expect(res.body.error.message).toContain('does not name anything to recall');
}

describe('a recall that names nothing', () => {
  it('is refused through the API, naming the field, in questions, choices, page texts and one-request surveys', async () => {
    const s = await twoPages();
    const q = `/v3/surveys/${s.id}/pages/${s.pages[1]}/questions/${s.questions.later}`;
    expect1002(
      await server.client.patch(q, { headings: [{ heading: 'Hi [question(1)]' }] }, t()),
      'headings[0].heading',
    );
    // the syntax without the question's id
    expect1002(
      await server.client.patch(q, { headings: [{ heading: 'Hi [question("value")]' }] }, t()),
      'headings[0].heading',
    );
    expect1002(
      await server.client.post(
        `/v3/surveys/${s.id}/pages/${s.pages[1]}/questions`,
        {
          family: 'single_choice',
          subtype: 'vertical',
          headings: [{ heading: 'Pick' }],
          answers: { choices: [{ text: 'A' }, { text: 'B [answer("1")]' }] },
        },
        t(),
      ),
      'answers.choices[1].text',
    );
    expect1002(
      await server.client.patch(
        `/v3/surveys/${s.id}/pages/${s.pages[1]}`,
        { title: 'For [contact(first_name)]' },
        t(),
      ),
      'title',
    );
    expect1002(
      await server.client.post(
        '/v3/surveys',
        { title: 'One go', pages: [{ questions: [text('Hello [custom_variable(src)]')] }] },
        t(),
      ),
      'pages[0].questions[0].headings[0].heading',
    );
    // nothing was saved; a well-formed recall and a merge tag are taken
    const kept = await server.client.get(q, t());
    expect(kept.body.headings[0].heading).toBe('Anything else?');
    const ok = `Thanks [question("value"), id="${s.questions.name}"] and [FirstName] ([Email]) from [custom_variable("src")]`;
    const saved = await server.client.patch(q, { headings: [{ heading: ok }] }, t());
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.headings[0].heading).toBe(ok);
  });

  it('is refused by the builder: the form again, the message at the question text, nothing saved', async () => {
    const s = await twoPages();
    const web = await signIn(server, owner);
    const sm = smOf(s.survey.edit_url);
    const edit = `/create/?sm=${sm}&open=${s.questions.later}`;
    const page = await web.get(edit);
    const kind = /name="kind" value="([^"]+)"/.exec(page.text)![1];
    const save = `/create/pages/${s.pages[1]}/questions/${s.questions.later}/save?sm=${sm}`;
    const res = await web.postForm(save, { kind, heading: 'Dear [question(1)], anything else?' }, edit);
    expect(res.status).toBe(400);
    expect(res.text).toContain('Question text: [question(1)] does not name anything to recall');
    expect(res.text).toMatch(
      /<textarea id="q-\d+-heading" name="heading" rows="2" maxlength="20000" aria-invalid="true" aria-describedby="q-\d+-error">Dear \[question\(1\)\], anything else\?<\/textarea>/,
    );
    const kept = await server.client.get(`/v3/surveys/${s.id}/details`, t());
    expect(kept.body.pages[1].questions[0].headings[0].heading).toBe('Anything else?');
  });
});

describe('"Insert answer from…" without script', () => {
  it('lists earlier questions, contact fields and custom variables, and adds the chosen recall to the text', async () => {
    const s = await twoPages();
    const web = await signIn(server, owner);
    const sm = smOf(s.survey.edit_url);
    const edit = `/create/?sm=${sm}&open=${s.questions.later}`;
    const page = await web.get(edit);
    const recall = `[question("value"), id="${s.questions.name}"]`;
    const picker = /<select id="q-\d+-recall"[\s\S]*?<\/select>/.exec(page.text)![0];
    expect(picker).toContain(
      `<optgroup label="Earlier questions"><option value="${recall.replace(/"/g, '&quot;')}">Q1: Your name?</option>`,
    );
    expect(picker).toContain('>First name</option>');
    expect(picker).toContain(
      '<optgroup label="Custom variables"><option value="[custom_variable(&quot;src&quot;)]">src</option>',
    );
    // page 1's question cannot recall a question: it is told why, and still offers the contact
    const first = await web.get(`/create/?sm=${sm}&open=${s.questions.name}`);
    expect(first.text).not.toContain('<optgroup label="Earlier questions">');
    expect(first.text).toContain('Questions on earlier pages are listed here');

    const kind = /name="kind" value="([^"]+)"/.exec(page.text)![1];
    const save = `/create/pages/${s.pages[1]}/questions/${s.questions.later}/save?sm=${sm}`;
    const inserted = await web.postForm(save, { kind, heading: 'Thanks', recall, insert: 'heading' }, edit);
    expect(inserted.status).toBe(200);
    expect(inserted.text).toContain(`autofocus>Thanks ${recall.replace(/"/g, '&quot;')}</textarea>`);
    expect(inserted.text).toContain('Nothing is saved until you choose "Save question".');
    // inserting saves nothing; saving the form does
    const before = await server.client.get(`/v3/surveys/${s.id}/details`, t());
    expect(before.body.pages[1].questions[0].headings[0].heading).toBe('Anything else?');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(inserted.text)![1];
    const saved = await web.post(save, { _csrf: csrf, kind, heading: `Thanks ${recall}` });
    expect(saved.status).toBe(303);
    const after = await server.client.get(`/v3/surveys/${s.id}/details`, t());
    expect(after.body.pages[1].questions[0].headings[0].heading).toBe(`Thanks ${recall}`);
    // the builder's list reads it as people do
    const list = await web.get(`/create/?sm=${sm}`);
    expect(list.text).toContain('Thanks [answer to Q1]');
  });
});

describe("SurveyMonkey's merge tags", () => {
  it('show the invitation contact to its recipient, and nothing on a web link', async () => {
    const s = await seedSurvey(server, owner, {
      title: 'Merge tags',
      questions: { q: text('Hello [FirstName] [LastName] <[Email]>, how was it? [contact("custom_1")]') },
      collector: 'email',
    });
    const c = `/v3/collectors/${s.collector.id}`;
    const msg = await server.client.post(`${c}/messages`, { type: 'invite' }, t());
    const r = await server.client.post(
      `${c}/messages/${msg.body.id}/recipients`,
      {
        email: 'dana@example.org',
        first_name: 'Dana',
        last_name: 'Doe',
        custom_fields: { '1': 'Blue team' },
      },
      t(),
    );
    expect(r.status, r.text).toBe(201);
    const personal = await (await fetch(onServer(r.body.survey_link))).text();
    expect(personal).toContain('Hello Dana Doe &lt;dana@example.org&gt;, how was it? Blue team');
    expect(personal).not.toContain('[FirstName]');

    const web = await server.client.post(`/v3/surveys/${s.id}/collectors`, { type: 'weblink' }, t());
    const anonymous = await (await fetch(onServer(web.body.url))).text();
    expect(anonymous).toContain('Hello   &lt;&gt;, how was it? <');
    expect(anonymous).not.toContain('[FirstName]');
  });
});

describe('owner-facing labels', () => {
  it('analyze, the CSV export and logic labels read a recall as "[answer to Q1]"', async () => {
    const s = await seedSurvey(server, owner, {
      title: 'Labels',
      pages: [
        {
          questions: {
            pet: {
              family: 'single_choice',
              subtype: 'vertical',
              headings: [{ heading: 'Pet?' }],
              answers: { choices: [{ text: 'Cat' }, { text: 'Dog' }] },
            },
          },
        },
        { questions: { why: text('Why') } },
        { questions: { more: text('More?') } },
      ],
      collector: 'weblink',
    });
    const recall = `[question("value"), id="${s.questions.pet}"]`;
    const why = `/v3/surveys/${s.id}/pages/${s.pages[1]}/questions/${s.questions.why}`;
    const patched = await server.client.patch(
      why,
      {
        family: 'single_choice',
        subtype: 'vertical',
        headings: [{ heading: `Why a ${recall}, [FirstName]?` }],
        answers: { choices: [{ text: 'Fun' }, { text: 'Calm' }] },
      },
      t(),
    );
    expect(patched.status, patched.text).toBe(200);
    const d = (await server.client.get(`/v3/surveys/${s.id}/details`, t())).body;
    const posted = await server.client.post(
      `/v3/collectors/${s.collector.id}/responses`,
      {
        pages: [
          {
            id: d.pages[0].id,
            questions: [{ id: s.questions.pet, answers: [{ choice_id: s.choices.pet[0] }] }],
          },
          {
            id: d.pages[1].id,
            questions: [
              {
                id: s.questions.why,
                answers: [{ choice_id: d.pages[1].questions[0].answers.choices[0].id }],
              },
            ],
          },
        ],
      },
      t(),
    );
    expect(posted.status, posted.text).toBe(201);
    const readable = 'Why a [answer to Q1], [First name]?';

    const web = await signIn(server, owner);
    const analyze = await web.get(
      new URL(s.survey.analyze_url).pathname + new URL(s.survey.analyze_url).search,
    );
    expect(analyze.status).toBe(200);
    expect(analyze.text).toContain(readable);
    expect(analyze.text).not.toContain('question(&quot;value&quot;)');

    const exp = await server.client.post(`/v3/surveys/${s.id}/exports`, { format: 'csv' }, t());
    const file = await fetch(`${server.url}${new URL(exp.body.download_url).pathname}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const csv = await file.text();
    expect(csv).toContain(readable);
    expect(csv).not.toContain('question("value")');
    expect(csv).not.toContain('question(""value"")');
    const xlsx = await server.client.post(`/v3/surveys/${s.id}/exports`, { format: 'xlsx' }, t());
    const book = await fetch(`${server.url}${new URL(xlsx.body.download_url).pathname}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await book.arrayBuffer());
    const header = JSON.stringify(wb.worksheets[0].getRow(1).values);
    expect(header).toContain(readable);
    expect(header).not.toContain('question(');

    // shared results, which anyone with the link reads
    const sm = new URL(s.survey.analyze_url).pathname.split('/').pop()!;
    const _csrf = await web.csrf(`/analyze/share?sm=${sm}`);
    const shared = await web.post(`/analyze/share?sm=${sm}`, {
      _csrf,
      state: 'on',
      q: [s.questions.pet, s.questions.why],
      filter: 'none',
    });
    expect(shared.status, shared.text).toBe(303);
    const link = /id="share-link"[^>]*value="([^"]+)"/.exec(
      (await web.get(`/analyze/share?sm=${sm}`)).text,
    )![1];
    const visitor = await (await fetch(`${server.url}${new URL(link).pathname}`)).text();
    expect(visitor).toContain(readable);
    expect(visitor).not.toContain('question(&quot;value&quot;)');

    // the third question's "Shown if" choices name the second as people read it
    const edit = await web.get(`${new URL(s.survey.edit_url).pathname}${new URL(s.survey.edit_url).search}`);
    expect(edit.text).toContain(
      '&quot;Why a [answer to Q1], [First name]?&quot; is answered &quot;Fun&quot;',
    );
  });
});
