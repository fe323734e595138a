// Calculated variables' rules as the API's PATCH/PUT and the builder's form call them
// (updateSurvey): what a formula may name, cycles and names refused with the field named, and
// where a variable may then be used (a recall, a display condition) or carried (a copy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSurvey, type SurveyRow } from '../../src/domain/surveys/access.js';
import { calculatedOf } from '../../src/domain/surveys/calculated.js';
import { createPage, createQuestion } from '../../src/domain/surveys/design.js';
import { copySurvey, createSurvey, loadDesign, updateSurvey } from '../../src/domain/surveys/surveys.js';
import { type DomainAccount, type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;
let owner: DomainAccount;
let survey: SurveyRow;
let pageId: string;
let choiceQ: string;
let textQ: string;

beforeAll(async () => {
  t = await openDomain();
  owner = await t.account();
  survey = await createSurvey(t.deps, owner.actor, {
    title: 'Scored',
    custom_variables: { age: 'Age' },
    pages: [
      {
        questions: [
          {
            family: 'single_choice',
            subtype: 'vertical',
            headings: [{ heading: 'Pick' }],
            answers: {
              choices: [
                { text: 'A', weight: 2 },
                { text: 'B', weight: 5 },
              ],
            },
          },
          { family: 'open_ended', subtype: 'single', headings: [{ heading: 'How many?' }] },
          { family: 'presentation', subtype: 'descriptive_text', headings: [{ heading: 'Note' }] },
        ],
      },
    ],
  });
  const design = await loadDesign(t.deps, survey.id);
  pageId = design.pages[0].id;
  [choiceQ, textQ] = (design.questions.get(pageId) ?? []).map((q) => q.id);
});
afterAll(() => t?.close());

const set = (
  calculated_variables: Array<{ name: string; formula: string }>,
  mode: 'patch' | 'put' = 'patch',
) => updateSurvey(t.deps, owner.actor, survey.id, { calculated_variables }, mode);

describe('defining calculated variables', () => {
  it('keeps valid definitions in the order given, and moves the design version', async () => {
    const before = survey.design_version;
    const row = await set([
      { name: 'double', formula: ' total * 2 ' },
      { name: 'total', formula: `question("${choiceQ}") + question("${textQ}") + custom_variable("age")` },
    ]);
    expect(calculatedOf(row)).toEqual([
      { name: 'double', formula: 'total * 2' },
      { name: 'total', formula: `question("${choiceQ}") + question("${textQ}") + custom_variable("age")` },
    ]);
    expect(row.design_version).toBe(before + 1);
    survey = row;
  });

  it('refuses an unknown question, variable or custom variable, naming the formula', async () => {
    await refused(
      set([
        { name: 'a', formula: '1' },
        { name: 'b', formula: 'question("999999") + 1' },
      ]),
      1002,
      /'calculated_variables\[1\]\.formula': question\("999999"\) names no question/,
    );
    const presentation = (await loadDesign(t.deps, survey.id)).questions.get(pageId)![2].id;
    await refused(
      set([{ name: 'a', formula: `score("${presentation}")` }]),
      1002,
      /'calculated_variables\[0\]\.formula': score/,
    );
    await refused(
      set([{ name: 'a', formula: 'b + 1' }]),
      1002,
      /'calculated_variables\[0\]\.formula': "b" is no calculated variable/,
    );
    await refused(
      set([{ name: 'a', formula: 'custom_variable("town")' }]),
      1002,
      /'calculated_variables\[0\]\.formula': the survey has no custom variable "town"/,
    );
  });

  it('refuses a cycle, naming the first variable in it', async () => {
    await refused(
      set([
        { name: 'ok', formula: '1' },
        { name: 'x', formula: 'y + ok' },
        { name: 'y', formula: 'max(x, 2)' },
      ]),
      1002,
      /'calculated_variables\[1\]\.formula': "x" depends on itself/,
    );
    await refused(set([{ name: 'self', formula: 'self' }]), 1002, /'calculated_variables\[0\]\.formula'/);
  });

  it('refuses a formula that does not parse and a name used twice, naming the field', async () => {
    await refused(
      set([{ name: 'a', formula: '2 *' }]),
      1002,
      /'calculated_variables\[0\]\.formula': the formula is empty or ends too soon/,
    );
    await refused(
      set([
        { name: 'Total', formula: '1' },
        { name: 'total', formula: '2' },
      ]),
      1002,
      /'calculated_variables\[1\]\.name': the name "total" is already used/,
    );
    await refused(set([{ name: '9lives', formula: '1' }]), 1002, /'calculated_variables\[0\]\.name'/);
    // nothing refused was kept
    const stored = await requireSurvey(t.deps, owner.actor, survey.id, 'design', 'read');
    expect(calculatedOf(stored).map((v) => v.name)).toEqual(['double', 'total']);
  });

  it('clears the list on a PUT without it, and keeps it on a PATCH without it', async () => {
    const other = await createSurvey(t.deps, owner.actor, { title: 'Other' });
    await updateSurvey(
      t.deps,
      owner.actor,
      other.id,
      { calculated_variables: [{ name: 'n', formula: '1' }] },
      'patch',
    );
    const patched = await updateSurvey(t.deps, owner.actor, other.id, { title: 'Renamed' }, 'patch');
    expect(calculatedOf(patched)).toHaveLength(1);
    const put = await updateSurvey(t.deps, owner.actor, other.id, { title: 'Put' }, 'put');
    expect(calculatedOf(put)).toEqual([]);
  });
});

describe('using calculated variables', () => {
  it('recalls only a variable the survey has, in question and page texts', async () => {
    const page = await createPage(t.deps, owner.actor, survey, { title: 'You scored [variable("total")]' });
    expect(page.title).toBe('You scored [variable("total")]');
    await refused(
      createPage(t.deps, owner.actor, survey, { title: 'You scored [variable("nope")]' }),
      1002,
      /'title': the survey has no calculated variable "nope"/,
    );
    await refused(
      createQuestion(t.deps, owner.actor, survey, page.id, {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: 'Twice is [variable("triple")]' }],
      }),
      1002,
      /'headings\[0\]\.heading': the survey has no calculated variable "triple"/,
    );
  });

  it('shows a question on a condition over a variable the survey has', async () => {
    const page = (await loadDesign(t.deps, survey.id)).pages[1];
    const q = await createQuestion(t.deps, owner.actor, survey, page.id, {
      family: 'open_ended',
      subtype: 'single',
      headings: [{ heading: 'Why so high?' }],
      display_logic: { variable: 'total', operator: 'greater_than', value: '5' },
    });
    expect(q.doc.display_logic).toEqual({ variable: 'total', operator: 'greater_than', value: '5' });
    await refused(
      createQuestion(t.deps, owner.actor, survey, page.id, {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: 'x' }],
        display_logic: { variable: 'nope', operator: 'answered' },
      }),
      1002,
      /'display_logic\.variable': the survey has no calculated variable "nope"/,
    );
    await refused(
      createQuestion(t.deps, owner.actor, survey, page.id, {
        family: 'open_ended',
        subtype: 'single',
        headings: [{ heading: 'x' }],
        display_logic: { variable: 'total', operator: 'greater_than', value: 'many' },
      }),
      1002,
      /'display_logic\.value': greater_than compares numbers/,
    );
  });

  it('conditions a skip rule only on a variable the survey has, compared with a number', async () => {
    const choice = (when: object) =>
      createQuestion(t.deps, owner.actor, survey, pageId, {
        family: 'single_choice',
        subtype: 'vertical',
        headings: [{ heading: 'Go on?' }],
        answers: { choices: [{ text: 'No', logic: { action: 'end_survey', ...when } }] },
      });
    await refused(
      choice({ when: { variable: 'nope', operator: 'equals', value: '1' } }),
      1002,
      /'answers\.choices\[0\]\.logic\.when\.variable': the survey has no calculated variable "nope"/,
    );
    await refused(
      choice({ when: { variable: 'total', operator: 'less_than', value: 'ten' } }),
      1002,
      /'answers\.choices\[0\]\.logic\.when\.value': less_than compares numbers/,
    );
    const ok = await choice({ when: { variable: 'total', operator: 'less_than', value: '10' } });
    expect(ok.doc.answers?.choices?.[0].logic?.when).toEqual({
      variable: 'total',
      operator: 'less_than',
      value: '10',
    });
  });

  it('copies the variables with the copies of the questions they name', async () => {
    const copy = await copySurvey(t.deps, owner.actor, survey.id);
    const copied = (await loadDesign(t.deps, copy.id)).questions;
    const [c1, c2] = [...copied.values()][0].map((q) => q.id);
    expect(calculatedOf(copy)).toEqual([
      { name: 'double', formula: 'total * 2' },
      { name: 'total', formula: `question("${c1}") + question("${c2}") + custom_variable("age")` },
    ]);
  });
});
