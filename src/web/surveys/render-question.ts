// Renders one question as a respondent sees it: accessible HTML form controls, one function per
// family. Used by the preview page and, later, by the real respondent page. Field names:
//   q_<qid>                      single choice (value = choice id), multiple choice (several),
//                                open_ended single/essay/slider/file_upload
//   q_<qid>_other                the "other" text box
//   q_<qid>_<rowid>              matrix rows (value = choice id), open_ended multi/numerical,
//                                demographic and datetime rows
//   q_<qid>_<rowid>_<colid>      matrix menu cells (value = choice id)
// `values` holds what was entered before (for redisplay) and `errors` a message per question.
import { isNpsQuestion } from '../../domain/surveys/nps.js';
import { type PipeRef, splitPipes } from '../../domain/surveys/piping.js';
import type { Choice, Col, Row, StoredQuestion } from '../../domain/surveys/question-schema.js';
import { choiceOrder } from '../../domain/surveys/randomise.js';
import { escapeHtml } from '../../platform/escape.js';
import { type Translate, translator } from '../../platform/i18n/index.js';
import { type Html, html, raw } from '../html.js';

export interface RenderableQuestion {
  id: string;
  family: string;
  subtype: string;
  doc: StoredQuestion;
}

export interface RenderOptions {
  /** Seeds the order of `sorting: random` questions (e.g. per respondent); without it the stored order is kept. */
  seed?: number;
  /** The question's number as shown (when display numbers are on). */
  number?: number;
  values?: Record<string, string | string[]>;
  error?: string;
  /** What file-upload questions accept (the respondent page: UPLOAD_TYPES and UPLOAD_MAX_BYTES). */
  upload?: { accept: string; maxBytes: number; maxText: string };
  /** Piping: the value of each recall in a heading, description or choice (the respondent page);
   * without it the text shows as stored. */
  recall?: (ref: PipeRef) => string;
  /** How many responses chose each choice (or matrix row) so far, by id, for `resp_count_*` sorting. */
  counts?: ReadonlyMap<string, number>;
  /** The service's own words in the page's language (the respondent page); English without it. */
  t?: Translate;
}

const english = translator('en');

/** "Uploaded: <file name>. …" in the page's language, the name in bold. */
function uploaded(name: string, t: Translate): Html {
  const [before, after = ''] = t('uploaded', { name: '\u0000' }).split('\u0000');
  return html`${before}<strong>${name}</strong>${after}`;
}
const say = (o: RenderOptions): Translate => o.t ?? english;

const SIMPLE_TAG = /&lt;(\/?)(b|i|em|strong|u|br|p|span)\s*\/?&gt;/gi;

/**
 * Headings may carry simple markup (<b>, <br>...): kept without attributes, everything else escaped.
 * With `recall`, each piping recall is replaced by its value, escaped as text (never markup).
 */
export function richText(text: string, recall?: (ref: PipeRef) => string): Html {
  const markup = (t: string) =>
    escapeHtml(t).replace(SIMPLE_TAG, (_m, slash: string, tag: string) => `<${slash}${tag.toLowerCase()}>`);
  if (!recall) return raw(markup(text));
  return raw(
    splitPipes(text)
      .map((p) => (typeof p === 'string' ? markup(p) : escapeHtml(recall(p))))
      .join(''),
  );
}

/** A plain text (a menu's option, a heading in the error summary) with its recalls replaced. */
export function recalledText(text: string, recall: RenderOptions['recall']): string {
  if (!recall) return text;
  return splitPipes(text)
    .map((p) => (typeof p === 'string' ? p : recall(p)))
    .join('');
}

function entered(o: RenderOptions, name: string): string[] {
  const v = o.values?.[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

const visible = <T extends { visible: boolean }>(items: readonly T[] | undefined): T[] =>
  (items ?? []).filter((x) => x.visible);

/** Applies the question's `sorting` to its choices (or matrix rows): domain/surveys/randomise.ts. */
const sortedOptions = <T extends { id?: string; text: string }>(
  q: RenderableQuestion,
  items: T[],
  o: RenderOptions,
) => choiceOrder(items, q.doc.sorting, o.seed, q.id, o.counts);

function frame(q: RenderableQuestion, o: RenderOptions, body: Html | Html[], asGroup = true): Html {
  const h = q.doc.headings[0] ?? { heading: '' };
  const showNumber = q.doc.display_options?.show_display_number !== false && o.number !== undefined;
  // A fieldset (role group) takes no aria-required: the legend says it in words for screen readers.
  const required = q.doc.required
    ? html`<span class="required" aria-hidden="true"> *</span><span class="visually-hidden"> ${say(o)('required_mark')}</span>`
    : '';
  const id = `q${q.id}`;
  const title = html`${showNumber ? html`<span class="qnum">${o.number}.</span> ` : ''}${richText(h.heading, o.recall)}${required}`;
  const description = h.description
    ? html`<p class="qdesc" id="${id}-desc">${richText(h.description, o.recall)}</p>`
    : '';
  const image = h.image?.url ? html`<img class="qimg" src="${h.image.url}" alt="">` : '';
  const error = o.error ? html`<p class="error" id="${id}-err" role="alert">${o.error}</p>` : '';
  const describedBy = [h.description ? `${id}-desc` : '', o.error ? `${id}-err` : '']
    .filter(Boolean)
    .join(' ');
  if (!asGroup)
    return html`<div class="question" id="${id}" data-family="${q.family}" data-subtype="${q.subtype}"><div class="qtitle" id="${id}-title">${title}</div>${description}${image}${error}${body}</div>`;
  return html`<fieldset class="question" id="${id}" data-family="${q.family}" data-subtype="${q.subtype}"${describedBy ? raw(` aria-describedby="${describedBy}"`) : ''}><legend class="qtitle">${title}</legend>${description}${image}${error}${body}</fieldset>`;
}

function otherBox(
  q: RenderableQuestion,
  o: RenderOptions,
  asChoice: { type: 'radio' | 'checkbox'; name: string } | null,
): Html {
  const other = q.doc.answers?.other;
  if (!other?.visible) return html``;
  const name = `q_${q.id}_other`;
  // As an answer choice the box has no <label> of its own (the choice's label names the checkbox).
  const named = asChoice && other.is_answer_choice ? html` aria-label="${say(o)('specify')}"` : '';
  const box =
    other.num_lines > 1
      ? html`<textarea id="${name}" name="${name}" rows="${other.num_lines}" cols="${other.num_chars}"${named}>${entered(o, name)[0] ?? ''}</textarea>`
      : html`<input type="text" id="${name}" name="${name}" size="${Math.min(other.num_chars, 60)}" value="${entered(o, name)[0] ?? ''}"${named}>`;
  if (asChoice && other.is_answer_choice) {
    const checked = entered(o, asChoice.name).includes(other.id);
    return html`<div class="choice other"><input type="${asChoice.type}" id="c${other.id}" name="${asChoice.name}" value="${other.id}"${checked ? raw(' checked') : ''}><label for="c${other.id}">${other.text}</label> ${box}</div>`;
  }
  return html`<div class="other"><label for="${name}">${other.text}</label>${box}</div>`;
}

function choiceLabel(c: Choice, o: RenderOptions): Html {
  if (c.image?.url)
    return html`<img src="${c.image.url}" alt="${recalledText(c.text, o.recall) || say(o)('image_choice')}" class="choice-img">${c.text ? html`<span>${recalledText(c.text, o.recall)}</span>` : ''}`;
  return richText(c.text, o.recall);
}

export function renderSingleChoice(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const name = `q_${q.id}`;
  const choices = sortedOptions(q, visible(q.doc.answers?.choices), o);
  const chosen = entered(o, name);
  if (q.subtype === 'menu') {
    const other = q.doc.answers?.other;
    const options = html`<option value="">${say(o)('select')}</option>${choices.map(
      (c) =>
        html`<option value="${c.id}"${chosen.includes(c.id) ? raw(' selected') : ''}>${recalledText(c.text, o.recall)}</option>`,
    )}${other?.visible && other.is_answer_choice ? html`<option value="${other.id}"${chosen.includes(other.id) ? raw(' selected') : ''}>${other.text}</option>` : ''}`;
    const select = html`<select id="${name}" name="${name}" aria-labelledby="q${q.id}-title">${options}</select>`;
    const otherText = other?.visible
      ? html`<div class="other"><label for="${name}_other">${other.is_answer_choice ? say(o)('specify') : other.text}</label><input type="text" id="${name}_other" name="${name}_other" value="${entered(o, `${name}_other`)[0] ?? ''}"></div>`
      : '';
    return frame(q, o, html`${select}${otherText}`, false);
  }
  const layout =
    q.subtype === 'horiz'
      ? 'horiz'
      : q.subtype.startsWith('vertical_')
        ? q.subtype.replace('vertical_', 'cols-')
        : 'vertical';
  const items = choices.map(
    (c) =>
      html`<div class="choice"><input type="radio" id="c${c.id}" name="${name}" value="${c.id}"${chosen.includes(c.id) ? raw(' checked') : ''}><label for="c${c.id}">${choiceLabel(c, o)}</label></div>`,
  );
  return frame(
    q,
    o,
    html`<div class="choices ${layout}">${items}${otherBox(q, o, { type: 'radio', name })}</div>`,
  );
}

export function renderMultipleChoice(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const name = `q_${q.id}`;
  const chosen = entered(o, name);
  const layout =
    q.subtype === 'horiz'
      ? 'horiz'
      : q.subtype.startsWith('vertical_')
        ? q.subtype.replace('vertical_', 'cols-')
        : 'vertical';
  const items = sortedOptions(q, visible(q.doc.answers?.choices), o).map(
    (c) =>
      html`<div class="choice"><input type="checkbox" id="c${c.id}" name="${name}" value="${c.id}"${chosen.includes(c.id) ? raw(' checked') : ''}><label for="c${c.id}">${choiceLabel(c, o)}</label></div>`,
  );
  return frame(
    q,
    o,
    html`<div class="choices ${layout}">${items}${otherBox(q, o, { type: 'checkbox', name })}</div>`,
  );
}

/** The phone keyboard a textbox's validation calls for: its input type and extra attributes. */
const KEYBOARDS: Record<string, [string, string]> = {
  email: ['email', ' inputmode="email" autocomplete="email"'],
  integer: ['text', ' inputmode="numeric"'],
  decimal: ['text', ' inputmode="decimal"'],
};

/** A wide table scrolls sideways inside its own box on a narrow screen, never the page. */
function scrollBox(table: Html): Html {
  return html`<div class="matrix-scroll" role="group" tabindex="0" aria-label="Answer grid (scrolls sideways on narrow screens)">${table}</div>`;
}

function starLabel(weight: number, kind: string, t: Translate): string {
  const noun = kind === 'heart' || kind === 'thumb' || kind === 'smiley' ? kind : 'star';
  return weight === 1 ? t(`${noun}_one`) : t(`${noun}_many`, { count: weight });
}

// Star/emoji ratings and the 0–10 scale are radio buttons styled by app.css ("Question widgets"):
// each radio stays in the page (visually hidden, focusable, arrow keys move between them) and its
// label is the 44 px target; without the stylesheet they read as labelled radios.
const SYMBOL_PATHS: Record<string, string> = {
  star: 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z',
  heart:
    'M12 20.5l-1.3-1.2C5.6 14.7 2.5 11.9 2.5 8.4 2.5 5.6 4.7 3.5 7.4 3.5c1.8 0 3.5.8 4.6 2.1 1.1-1.3 2.8-2.1 4.6-2.1 2.7 0 4.9 2.1 4.9 4.9 0 3.5-3.1 6.3-8.2 10.9z',
  smiley:
    'M12 2.5a9.5 9.5 0 1 0 0 19 9.5 9.5 0 0 0 0-19zm-3.2 6.2a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6zm6.4 0a1.3 1.3 0 1 1 0 2.6 1.3 1.3 0 0 1 0-2.6zM7.5 13.5h9a4.5 4.5 0 0 1-9 0z',
  thumb:
    'M2.5 10h4v10.5h-4zm6 10.5V10l4.5-7.5c1.4 0 2.3 1.2 2 2.5L14 9.5h5.6c1.2 0 2.1 1.1 1.9 2.3l-1.3 6.8c-.2 1.1-1.1 1.9-2.2 1.9z',
};

function renderSymbols(q: RenderableQuestion, o: RenderOptions, row: Row | undefined): Html {
  const display = q.doc.display_options;
  const kind =
    display?.display_subtype && SYMBOL_PATHS[display.display_subtype] ? display.display_subtype : 'star';
  const name = `q_${q.id}_${row?.id ?? ''}`;
  const chosen = entered(o, name);
  // The survey's colour is the SVG's color attribute (the page policy allows no style attribute);
  // the stylesheet strokes and fills with currentColor.
  const color = display?.custom_options?.color;
  const items = visible(q.doc.answers?.choices).map((c) => {
    const id = `c${q.id}_${c.id}`;
    const label = starLabel(c.weight ?? c.position, kind, say(o));
    return html`<span class="star"><input type="radio" class="visually-hidden" id="${id}" name="${name}" value="${c.id}"${chosen.includes(c.id) ? raw(' checked') : ''}><label for="${id}"><svg aria-hidden="true" focusable="false" viewBox="0 0 24 24"${color ? html` color="${color}"` : ''}><path d="${SYMBOL_PATHS[kind]}"></path></svg><span class="visually-hidden">${label}</span></label></span>`;
  });
  return frame(q, o, html`<div class="stars ${kind}">${items}</div>`);
}

function renderNps(q: RenderableQuestion, o: RenderOptions, row: Row | undefined): Html {
  const display = q.doc.display_options;
  const name = `q_${q.id}_${row?.id ?? ''}`;
  const chosen = entered(o, name);
  const choices = visible(q.doc.answers?.choices).sort((a, b) => (a.weight ?? 0) - (b.weight ?? 0));
  const left = display?.left_label ?? '';
  const right = display?.right_label ?? '';
  const items = choices.map((c) => {
    const id = `c${q.id}_${c.id}`;
    const end = c.weight === 0 ? left : c.weight === 10 ? right : '';
    return html`<span class="nps-option"><input type="radio" class="visually-hidden" id="${id}" name="${name}" value="${c.id}"${chosen.includes(c.id) ? raw(' checked') : ''}><label for="${id}">${c.text || String(c.weight)}${end ? html`<span class="visually-hidden"> (${end})</span>` : ''}</label></span>`;
  });
  const ends =
    left || right
      ? html`<div class="nps-ends" aria-hidden="true"><span>${left}</span><span>${right}</span></div>`
      : '';
  return frame(q, o, html`<div class="nps">${items}</div>${ends}`);
}

export function renderMatrix(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const a = q.doc.answers ?? {};
  const rows = sortedOptions(q, visible(a.rows), o);
  const choices = visible(a.choices);
  const display = q.doc.display_options;
  if (display?.display_type === 'emoji') return renderSymbols(q, o, rows[0]);
  if (isNpsQuestion(q)) return renderNps(q, o, rows[0]);
  const multi = q.subtype === 'multi';
  if (q.subtype === 'menu') {
    const cols = visible(a.cols) as Col[];
    const head = html`<tr><td></td>${cols.map((c) => html`<th scope="col" id="h${c.id}">${c.text}</th>`)}</tr>`;
    const body = rows.map(
      (r) =>
        html`<tr><th scope="row" id="h${r.id}">${richText(r.text)}</th>${cols.map((c) => {
          const name = `q_${q.id}_${r.id}_${c.id}`;
          const chosen = entered(o, name);
          return html`<td><select name="${name}" aria-labelledby="h${r.id} h${c.id}"><option value="">${say(o)('select')}</option>${visible(
            c.choices,
          ).map(
            (x) =>
              html`<option value="${x.id}"${chosen.includes(x.id) ? raw(' selected') : ''}>${x.text}</option>`,
          )}</select></td>`;
        })}</tr>`,
    );
    return frame(
      q,
      o,
      html`${scrollBox(html`<table class="matrix"><thead>${head}</thead><tbody>${body}</tbody></table>`)}${otherBox(q, o, null)}`,
    );
  }
  // Ranking: a rank (1..n) per row.
  if (q.subtype === 'ranking') {
    const body = rows.map((r) => {
      const name = `q_${q.id}_${r.id}`;
      const chosen = entered(o, name);
      return html`<div class="rank"><select id="${name}" name="${name}"><option value="">${say(o)('rank')}</option>${choices.map(
        (c) =>
          html`<option value="${c.id}"${chosen.includes(c.id) ? raw(' selected') : ''}>${c.text}</option>`,
      )}</select> <label for="${name}">${richText(r.text)}</label></div>`;
    });
    return frame(q, o, html`<div class="ranking">${body}</div>${otherBox(q, o, null)}`);
  }
  const scaleLabels =
    display?.left_label || display?.right_label
      ? html`<div class="scale-labels"><span>${display.left_label ?? ''}</span><span>${display.middle_label ?? ''}</span><span>${display.right_label ?? ''}</span></div>`
      : '';
  const head = html`<tr><td></td>${choices.map((c) => html`<th scope="col" id="h${q.id}_${c.id}">${richText(c.text)}</th>`)}</tr>`;
  const body = rows.map((r: Row) => {
    const name = `q_${q.id}_${r.id}`;
    const chosen = entered(o, name);
    const rowLabel = r.text || q.doc.headings[0]?.heading || '';
    return html`<tr><th scope="row" id="h${q.id}_${r.id}">${richText(r.text)}</th>${choices.map(
      (c) =>
        html`<td><label class="cell"><input type="${multi ? 'checkbox' : 'radio'}" name="${name}" value="${c.id}" id="c${r.id}_${c.id}"${chosen.includes(c.id) ? raw(' checked') : ''} aria-label="${rowLabel}: ${c.text || String(c.weight ?? c.position)}"><span class="cell-text" aria-hidden="true">${richText(c.text || String(c.weight ?? c.position))}</span></label></td>`,
    )}</tr>`;
  });
  // `stack`: on a phone each row becomes a list of its choices, named beside each button (app.css).
  return frame(
    q,
    o,
    html`${scaleLabels}${scrollBox(html`<table class="matrix stack"><thead>${head}</thead><tbody>${body}</tbody></table>`)}${otherBox(q, o, null)}`,
  );
}

export function renderOpenEnded(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const name = `q_${q.id}`;
  const value = entered(o, name)[0] ?? '';
  const display = q.doc.display_options;
  if (display?.display_type === 'slider') {
    const min = Number(q.doc.validation?.min ?? 0);
    const max = Number(q.doc.validation?.max ?? 100);
    const step = display.custom_options?.step_size ?? 1;
    const start = value || String(display.custom_options?.starting_position ?? Math.round((min + max) / 2));
    return frame(
      q,
      o,
      html`<div class="slider"><span>${display.left_label ?? ''}</span><input type="range" id="${name}" name="${name}" min="${min}" max="${max}" step="${step}" value="${start}" aria-labelledby="q${q.id}-title"><span>${display.right_label ?? ''}</span></div>`,
      false,
    );
  }
  if (display?.display_type === 'file_upload') {
    // `value` is the name of the file already uploaded (coming back to the page): kept unless
    // another is chosen.
    const up = o.upload ?? { accept: '.pdf,.png,.jpg,.jpeg,.gif', maxBytes: 0, maxText: '' };
    const described = [`${name}-hint`, o.error ? `q${q.id}-err` : ''].filter(Boolean).join(' ');
    return frame(
      q,
      o,
      html`${value ? html`<p class="upload-current" id="${name}-current">${uploaded(value, say(o))}</p>` : ''}<input type="file" id="${name}" name="${name}" aria-labelledby="q${q.id}-title" aria-describedby="${described}" accept="${up.accept}"${up.maxBytes ? html` data-max-bytes="${up.maxBytes}" data-too-big="${say(o)('file_too_big', { size: up.maxText })}"` : ''}${o.error ? raw(' aria-invalid="true"') : ''}>
<p class="hint muted" id="${name}-hint">${say(o)('file_types', { types: up.accept.replaceAll(',', ', ') })}${up.maxText ? ` ${say(o)('file_at_most', { size: up.maxText })}` : ''}</p>`,
      false,
    );
  }
  if (q.subtype === 'essay')
    return frame(
      q,
      o,
      html`<textarea id="${name}" name="${name}" rows="5" aria-labelledby="q${q.id}-title">${value}</textarea>`,
      false,
    );
  if (q.subtype === 'single')
    return frame(
      q,
      o,
      html`<input type="${KEYBOARDS[q.doc.validation?.type ?? '']?.[0] ?? 'text'}" id="${name}" name="${name}" value="${value}" aria-labelledby="q${q.id}-title"${raw(KEYBOARDS[q.doc.validation?.type ?? '']?.[1] ?? '')}>`,
      false,
    );
  const numeric = q.subtype === 'numerical';
  const rows = visible(q.doc.answers?.rows).map((r) => {
    const rn = `q_${q.id}_${r.id}`;
    return html`<div class="row"><label for="${rn}">${richText(r.text)}</label><input type="${numeric ? 'number' : 'text'}" id="${rn}" name="${rn}" value="${entered(o, rn)[0] ?? ''}"${numeric ? raw(' inputmode="decimal" step="any"') : ''}></div>`;
  });
  return frame(q, o, html`<div class="rows">${rows}</div>`);
}

const AUTOCOMPLETE: Record<string, string> = {
  name: 'name',
  company: 'organization',
  address: 'address-line1',
  address2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  zip: 'postal-code',
  country: 'country-name',
  email: 'email',
  phone: 'tel',
};

export function renderDemographic(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const rows = visible(q.doc.answers?.rows).map((r) => {
    const rn = `q_${q.id}_${r.id}`;
    const type = r.type === 'email' ? 'email' : r.type === 'phone' ? 'tel' : 'text';
    return html`<div class="row"><label for="${rn}">${r.text}${r.required ? html`<span class="required" aria-hidden="true"> *</span>` : ''}</label><input type="${type}" id="${rn}" name="${rn}" autocomplete="${AUTOCOMPLETE[r.type ?? ''] ?? 'on'}" value="${entered(o, rn)[0] ?? ''}"${r.required ? raw(' required aria-required="true"') : ''}></div>`;
  });
  return frame(q, o, html`<div class="rows">${rows}</div>`);
}

export function renderDatetime(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const rows = visible(q.doc.answers?.rows).map((r) => {
    const rn = `q_${q.id}_${r.id}`;
    const label = r.text || say(o)('answer');
    const date =
      q.subtype !== 'time_only'
        ? html`<label for="${rn}_date">${label} (date)</label><input type="date" id="${rn}_date" name="${rn}_date" value="${entered(o, `${rn}_date`)[0] ?? ''}">`
        : '';
    const time =
      q.subtype !== 'date_only'
        ? html`<label for="${rn}_time">${label} (time)</label><input type="time" id="${rn}_time" name="${rn}_time" value="${entered(o, `${rn}_time`)[0] ?? ''}">`
        : '';
    return html`<div class="row">${date}${time}</div>`;
  });
  return frame(q, o, html`<div class="rows">${rows}</div>`);
}

export function renderPresentation(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const h = q.doc.headings[0] ?? { heading: '' };
  if (q.subtype === 'image')
    return html`<figure class="question presentation" id="q${q.id}" data-family="presentation"><img src="${h.image?.url ?? ''}" alt="${h.heading}">${h.heading ? html`<figcaption>${richText(h.heading, o.recall)}</figcaption>` : ''}</figure>`;
  return html`<div class="question presentation" id="q${q.id}" data-family="presentation">${richText(h.heading, o.recall)}${h.description ? html`<p>${richText(h.description, o.recall)}</p>` : ''}</div>`;
}

const RENDERERS: Record<string, (q: RenderableQuestion, o?: RenderOptions) => Html> = {
  single_choice: renderSingleChoice,
  multiple_choice: renderMultipleChoice,
  matrix: renderMatrix,
  open_ended: renderOpenEnded,
  demographic: renderDemographic,
  datetime: renderDatetime,
  presentation: renderPresentation,
};

/** Any question, by its family. Presentation blocks take no number. */
export function renderQuestion(q: RenderableQuestion, o: RenderOptions = {}): Html {
  const render = RENDERERS[q.family];
  return render ? render(q, o) : html``;
}
