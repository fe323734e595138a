// The account page's notification settings (sections of GET /account): the time zone scheduled
// sends are shown and entered in (POST /account/time-zone), and the opt-out of every survey's
// response alerts (POST /account/alerts).
import type { Deps } from '../../context.js';
import { preferencesOf } from '../../domain/accounts/preferences.js';
import { alertsOptedOut } from '../../domain/alerts/alerts.js';
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
  const optedOut = await alertsOptedOut(deps, userId);
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
</section>
<section aria-labelledby="alerts-heading">
<h2 id="alerts-heading">Response alerts</h2>
<p>Each survey can email you on every response or once a day (its Response alerts page, reached from an email collector).</p>
<form method="post" action="/account/alerts">
${hidden(csrf)}
<div class="check"><input type="checkbox" id="alerts-off" name="opt_out" value="1"${optedOut ? html` checked` : ''}><label for="alerts-off">Send me no response alerts, whatever my surveys ask</label></div>
<div class="actions"><button type="submit">Save alerts</button></div>
</form>
</section>`;
}
