// The survey builder in a real browser: without script, a question of every type is added and
// edited through its form, questions are reordered by buttons, moved to another page, copied and
// deleted (through the confirmation page), the settings are set, and GET /v3/surveys/{id}/details
// answers what was entered; with script, questions are reordered by drag and drop and a deletion is
// confirmed in the dialog. The page checks run on an empty survey, a full one and an edit form.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_KINDS } from '../../src/web/design/question-form.js';
import type { TestAccount } from '../helpers/accounts.js';
import { releaseBrowser, sharedBrowser, signedInPages } from '../helpers/fixtures.js';
import { checkPage } from '../helpers/pages.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let page: Page;
/** A page with script, for the page checks (axe runs as script) and drag and drop. */
let jsPage: Page;
let owner: TestAccount;

beforeAll(async () => {
  server = await startServer();
  browser = await sharedBrowser();
  owner = await server.account();
  ({ page, jsPage } = await signedInPages(browser, server.url, owner));
});

/** The page checks on what the no-script page shows now. */
async function check(name: string) {
  await jsPage.goto(page.url());
  await checkPage(jsPage, name);
}
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
});

async function details(id: string) {
  const res = await server.client.get(`/v3/surveys/${id}/details`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

async function newSurvey(title: string) {
  const res = await server.client.post('/v3/surveys', { title }, { token: owner.token });
  expect(res.status).toBe(201);
  const edit = new URL(res.body.edit_url);
  return { id: res.body.id as string, path: `${server.url}${edit.pathname}${edit.search}` };
}

const IMAGES = 'https://example.com/apple.png Apple\nhttps://example.com/pear.png Pear';

describe('the builder without JavaScript', () => {
  let survey: { id: string; path: string };

  it('shows an empty survey, then adds and edits a question of every type', async () => {
    survey = await newSurvey('Everything');
    await page.goto(survey.path);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Everything');
    await expect(page.getByRole('link', { name: 'Design' }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
    await expect(page.getByText('This page has no questions yet.').count()).resolves.toBe(1);
    await check('builder-empty');

    for (const kind of QUESTION_KINDS) {
      const add = page.locator('form.add-question');
      await add.getByLabel('Type').selectOption(kind.value);
      await add.getByLabel('Question text').fill(`New ${kind.value}`);
      if (kind.display === 'image_choice') await add.getByLabel('Choices or columns (optional)').fill(IMAGES);
      if (kind.value === 'image')
        await add
          .getByLabel('Image URL (optional; needed for an image)')
          .fill('https://example.com/photo.png');
      await add.getByRole('button', { name: 'Add question' }).click();
      expect(await page.locator('.notice, .error').allTextContents(), kind.value).toEqual([
        'The question was added.',
      ]);
      // The page comes back at the add box; the new question, just above it, opens for editing.
      expect(new URL(page.url()).hash).toMatch(/^#add-[0-9]+$/);
      await page
        .locator('li.question')
        .last()
        .getByRole('link', { name: /^Edit / })
        .click();

      // The new question's edit form is open: change its text, make it required, add a choice or row.
      const form = page.locator('form.q-edit');
      await form
        .getByLabel(kind.shape === 'presentation' ? 'Text' : 'Question text')
        .fill(`Edited ${kind.value}`);
      if (kind.shape !== 'presentation') {
        await form.getByLabel('An answer is required').check();
        await form.getByLabel('Message when it is missing').fill(`Answer ${kind.value}`);
      }
      if (kind.shape === 'choices')
        await form
          .getByLabel('Add choices')
          .fill(kind.display === 'image_choice' ? 'https://example.com/plum.png Plum' : 'Added choice');
      if (kind.shape === 'matrix') await form.getByLabel('Add rows').fill('Added row');
      if (kind.shape === 'ranking') await form.getByLabel('Add items').fill('Added row');
      if (kind.shape === 'stars') await form.getByLabel('Number of stars').selectOption('7');
      if (kind.shape === 'nps') await form.getByLabel('Low end').fill('Never');
      if (kind.value === 'single_textbox') {
        await form.getByLabel('Accept only').selectOption('text_length');
        await form.getByLabel('Minimum (length, number or date)').fill('2');
        await form.getByLabel('Maximum').fill('40');
      }
      if (kind.value === 'date') {
        await form.getByLabel('Accept only').selectOption('date_us');
        await form.getByLabel('Minimum (length, number or date)').fill('01/01/2020');
        await form.getByLabel('Maximum').fill('12/31/2030');
      }
      if (kind.value === 'comment_box') await form.getByLabel('Accept only').selectOption('email');
      if (kind.value === 'contact_intl') await form.getByLabel('Phone number', { exact: true }).check();
      if (kind.value === 'dropdown')
        await form.getByLabel('Order of choices for respondents').selectOption('random');
      if (kind.value === 'single_choice') {
        await form.getByLabel('Add an "N/A" choice').check();
        await form.getByLabel('Add an "Other" answer with a text box').check();
        await form.getByLabel('Choice 1', { exact: true }).fill('First choice');
        await form.getByLabel('Order').first().fill('9');
      }
      if (kind.value === 'matrix_single') await form.getByLabel('Remove').first().check();
      await form.getByRole('button', { name: 'Save question' }).click();
      expect(await page.locator('.notice, .error').allTextContents(), kind.value).toEqual([
        'The question was saved.',
      ]);
    }

    const d = await details(survey.id);
    const qs = d.pages[0].questions;
    expect(qs).toHaveLength(QUESTION_KINDS.length);
    QUESTION_KINDS.forEach((kind, i) => {
      const q = qs[i];
      expect([q.family, q.subtype, q.display_options?.display_type ?? null], kind.value).toEqual([
        kind.family,
        kind.subtype,
        kind.display ?? null,
      ]);
      expect(q.headings[0].heading).toBe(`Edited ${kind.value}`);
      if (kind.shape === 'presentation') expect(q.required).toBeNull();
      else expect(q.required, kind.value).toMatchObject({ text: `Answer ${kind.value}`, type: 'all' });
    });
    const byKind = Object.fromEntries(QUESTION_KINDS.map((k, i) => [k.value, qs[i]]));
    const texts = (list: any[]) => list.map((x) => x.text);
    expect(texts(byKind.single_choice.answers.choices)).toEqual([
      'Choice 2',
      'First choice',
      'Added choice',
      'N/A',
    ]);
    expect(byKind.single_choice.answers.choices[3].is_na).toBe(true);
    expect(byKind.single_choice.answers.other.text).toBe('Other (please specify)');
    expect(texts(byKind.multiple_choice.answers.choices)).toEqual(['Choice 1', 'Choice 2', 'Added choice']);
    expect(byKind.dropdown.sorting).toEqual({ type: 'random', ignore_last: false });
    expect(byKind.image_single.answers.choices.map((c: any) => [c.text, c.image.url])).toEqual([
      ['Apple', 'https://example.com/apple.png'],
      ['Pear', 'https://example.com/pear.png'],
      ['Plum', 'https://example.com/plum.png'],
    ]);
    expect(texts(byKind.matrix_single.answers.rows)).toEqual(['Row 2', 'Added row']);
    expect(texts(byKind.ranking.answers.rows)).toEqual(['Item 1', 'Item 2', 'Item 3', 'Added row']);
    expect(byKind.star_rating.answers.choices.map((c: any) => c.weight)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(byKind.star_rating.display_options).toMatchObject({
      display_type: 'emoji',
      display_subtype: 'star',
    });
    expect(byKind.nps.display_options.left_label).toBe('Never');
    expect(byKind.single_textbox.validation).toMatchObject({ type: 'text_length', min: '2', max: '40' });
    expect(byKind.date.validation).toMatchObject({ type: 'date_us', min: '01/01/2020', max: '12/31/2030' });
    expect(byKind.comment_box.validation).toMatchObject({ type: 'email' });
    expect(byKind.slider.validation).toMatchObject({ type: 'integer', min: '0', max: '100' });
    expect(byKind.contact_intl.answers.rows.filter((r: any) => r.visible).map((r: any) => r.type)).toEqual([
      'name',
      'email',
      'phone',
    ]);
    expect(byKind.image.headings[0].image.url).toBe('https://example.com/photo.png');

    await page.goto(survey.path);
    await check('builder-full');
    await page.goto(`${survey.path}&open=${byKind.single_choice.id}`);
    await check('builder-question-form');
  }, 400_000);

  it('reorders by buttons, moves to another page, copies and deletes with confirmation', async () => {
    let d = await details(survey.id);
    const [first, second] = d.pages[0].questions;
    await page.goto(survey.path);
    await page.getByRole('button', { name: /^Move Question 2 .* up$/ }).click();
    d = await details(survey.id);
    expect(d.pages[0].questions.slice(0, 2).map((q: any) => q.id)).toEqual([second.id, first.id]);

    await page.getByLabel('Page title (optional)').fill('Second page');
    await page.getByLabel('Page description (optional)').fill('The rest');
    await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByLabel(/^Move Question 1 .* to page$/).selectOption({ label: 'To page 2' });
    await page.getByRole('button', { name: /^Move Question 1 .* to the chosen page$/ }).click();
    d = await details(survey.id);
    expect(d.pages[1]).toMatchObject({ title: 'Second page', description: 'The rest' });
    expect(d.pages[1].questions.map((q: any) => q.id)).toEqual([second.id]);

    await page.getByRole('button', { name: /^Copy Question \d+ "Edited dropdown"$/ }).click();
    d = await details(survey.id);
    expect(d.pages[1].questions.map((q: any) => q.headings[0].heading)).toEqual([
      'Edited dropdown',
      'Edited dropdown',
    ]);
    const copy = d.pages[1].questions[1];
    expect(copy.id).not.toBe(second.id);
    expect(copy.answers.choices.map((c: any) => c.text)).toEqual(
      second.answers.choices.map((c: any) => c.text),
    );

    // Without script the server asks: the confirmation page names what is lost.
    const count = d.question_count;
    await page
      .getByRole('button', { name: /^Delete Question \d+ "Edited dropdown"$/ })
      .last()
      .click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(
      /^Delete Question \d+ "Edited dropdown"\?$/,
    );
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      '0 answers to it in the collected responses.',
    );
    await page.getByRole('button', { name: 'Delete question' }).click();
    d = await details(survey.id);
    expect(d.question_count).toBe(count - 1);
    expect(d.pages[1].questions.map((q: any) => q.id)).toEqual([second.id]);

    await page.getByText('Page 2 settings').click();
    await page.getByRole('button', { name: 'Delete page 2' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'Page 2: Second page and its 1 question.',
    );
    await page.getByRole('button', { name: 'Delete page' }).click();
    d = await details(survey.id);
    expect(d.page_count).toBe(1);
  });

  it('sets the survey settings', async () => {
    await page.goto(survey.path);
    await page.getByText('Survey settings').click();
    await page.getByLabel('Title', { exact: true }).fill('Everything, renamed');
    await page.getByLabel('Nickname (only you see it)').fill('all types');
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('Next', { exact: true }).fill('Weiter');
    await page.getByLabel('Previous').fill('Zurück');
    await page.getByLabel('Exit (empty hides it)').fill('');
    await page.getByLabel('Done').fill('Fertig');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain(
      'The survey settings were saved.',
    );
    expect(await details(survey.id)).toMatchObject({
      title: 'Everything, renamed',
      nickname: 'all types',
      language: 'de',
      buttons_text: { next_button: 'Weiter', prev_button: 'Zurück', exit_button: '', done_button: 'Fertig' },
    });
    const preview = page.getByRole('link', { name: 'Preview as a respondent' });
    expect(await preview.getAttribute('href')).toBe(
      new URL((await details(survey.id)).preview).pathname +
        new URL((await details(survey.id)).preview).search,
    );
  });
});

describe('the builder with JavaScript', () => {
  it('reorders by drag and drop, across pages too, and confirms a deletion in a dialog', async () => {
    const js = jsPage;
    const res = await server.client.post(
      '/v3/surveys',
      {
        title: 'Drag me',
        pages: [
          {
            questions: ['A', 'B', 'C'].map((heading) => ({
              family: 'open_ended',
              subtype: 'single',
              headings: [{ heading }],
            })),
          },
          { title: 'Two', questions: [] },
        ],
      },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    const edit = new URL(res.body.edit_url);
    // Tall enough that both pages' lists are on screen above the settings and quiz forms: the mouse
    // drags within the viewport.
    await js.setViewportSize({ width: 1280, height: 1600 });
    await js.goto(`${server.url}${edit.pathname}${edit.search}`);
    const headings = async () =>
      (await details(res.body.id)).pages.map((p: any) => p.questions.map((q: any) => q.headings[0].heading));

    const handle = (text: string) => js.locator('li.question', { hasText: text }).locator('.drag-handle');
    /** Drags with the mouse in small steps, as a person does (SortableJS follows the pointer). */
    const drag = async (from: ReturnType<typeof handle>, to: ReturnType<typeof handle>) => {
      const a = (await from.boundingBox())!;
      const b = (await to.boundingBox())!;
      await js.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
      await js.mouse.down();
      await js.mouse.move(b.x + b.width / 2, b.y + b.height - 5, { steps: 20 });
      await js.mouse.up();
    };
    // Where a drop lands depends on the pointer's path; the server's order is the page's after reload.
    await Promise.all([
      js.waitForNavigation(),
      drag(handle('"A"'), js.locator('li.question', { hasText: '"B"' })),
    ]);
    const [moved] = await headings();
    expect(moved).not.toEqual(['A', 'B', 'C']);
    expect([...moved].sort()).toEqual(['A', 'B', 'C']);
    expect(await js.locator('ol.questions').first().locator('h3.q-heading').allTextContents()).toEqual(moved);

    const rest = moved.filter((h: string) => h !== 'B');
    await Promise.all([js.waitForNavigation(), drag(handle('"B"'), js.locator('ol.questions').nth(1))]);
    expect(await headings()).toEqual([rest, ['B']]);

    await js.getByRole('button', { name: `Delete Question 1 "${rest[0]}"` }).click();
    const dialog = js.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain('0 answers to it in the collected responses.');
    await Promise.all([
      js.waitForNavigation(),
      dialog.getByRole('button', { name: 'Delete question' }).click(),
    ]);
    expect(await headings()).toEqual([rest.slice(1), ['B']]);
  });
});
