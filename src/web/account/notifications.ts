// The account page's notification settings (a section of GET /account, posted to
// POST /account/time-zone): the time zone scheduled sends are shown and entered in.
import type { Deps } from '../../context.js';
import { preferencesOf } from '../../domain/accounts/preferences.js';
import { timeZoneNames } from '../../platform/time-zones.js';
import { errorFor, type FormErrorState, hidden, invalidIf } from '../forms.js';
import { type Html, html } from '../html.js';

export async function notificationSection(
  deps: Deps,
  userId: string,
  csrf: string,
  state: FormErrorState,
): Promise<Html> {
  const prefs = await preferencesOf(deps, userId);
  return html`<section aria-labelledby="zone-heading">
<h2 id="zone-heading">Time zone</h2>
${errorFor(state, 'zone')}
<form method="post" action="/account/time-zone">
${hidden(csrf)}
<label for="zone">Your time zone</label>
<p class="hint" id="zone-hint">Invitations are scheduled, and times shown, in this zone.</p>
<select id="zone" name="time_zone" aria-describedby="zone-hint"${invalidIf(state, 'zone')}>${timeZoneNames().map(
    (z) => html`<option${z === prefs.time_zone ? html` selected` : ''}>${z}</option>`,
  )}</select>
<div class="actions"><button type="submit">Save time zone</button></div>
</form>
</section>`;
}
