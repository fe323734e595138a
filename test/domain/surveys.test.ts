// The survey list's and the settings form's rules as their pages call them (src/web/home,
// src/web/design/edit.ts): searching and sorting titles, folders, copying, deleting (only the
// owner; the confirmation counts the collectors lost), and the settings' quiz ranges, custom
// variables and folder. The page tests (surveys-list.e2e, survey-settings.e2e) show the same forms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/domain/collectors/collectors.js';
import { surveyDeletion } from '../../src/domain/collectors/states.js';
import type { QuizOptions } from '../../src/domain/surveys/blueprint.js';
import { createFolder, deleteFolder, getFolder } from '../../src/domain/surveys/folders.js';
import {
  copySurvey,
  createSurvey,
  deleteSurvey,
  listSurveys,
  loadDesign,
  updateSurvey,
} from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;
let stranger: DomainAccount;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
  stranger = await t.account();
});
afterAll(() => t?.close());

const quiz = (ranges: Array<[number, number]>, type: 'points' | 'percentage' = 'points'): QuizOptions => ({
  is_quiz_mode: true,
  show_results_type: 'results_only',
  feedback: {
    ranges_type: type,
    ranges: ranges.map(([min, max]) => ({ min, max, message: `${min}-${max}` })),
  },
});

describe('the survey list', () => {
  it('searches titles whatever their case, taking % and _ as letters, and sorts by title', async () => {
    const mine = await t.account();
    for (const title of ['Banana 100%', 'apple pie', 'Apple_crumble', 'Cherry']) {
      await createSurvey(t.deps, mine.actor, { title });
    }
    const titles = async (title?: string) =>
      (
        await listSurveys(t.deps, mine.user.id, {
          offset: 0,
          limit: 50,
          filters: [],
          title,
          sortBy: 'title',
          sortOrder: 'ASC',
        })
      )[1].map((s) => s.title);
    expect(await titles()).toEqual(['apple pie', 'Apple_crumble', 'Banana 100%', 'Cherry']);
    expect(await titles('APPLE')).toEqual(['apple pie', 'Apple_crumble']);
    expect(await titles('e_')).toEqual(['Apple_crumble']);
    expect(await titles('0%')).toEqual(['Banana 100%']);
    // another account's surveys are not listed
    expect((await listSurveys(t.deps, stranger.user.id, { offset: 0, limit: 50, filters: [] }))[1]).toEqual(
      [],
    );
  });

  it('files a survey in a folder; deleting the folder keeps the survey, in no folder', async () => {
    const folder = await createFolder(t.deps, owner.user.id, 'Work');
    const s = await createSurvey(t.deps, owner.actor, { title: 'Filed' });
    await updateSurvey(t.deps, owner.actor, s.id, { folder_id: folder.id }, 'patch');
    expect((await getFolder(t.deps, owner.user.id, folder.id)).num_surveys).toBe(1);
    await deleteFolder(t.deps, owner.user.id, folder.id);
    const [, rows] = await listSurveys(
      t.deps,
      owner.user.id,
      { offset: 0, limit: 50, filters: [], title: 'Filed' },
      ['id', 'folder_id'],
    );
    expect(rows).toEqual([{ id: s.id, folder_id: null }]);
  });

  it('copies a survey as "Copy of …" with its pages and questions under new ids', async () => {
    const s = await createSurvey(t.deps, owner.actor, {
      title: 'Original',
      pages: [{ questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Why?' }] }] }],
    });
    const copy = await copySurvey(t.deps, owner.actor, s.id);
    expect(copy.title).toBe('Copy of Original');
    const [a, b] = [await loadDesign(t.deps, s.id), await loadDesign(t.deps, copy.id)];
    const headings = (d: typeof a) => [...d.questions.values()].flat().map((q) => q.doc.headings[0].heading);
    expect(headings(b)).toEqual(['Why?']);
    expect(b.pages[0].id).not.toBe(a.pages[0].id);
    // someone who may not read it cannot copy it
    await refused(copySurvey(t.deps, stranger.actor, s.id), 1020);
  });

  it('deletes a survey only for its owner, the confirmation counting its collectors', async () => {
    const s = await createSurvey(t.deps, owner.actor, { title: 'Doomed' });
    await createCollector(t.deps, owner.actor, s, { type: 'weblink' }, undefined);
    await createCollector(t.deps, owner.actor, s, { type: 'weblink', status: 'closed' }, undefined);
    expect((await surveyDeletion(t.deps, owner.actor, s.id)).collectors).toBe(2);
    await refused(surveyDeletion(t.deps, stranger.actor, s.id), 1020);
    await refused(deleteSurvey(t.deps, stranger.actor, s.id), 1020);
    await deleteSurvey(t.deps, owner.actor, s.id);
    await refused(surveyDeletion(t.deps, owner.actor, s.id), 1020);
  });
});

describe('survey settings', () => {
  it('refuse quiz score ranges that overlap (inclusive), run backward or leave 0..100 as percentages', async () => {
    const s = await createSurvey(t.deps, owner.actor, { title: 'Quiz' });
    const set = (q: QuizOptions) => updateSurvey(t.deps, owner.actor, s.id, { quiz_options: q }, 'patch');
    await refused(
      set(
        quiz([
          [0, 5],
          [3, 9],
        ]),
      ),
      1002,
      "'quiz_options.feedback.ranges.1' (3-9) overlaps 'quiz_options.feedback.ranges.0' (0-5); ranges are inclusive.",
    );
    await refused(
      set(
        quiz([
          [0, 5],
          [5, 9],
        ]),
      ),
      1002,
      /overlaps/,
    );
    await refused(set(quiz([[9, 5]])), 1002, /min 9 above its max 5/);
    await refused(set(quiz([[50, 120]], 'percentage')), 1002, /within 0\.\.100/);
    const ok = await set(
      quiz([
        [0, 5],
        [6, 9],
      ]),
    );
    expect(JSON.parse(ok.quiz_options!).feedback.ranges).toHaveLength(2);
  });

  it('take custom variables on a paid plan only', async () => {
    const basic = await t.account({ plan: 'basic' });
    const s = await createSurvey(t.deps, basic.actor, { title: 'Vars' });
    await refused(
      updateSurvey(t.deps, basic.actor, s.id, { custom_variables: { ref: 'Referrer' } }, 'patch'),
      1015,
      'custom_variables need a paid plan.',
    );
    const paid = await createSurvey(t.deps, owner.actor, { title: 'Vars' });
    const set = await updateSurvey(
      t.deps,
      owner.actor,
      paid.id,
      { custom_variables: { ref: 'Referrer' } },
      'patch',
    );
    expect(JSON.parse(set.custom_variables)).toEqual({ ref: 'Referrer' });
  });

  it('file a survey only in a folder of its owner', async () => {
    const theirs = await createFolder(t.deps, stranger.user.id, 'Theirs');
    const s = await createSurvey(t.deps, owner.actor, { title: 'Mine' });
    await refused(updateSurvey(t.deps, owner.actor, s.id, { folder_id: theirs.id }, 'patch'), 1020);
  });
});
