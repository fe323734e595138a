// A collector's "after the last page" settings on the collect page: the thank-you page
// (`thank_you_page`), what follows it (`redirect_type` url/close/loop with `redirect_url`), several
// responses from one browser (`allow_multiple_responses`, which a loop needs) and the message a
// disqualified respondent sees. The form becomes a PATCH body checked against the API's schema and
// saved by the same domain function as PATCH /v3/collectors/{id}; only what changed is sent, so an
// unchanged paid-plan option does not refuse a basic account's other change.
import Value from 'typebox/value';
import { CollectorUpdateBody } from '../../api/v3/collectors/schemas.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import type { CollectorInput } from '../../domain/collectors/options.js';
import { ApiError } from '../../platform/errors.js';
import { formText, hidden } from '../forms.js';
import { type Html, html, raw } from '../html.js';

/** The form's fields (besides `_csrf`). */
export const FINISH_FORM = {
  thank_you_enabled: formText(10),
  thank_you_message: formText(100_000),
  after: formText(20),
  redirect_url: formText(100_000),
  allow_multiple: formText(10),
  disqualification_message: formText(100_000),
};
type FinishForm = { [K in keyof typeof FINISH_FORM]?: string };

/** What respondents see after the last page, by the choice's value: [label, redirect_type]. */
const AFTER: Record<string, [string, 'url' | 'close' | 'loop']> = {
  thanks: ['Show the thank-you page', 'url'],
  url: ['Send them to a web address', 'url'],
  close: ['Show the thank-you page and tell them they may close the window', 'close'],
  loop: ['Start a new response at once (for a kiosk; needs several responses from one browser)', 'loop'],
};

const WORDS: Record<string, string> = {
  thank_you_message: 'the thank-you message',
  'thank_you_page.message': 'the thank-you message',
  disqualification_message: 'the disqualification message',
  redirect_url: 'a web address to send respondents to',
};

/** The PATCH body of what the form changed (empty when nothing did). */
export function finishInput(c: Collector, form: FinishForm): CollectorInput {
  const o = c.options;
  const after = form.after && form.after in AFTER ? form.after : 'thanks';
  const url = (form.redirect_url ?? '').trim();
  if (after === 'url' && !url) throw new ApiError(1002, 'Write the web address to send respondents to.');
  const redirectUrl = after === 'url' ? url : null;
  const redirectType = AFTER[after][1];
  const enabled = form.thank_you_enabled === 'yes';
  const message = (form.thank_you_message ?? '').trim();
  const disqualification = (form.disqualification_message ?? '').trim();
  const multiple = form.allow_multiple === 'yes';
  if (after === 'loop' && !multiple)
    throw new ApiError(
      1002,
      'Starting a new response at once needs "Allow several responses from one browser": check it too.',
    );
  const input: CollectorInput = {};
  if (enabled !== o.thank_you_page.is_enabled) input.thank_you_page = { is_enabled: enabled };
  if (message && message !== o.thank_you_page.message)
    input.thank_you_page = { ...input.thank_you_page, message };
  if (enabled && !message) throw new ApiError(1002, 'Write the thank-you message, or uncheck it.');
  if (redirectType !== o.redirect_type) input.redirect_type = redirectType;
  if (redirectUrl !== o.redirect_url) input.redirect_url = redirectUrl;
  if (multiple !== o.allow_multiple_responses) input.allow_multiple_responses = multiple;
  if (disqualification && disqualification !== o.disqualification_message)
    input.disqualification_message = disqualification;
  const [error] = [...Value.Errors(CollectorUpdateBody, input)];
  if (error) {
    const field = error.instancePath.split('/').filter(Boolean).join('.');
    throw new ApiError(
      1002,
      `${WORDS[field] ?? 'A setting'} ${error.message}.`.replace(/^./, (x) => x.toUpperCase()),
    );
  }
  return input;
}

/** The domain's paid-plan refusal (1015) names API fields: say them in the form's words. */
export function inFormWords(err: ApiError): ApiError {
  if (err.code !== 1015) return err;
  const named = [
    ...new Set(
      Object.keys(WORDS)
        .filter((k) => err.message.includes(k))
        .map((k) => WORDS[k]),
    ),
  ];
  if (named.length === 0) return err;
  return new ApiError(1015, `Your plan does not include changing ${named.join(' or ')}.`);
}

/** The form, inside a <details> (open when its error is shown); `mine` is what a failed post sent. */
export function finishForm(
  c: Collector,
  at: string,
  action: string,
  csrf: string,
  label: string,
  error: Html,
  mine: FinishForm | undefined,
): Html {
  const o = c.options;
  const after =
    mine?.after ?? (o.redirect_type === 'url' ? (o.redirect_url ? 'url' : 'thanks') : o.redirect_type);
  const enabled = mine ? mine.thank_you_enabled === 'yes' : o.thank_you_page.is_enabled;
  const multiple = mine ? mine.allow_multiple === 'yes' : o.allow_multiple_responses;
  const chk = (on: boolean) => (on ? raw(' checked') : '');
  const f = `${at}-end`;
  return html`<details class="collector-end"${mine ? raw(' open') : ''}><summary>After the last page of ${label}</summary>
<form method="post" action="${action}" id="${f}">${hidden(csrf)}
${error}
<fieldset><legend>Thank-you page</legend>
<div class="check"><input type="checkbox" id="${f}-ty" name="thank_you_enabled" value="yes"${chk(enabled)}><label for="${f}-ty">Show my own thank-you message</label></div>
<label for="${f}-ty-message">Thank-you message</label>
<textarea id="${f}-ty-message" name="thank_you_message" rows="2" maxlength="5000">${mine?.thank_you_message ?? o.thank_you_page.message}</textarea>
</fieldset>
<fieldset><legend>Then</legend>
${Object.entries(AFTER).map(
  ([v, [text]]) =>
    html`<div class="check"><input type="radio" id="${f}-after-${v}" name="after" value="${v}"${chk(after === v)}><label for="${f}-after-${v}">${text}</label></div>`,
)}
<label for="${f}-url">Web address (for "Send them to a web address")</label>
<input id="${f}-url" name="redirect_url" type="url" maxlength="2000" value="${mine?.redirect_url ?? o.redirect_url ?? ''}">
<div class="check"><input type="checkbox" id="${f}-multiple" name="allow_multiple" value="yes"${chk(multiple)}><label for="${f}-multiple">Allow several responses from one browser</label></div>
</fieldset>
<label for="${f}-dq">Message for a disqualified respondent</label>
<p class="muted" id="${f}-dq-help">Shown when a skip-logic rule disqualifies the respondent.</p>
<textarea id="${f}-dq" name="disqualification_message" rows="2" maxlength="5000" aria-describedby="${f}-dq-help">${mine?.disqualification_message ?? o.disqualification_message}</textarea>
<p><button type="submit">Save what follows the last page</button></p>
</form>
</details>`;
}
