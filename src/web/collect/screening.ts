// A collector's screening settings on the collect page (domain/screening): the time a page must be
// shown, the responses one address may start in a window and the duplicate rule, kept through
// updateCollector as the API's `screening` option is.
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import { type Collector, requireCollector, updateCollector } from '../../domain/collectors/collectors.js';
import type { ScreeningOptions } from '../../domain/collectors/options.js';
import { screeningOf } from '../../domain/screening/screen.js';
import { ApiError } from '../../platform/errors.js';
import {
  errorFor,
  type FormErrorState,
  formText,
  hidden,
  invalidIf,
  type ManagedPage,
  managedFormPost,
} from '../forms.js';
import { type Html, html, raw } from '../html.js';
import type { PageApp } from '../page-area.js';

type State = FormErrorState & { notice?: string; form?: Record<string, string | undefined> };

const RULES: [ScreeningOptions['duplicates'], string][] = [
  ['none', 'No duplicate rule'],
  ['browser', 'One response per browser'],
  ['contact', 'One response per contact (email invitations)'],
  ['address', 'One response per internet address'],
];

/** The section: what the collector keeps aside, and for writers the form that changes it. */
export function screeningSection(
  deps: Deps,
  c: Collector,
  options: { at: string; label: string; csrf: string; writable: boolean; action: string; state: State },
): Html {
  const { state, label } = options;
  const at = `${options.at}-screen`;
  const s = screeningOf(c.options);
  const mine = state.errorAt === at ? state.form : undefined;
  const value = (name: string, current: number | null) =>
    mine?.[name] ?? (current === null ? '' : String(current));
  const seconds = deps.config.respondentMinPageMs / 1000;
  if (!options.writable)
    return html`<p class="muted">Screening: pages shown under ${s.min_page_seconds ?? seconds} s are flagged${s.max_per_address ? `; over ${s.max_per_address} responses per address in ${s.window_hours} h` : ''}; ${RULES.find(([r]) => r === s.duplicates)?.[1].toLowerCase()}.</p>`;
  return html`<details${mine ? raw(' open') : ''}><summary>Bots and duplicates of ${label}</summary>
<form method="post" action="${options.action}">${hidden(options.csrf)}
${errorFor(state, at)}
<p class="muted">Responses that look automated or duplicate are not refused: they are kept aside as flagged, out of the results, until you release them on the results' Flagged responses page.</p>
<label for="${at}-min">Least time on a page, in seconds</label>
<p class="muted" id="${at}-min-help">A page answered faster is flagged. Leave empty for the default, ${seconds} s.</p>
<input id="${at}-min" name="min_page_seconds" type="number" min="0" max="60" step="0.1" inputmode="decimal" value="${value('min_page_seconds', s.min_page_seconds)}" aria-describedby="${at}-min-help"${invalidIf(state, at)}>
<label for="${at}-max">Responses per internet address</label>
<p class="muted" id="${at}-max-help">Responses one address starts in the window below before the next are flagged. Leave empty for no limit.</p>
<input id="${at}-max" name="max_per_address" type="number" min="1" step="1" inputmode="numeric" value="${value('max_per_address', s.max_per_address)}" aria-describedby="${at}-max-help">
<label for="${at}-dup">Duplicates</label>
<select id="${at}-dup" name="duplicates">${RULES.map(([r, text]) => html`<option value="${r}"${(mine?.duplicates ?? s.duplicates) === r ? raw(' selected') : ''}>${text}</option>`)}</select>
<label for="${at}-window">Window, in hours</label>
<input id="${at}-window" name="window_hours" type="number" min="1" max="8760" step="1" inputmode="numeric" value="${value('window_hours', s.window_hours)}">
<p><button type="submit">Save bot and duplicate settings</button></p>
</form>
</details>`;
}

function numberOf(text: string | undefined, name: string, whole: boolean): number | null {
  const v = (text ?? '').trim();
  if (!v) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n)))
    throw new ApiError(1002, `${name} must be ${whole ? 'a whole number' : 'a number'}.`);
  return n;
}

/** The form's post: the collect page's own error and notice handling (managedFormPost). */
export function screeningRoutes(app: PageApp, deps: Deps, page: ManagedPage<State>): void {
  managedFormPost(app, deps, page, {
    path: '/collect/collectors/:collectorId/screening',
    params: Type.Object({ collectorId: Type.String({ pattern: '^[0-9]{1,20}$' }) }),
    body: {
      min_page_seconds: formText(20),
      max_per_address: formText(20),
      duplicates: formText(20),
      window_hours: formText(20),
    },
    failed: (request, error: ApiError) => ({
      error,
      errorAt: `c-${request.params.collectorId}-screen`,
      form: request.body,
    }),
    action: async (request, survey, actor) => {
      const { collectorId } = request.params;
      const { collector: c } = await requireCollector(
        deps,
        { user: actor.user },
        collectorId,
        'collect',
        'write',
      );
      if (c.survey_id !== survey.id) throw new ApiError(1020, 'Collector not found.');
      const b = request.body;
      const duplicates = RULES.find(([r]) => r === b.duplicates)?.[0];
      if (!duplicates) throw new ApiError(1002, 'Choose a duplicate rule from the list.');
      const screening = {
        min_page_seconds: numberOf(b.min_page_seconds, 'The least time on a page', false),
        max_per_address: numberOf(b.max_per_address, 'The responses per address', true),
        duplicates,
        window_hours: numberOf(b.window_hours, 'The window', true) ?? 24,
      };
      await updateCollector(deps, actor, c, { screening }, undefined, 'patch');
      return { done: 'screening', anchor: `c-${collectorId}` };
    },
  });
}
