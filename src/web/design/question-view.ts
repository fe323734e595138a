// The builder's question form as HTML: the fields of a draft (question-form.ts), shaped by its kind.
// The form element, its buttons and its error message are the caller's (edit.ts).
import type { RecallChoice } from '../../domain/surveys/piping.js';
import { DEMOGRAPHIC_TYPES } from '../../domain/surveys/question-schema.js';
import { type Html, html, raw } from '../html.js';
import { type PageChoice, ruleSelect } from './logic-ui.js';
import type { Draft, Item } from './question-form.js';
import { findKind, LAYOUTS, QUESTION_KINDS, SORTABLE, validationsFor } from './question-kinds.js';

const sel = (on: boolean) => (on ? raw(' selected') : '');
const chk = (on: boolean) => (on ? raw(' checked') : '');

function itemList(
  f: string,
  name: 'choice' | 'row',
  legend: string,
  items: Item[],
  extra: { weight?: boolean; image?: boolean; score?: boolean; logic?: LogicContext },
): Html {
  return html`<fieldset class="items"><legend>${legend}</legend>
${items.length ? '' : html`<p class="hint">None yet.</p>`}
<ol class="items">${items.map((c, i) => {
    const id = `${f}-${name}-${i}`;
    return html`<li class="item-row">
<input type="hidden" name="${name}_id" value="${c.id}">
<span class="field"><label for="${id}-text">${name === 'choice' ? 'Choice' : 'Row'} ${i + 1}</label>
<input id="${id}-text" name="${name}_text" type="text" maxlength="20000" value="${c.text}"></span>
<span class="field small"><label for="${id}-order">Order</label>
<input id="${id}-order" name="${name}_order" type="number" inputmode="numeric" value="${c.order || String(i + 1)}"></span>
${extra.weight ? html`<span class="field small"><label for="${id}-weight">Weight</label><input id="${id}-weight" name="choice_weight" type="number" step="any" value="${c.weight}"></span>` : name === 'choice' ? html`<input type="hidden" name="choice_weight" value="${c.weight}">` : ''}
${extra.image ? html`<span class="field"><label for="${id}-image">Image URL</label><input id="${id}-image" name="choice_image" type="url" maxlength="20000" value="${c.image}"></span>` : name === 'choice' ? html`<input type="hidden" name="choice_image" value="${c.image}">` : ''}
${extra.score ? html`<span class="field small"><label for="${id}-score">Score</label><input id="${id}-score" name="choice_score" type="number" step="any" value="${c.score}"></span>` : name === 'choice' ? html`<input type="hidden" name="choice_score" value="${c.score}">` : ''}
${extra.logic ? html`<span class="field then"><label for="${id}-logic">Then</label>${ruleSelect(`${id}-logic`, 'choice_logic', c.logic, extra.logic.pages, extra.logic.pageIndex, 'Continue (no rule)')}</span>` : ''}
<label class="check"><input type="checkbox" name="${name}_remove" value="${c.id}"${chk(c.remove)}> Remove</label>
</li>`;
  })}</ol>
</fieldset>`;
}

function area(
  id: string,
  name: string,
  label: string,
  help: string,
  value: string,
  rows = 3,
  invalid: Html | string = '',
): Html {
  return html`<label for="${id}">${label}</label>
<p class="hint" id="${id}-help">${help}</p>
<textarea id="${id}" name="${name}" rows="${rows}"${invalid || raw(` aria-describedby="${id}-help"`)}>${value}</textarea>`;
}

function text(id: string, name: string, label: string, value: string, type = 'text'): Html {
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="${name}" type="${type}" maxlength="20000" value="${value}">`;
}

/** Where the question is, for its choices' skip-logic selects (single choice questions only). */
export interface LogicContext {
  pages: readonly PageChoice[];
  /** the index of the question's page in `pages` */
  pageIndex: number;
}

/** Which text field of the form a refused recall is in (its message names the field). */
export function recallField(message: string | undefined): 'heading' | 'description' | undefined {
  const m = /^'headings\[0\]\.(heading|description)': /.exec(message ?? '');
  return m ? (m[1] === 'heading' ? 'heading' : 'description') : undefined;
}

/** A refused recall's message in the form's words: the field as its label, not its API path. */
export function recallMessage(message: string): string {
  const field = recallField(message);
  if (!field) return message;
  return `${field === 'heading' ? 'Question text' : 'Description'}: ${message.replace(/^'[^']*': /, '')}`;
}

/**
 * "Insert answer from…": what the question text may recall, grouped. Without script the Insert
 * button posts the form, which comes back with the recall added at the end of the question text
 * (nothing saved yet); with script (/assets/piping.js) it is inserted at the cursor instead.
 */
function recallPicker(f: string, recalls: readonly RecallChoice[]): Html {
  const groups = [...new Set(recalls.map((r) => r.group))];
  const earlier = recalls.some((r) => r.group === 'Earlier questions');
  return html`<div class="recall-picker" data-target="${f}-heading">
<label for="${f}-recall">Insert answer from…</label>
<p class="hint" id="${f}-recall-help">Adds a placeholder to the question text that each respondent sees filled in with their own answer, name or link value.${earlier ? '' : ' Questions on earlier pages are listed here once this question is on page 2 or later.'} Contact fields are filled for email invitations only, and left empty for other links.</p>
<div class="row"><select id="${f}-recall" name="recall" aria-describedby="${f}-recall-help"><option value="">Choose…</option>${groups.map(
    (g) =>
      html`<optgroup label="${g}">${recalls.filter((r) => r.group === g).map((r) => html`<option value="${r.syntax}">${r.label}</option>`)}</optgroup>`,
  )}</select>
<button type="submit" name="insert" value="heading" class="secondary">Insert</button></div></div>`;
}

/** The fields of a question's edit form (`f` prefixes their ids; the form element is the caller's). */
export function questionFields(
  f: string,
  d: Draft,
  options: {
    quiz: boolean;
    logic?: LogicContext;
    recalls?: readonly RecallChoice[];
    /** the field a refused recall is in (marked invalid, described by the form's error) */
    invalid?: 'heading' | 'description';
    /** focus the question text (after a recall was inserted without script) */
    focusHeading?: boolean;
  },
): Html {
  const invalid = (field: 'heading' | 'description') =>
    options.invalid === field ? raw(` aria-invalid="true" aria-describedby="${f}-error"`) : '';
  const kind = findKind(d.kind) ?? QUESTION_KINDS[0];
  const shape = kind.shape;
  const logic = kind.family === 'single_choice' ? options.logic : undefined;
  const layouts = kind.subtype === 'menu' || kind.display ? undefined : LAYOUTS[kind.family];
  const validations = validationsFor(kind);
  const DEMO_LABELS: Record<string, string> = {
    name: 'Name',
    company: 'Company',
    address: 'Address',
    address2: 'Address 2',
    city: 'City/Town',
    state: 'State/Province',
    zip: 'ZIP/Postal code',
    country: 'Country',
    email: 'Email address',
    phone: 'Phone number',
  };
  return html`<input type="hidden" name="kind" value="${kind.value}"><p class="hint">Type: ${kind.label}</p>
<label for="${f}-heading">${shape === 'presentation' ? 'Text' : 'Question text'}</label>
<textarea id="${f}-heading" name="heading" rows="2" maxlength="20000"${invalid('heading')}${options.focusHeading ? raw(' autofocus') : ''}>${d.heading}</textarea>
${options.focusHeading ? html`<p class="hint" role="status" id="${f}-inserted">Added at the end of the question text. Nothing is saved until you choose "Save question".</p>` : ''}
${options.recalls ? recallPicker(f, options.recalls) : ''}
${area(`${f}-description`, 'description', 'Description (optional)', 'Shown under the question text.', d.description, 2, invalid('description'))}
${text(`${f}-image`, 'image', kind.value === 'image' ? 'Image URL' : 'Image URL (optional)', d.image, 'url')}
${kind.value === 'image' ? html`<p class="hint">The text above is the image's description for people who cannot see it.</p>` : ''}
${
  layouts
    ? html`<label for="${f}-layout">Layout</label>
<select id="${f}-layout" name="layout">${layouts.map(([v, label]) => html`<option value="${v}"${sel(d.layout === v)}>${label}</option>`)}</select>`
    : ''
}
${
  shape === 'matrix' || shape === 'rating' || shape === 'ranking' || shape === 'menu' || shape === 'rows'
    ? html`${itemList(f, 'row', shape === 'ranking' ? 'Items to rank' : shape === 'rows' ? 'Boxes' : 'Rows', d.rows, {})}
${area(`${f}-add-rows`, 'add_rows', shape === 'ranking' ? 'Add items' : shape === 'rows' ? 'Add boxes' : 'Add rows', 'One per line; paste a list to add many.', d.addRows)}`
    : ''
}
${
  shape === 'choices' || shape === 'matrix' || shape === 'rating'
    ? html`${itemList(f, 'choice', shape === 'choices' ? 'Choices' : 'Columns', d.choices, {
        weight: shape === 'rating',
        image: kind.display === 'image_choice',
        score: options.quiz,
        logic,
      })}
${logic ? html`<p class="hint">"Then" is skip logic: where a respondent who picks the choice goes after this page. Rules only go to later pages; without one, the page's own rule (or the next page) applies.</p>` : ''}
${area(`${f}-add-choices`, 'add_choices', shape === 'choices' ? 'Add choices' : 'Add columns', kind.display === 'image_choice' ? 'One per line: the image URL, a space, then its label (also the image description).' : 'One per line; paste a list to add many.', d.addChoices)}`
    : ''
}
${
  shape === 'menu'
    ? html`<fieldset class="items"><legend>Columns (each a dropdown menu)</legend><ol class="items">${d.cols.map(
        (c, i) => html`<li class="item-row">
<input type="hidden" name="col_id" value="${c.id}">
<span class="field"><label for="${f}-col-${i}-text">Column ${i + 1}</label><input id="${f}-col-${i}-text" name="col_text" type="text" maxlength="20000" value="${c.text}"></span>
<span class="field small"><label for="${f}-col-${i}-order">Order</label><input id="${f}-col-${i}-order" name="col_order" type="number" value="${c.order || String(i + 1)}"></span>
<span class="field"><label for="${f}-col-${i}-choices">Its menu choices (one per line)</label><textarea id="${f}-col-${i}-choices" name="col_choices" rows="3">${c.choices}</textarea></span>
<label class="check"><input type="checkbox" name="col_remove" value="${c.id}"${chk(c.remove)}> Remove</label>
</li>`,
      )}</ol></fieldset>
${area(`${f}-add-cols`, 'add_cols', 'Add columns', 'One per line; each starts with two menu choices to edit.', d.addCols)}`
    : ''
}
${
  shape === 'stars' || shape === 'nps'
    ? html`${d.rows.map((r) => html`<input type="hidden" name="row_id" value="${r.id}"><input type="hidden" name="row_text" value="${r.text}"><input type="hidden" name="row_order" value="${r.order}">`)}
${d.choices.map((c) => html`<input type="hidden" name="choice_id" value="${c.id}">`)}`
    : ''
}
${
  shape === 'stars'
    ? html`<label for="${f}-stars">Number of stars</label>
<select id="${f}-stars" name="stars">${[3, 4, 5, 6, 7, 8, 9, 10].map((n) => html`<option${sel(d.stars === String(n))}>${n}</option>`)}</select>`
    : ''
}
${
  shape === 'stars' || shape === 'nps' || shape === 'rating'
    ? html`<fieldset class="labels"><legend>Scale labels</legend>
${text(`${f}-left`, 'left_label', 'Low end', d.leftLabel)}
${text(`${f}-middle`, 'middle_label', 'Middle', d.middleLabel)}
${text(`${f}-right`, 'right_label', 'High end', d.rightLabel)}</fieldset>`
    : ''
}
${
  shape === 'demographic'
    ? html`<fieldset class="items"><legend>Fields to ask for</legend><ul class="demo">${DEMOGRAPHIC_TYPES.map(
        (
          t,
        ) => html`<li><label class="check"><input type="checkbox" name="demo_show" value="${t}"${chk(d.demoShow.includes(t))}> ${DEMO_LABELS[t]}</label>
<label class="check"><input type="checkbox" name="demo_required" value="${t}"${chk(d.demoRequired.includes(t))}> ${DEMO_LABELS[t]} is required</label></li>`,
      )}</ul>${d.rows.map((r) => html`<input type="hidden" name="row_id" value="${r.id}"><input type="hidden" name="row_text" value="${r.text}">`)}</fieldset>`
    : ''
}
${
  shape === 'choices'
    ? html`<fieldset class="options"><legend>Extra choices</legend>
<label class="check"><input type="checkbox" name="other" value="yes"${chk(d.other)}> Add an "Other" answer with a text box</label>
${text(`${f}-other-text`, 'other_text', '"Other" label', d.otherText || 'Other (please specify)')}
<label class="check"><input type="checkbox" name="na" value="yes"${chk(d.na)}> Add an "N/A" choice</label>
<input type="hidden" name="na_id" value="${d.naId}">
${text(`${f}-na-text`, 'na_text', '"N/A" label', d.naText || 'N/A')}
${logic ? html`<label for="${f}-na-logic">Then, after "N/A"</label>${ruleSelect(`${f}-na-logic`, 'na_logic', d.naLogic, logic.pages, logic.pageIndex, 'Continue (no rule)')}` : ''}</fieldset>`
    : shape === 'matrix' || shape === 'rating'
      ? html`<fieldset class="options"><legend>Comment box</legend>
<label class="check"><input type="checkbox" name="other" value="yes"${chk(d.other)}> Add a comment box</label>
${text(`${f}-other-text`, 'other_text', 'Comment box label', d.otherText || 'Other (please specify)')}</fieldset>`
      : ''
}
${
  SORTABLE.includes(shape)
    ? html`<label for="${f}-sorting">Order of choices for respondents</label>
<select id="${f}-sorting" name="sorting"><option value="">As listed</option>
<option value="random"${sel(d.sorting === 'random')}>Random for each respondent</option>
<option value="flip"${sel(d.sorting === 'flip')}>Flip (as listed or reversed)</option>
<option value="textasc"${sel(d.sorting === 'textasc')}>Alphabetical</option>
<option value="textdesc"${sel(d.sorting === 'textdesc')}>Reverse alphabetical</option></select>`
    : ''
}
${
  shape === 'presentation'
    ? ''
    : html`<fieldset class="options"><legend>Required</legend>
<label class="check"><input type="checkbox" name="required" value="yes"${chk(d.required)}> An answer is required</label>
${text(`${f}-required-text`, 'required_text', 'Message when it is missing', d.requiredText || 'This question requires an answer.')}</fieldset>`
}
${
  validations
    ? html`<fieldset class="options"><legend>${kind.display === 'slider' ? 'Slider range' : 'Validation'}</legend>
<label for="${f}-validation">Accept only</label>
<select id="${f}-validation" name="validation">${kind.display === 'slider' ? '' : html`<option value="">Anything</option>`}${validations.map(
        ([v, label]) => html`<option value="${v}"${sel(d.validation === v)}>${label}</option>`,
      )}</select>
<div class="row">
<span class="field">${text(`${f}-min`, 'min', 'Minimum (length, number or date)', d.min)}</span>
<span class="field">${text(`${f}-max`, 'max', 'Maximum', d.max)}</span></div>
${text(`${f}-validation-text`, 'validation_text', 'Message when it does not fit', d.validationText)}</fieldset>`
    : ''
}`;
}
