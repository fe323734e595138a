// The builder's quiz switch: the survey's `quiz_options` as a form (on/off, what respondents see
// at the end, the messages by score range, the default feedback per question), read back into the
// same object PATCH /v3/surveys/{id} takes. With the switch on, each choice's edit form has a score
// field (question-view.ts). The rules (ranges inclusive, not overlapping) are the domain's
// (checkSettings); this file only words its field paths for the owner.
import type { QuizOptions } from '../../domain/surveys/blueprint.js';
import { ApiError } from '../../platform/errors.js';
import { formText, hidden } from '../forms.js';
import { type Html, html, raw } from '../html.js';

export const QUIZ_FORM = {
  is_quiz_mode: formText(10),
  show_results_type: formText(50),
  ranges_type: formText(50),
  ranges: formText(300_000),
  correct_text: formText(100_000),
  incorrect_text: formText(100_000),
  partial_text: formText(100_000),
};
type QuizForm = { [K in keyof typeof QUIZ_FORM]?: string };

const SHOW: Array<[QuizOptions['show_results_type'], string]> = [
  ['disabled', 'Nothing (only the thank-you page)'],
  ['results_only', 'Their score and its message'],
  ['results_and_answers', 'Score, message and right answers'],
];
const RANGES: Array<[QuizOptions['feedback']['ranges_type'], string]> = [
  ['disabled', 'No message by score'],
  ['percentage', 'By percentage of the points (0–100)'],
  ['points', 'By points'],
];

const DEFAULTS: QuizOptions = {
  is_quiz_mode: false,
  show_results_type: 'results_only',
  feedback: { ranges_type: 'disabled', ranges: [] },
};

/** Ranges typed one a line, "min-max: message" (e.g. "0-49: Keep practising"). */
function rangesOf(text: string): QuizOptions['feedback']['ranges'] {
  return text
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean)
    .map((line, i) => {
      const m = /^(\d{1,9})\s*[-–]\s*(\d{1,9})\s*:\s*(.*)$/.exec(line);
      if (!m)
        throw new ApiError(
          1002,
          `Score range ${i + 1} ("${line}") should read like "0-49: Keep practising": two whole numbers, a colon, the message.`,
        );
      return { min: Number(m[1]), max: Number(m[2]), message: m[3]!.trim() };
    });
}

/** The form read into `quiz_options`, keeping what the form does not show from the current ones. */
export function quizFromForm(form: QuizForm, current: QuizOptions | null | undefined): QuizOptions {
  const base = current ?? DEFAULTS;
  const show = SHOW.find(([v]) => v === form.show_results_type)?.[0] ?? base.show_results_type;
  const rangesType = RANGES.find(([v]) => v === form.ranges_type)?.[0] ?? base.feedback.ranges_type;
  const texts = [form.correct_text, form.incorrect_text, form.partial_text].map((x) => (x ?? '').trim());
  const out: QuizOptions = {
    is_quiz_mode: form.is_quiz_mode === 'yes',
    show_results_type: show,
    feedback: { ranges_type: rangesType, ranges: rangesOf(form.ranges ?? '') },
  };
  if (texts.some(Boolean))
    out.default_question_feedback = {
      correct_text: texts[0]!,
      incorrect_text: texts[1]!,
      partial_text: texts[2]!,
    };
  return out;
}

/** A domain or schema message about `quiz_options` in the form's words ("Score range 2"). */
export function quizWords(message: string): string {
  return message
    .replace(/'?quiz_options\.feedback\.ranges\.(\d+)'?/g, (_, i) => `Score range ${Number(i) + 1}`)
    .replace(
      /\/quiz_options\/feedback\/ranges\/(\d+)\/message/g,
      (_, i) => `The message of score range ${Number(i) + 1}`,
    )
    .replace(/\/quiz_options\/default_question_feedback\/\w+/g, 'A default feedback text')
    .replace(/\/quiz_options\S*/g, 'A quiz setting');
}

const option = (value: string, label: string, selected: string) =>
  html`<option value="${value}"${value === selected ? raw(' selected') : ''}>${label}</option>`;

export function quizForm(o: {
  action: string;
  csrf: string;
  options: QuizOptions | null | undefined;
  /** The error beside the form (focused), when this form's last post was refused. */
  error: Html;
  invalid: Html;
  open: boolean;
}): Html {
  const q = o.options ?? DEFAULTS;
  const fb = q.default_question_feedback;
  const ranges = q.feedback.ranges.map((r) => `${r.min}-${r.max}: ${r.message}`).join('\n');
  return html`<details id="quiz" class="card survey-settings"${o.open ? raw(' open') : ''}><summary>Quiz mode${q.is_quiz_mode ? html` <span class="badge accent">On</span>` : ''}</summary>
<form method="post" action="${o.action}">${hidden(o.csrf)}
${o.error}
<label class="check"><input type="checkbox" name="is_quiz_mode" value="yes"${q.is_quiz_mode ? raw(' checked') : ''}${o.invalid}> Score this survey as a quiz</label>
<p class="hint">When it is on, each choice of a question gets a score field in its edit form; a response's score is the sum of the choices picked.</p>
<label for="quiz-show">At the end, respondents see</label>
<select id="quiz-show" name="show_results_type">${SHOW.map(([v, l]) => option(v, l, q.show_results_type))}</select>
<label for="quiz-ranges-type">Message by score</label>
<select id="quiz-ranges-type" name="ranges_type">${RANGES.map(([v, l]) => option(v, l, q.feedback.ranges_type))}</select>
<label for="quiz-ranges">Score ranges</label>
<p class="hint" id="quiz-ranges-help">One a line: from-to (inclusive, not overlapping), a colon and the message, e.g. <code>0-49: Keep practising</code>.</p>
<textarea id="quiz-ranges" name="ranges" rows="3" aria-describedby="quiz-ranges-help">${ranges}</textarea>
<fieldset><legend>Default feedback on each scored question (optional)</legend>
<label for="quiz-correct">When correct</label><input id="quiz-correct" name="correct_text" type="text" maxlength="2000" value="${fb?.correct_text ?? ''}">
<label for="quiz-incorrect">When incorrect</label><input id="quiz-incorrect" name="incorrect_text" type="text" maxlength="2000" value="${fb?.incorrect_text ?? ''}">
<label for="quiz-partial">When partly correct</label><input id="quiz-partial" name="partial_text" type="text" maxlength="2000" value="${fb?.partial_text ?? ''}">
</fieldset>
<div class="actions"><button type="submit">Save quiz settings</button></div>
</form></details>`;
}
