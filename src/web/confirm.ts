// Destructive actions ask first, with or without script. A destructive form is rendered with
// `destructiveForm`: with script, public/app.js shows a <dialog> naming what will be lost and sends
// the form with confirm=yes; without script the form arrives without it and the handler answers
// with `confirmationPage` (the same words and a button that posts again with confirm=yes).
// Handlers act only when `confirmed(body)`.
import type { FastifyReply } from 'fastify';
import type { Deps } from '../context.js';
import type { User } from '../domain/accounts/users.js';
import { sendPage, userPage } from './account/frame.js';
import { type Html, html } from './html.js';
import type { Section } from './layout.js';
import { csrfToken } from './session.js';

export interface Destruction {
  /** What is being deleted, e.g. `Delete the survey "Team lunch"?` */
  title: string;
  /** What will be lost, one item per line (counts included). */
  lost: string[];
  /** The label of the button that deletes. */
  button: string;
}

/** Whether the user has confirmed the destructive form (by the dialog or the confirmation page). */
export function confirmed(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'confirm' in body && body.confirm === 'yes';
}

function message(d: Destruction): string {
  return `${d.lost.join(' ')} This cannot be undone.`;
}

/**
 * A form that posts `fields` to `action` and asks for confirmation first. `label` is the visible
 * button text (e.g. "Delete"), `name` its accessible name when the label alone is ambiguous.
 */
export function destructiveForm(
  action: string,
  csrf: string,
  d: Destruction,
  options: { label?: string; name?: string; fields?: Record<string, string>; className?: string } = {},
): Html {
  return html`<form method="post" action="${action}" class="${options.className ?? 'inline'}" data-confirm="${message(d)}" data-confirm-title="${d.title}" data-confirm-button="${d.button}">
<input type="hidden" name="_csrf" value="${csrf}">
${Object.entries(options.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit" class="danger"${options.name ? html` aria-label="${options.name}"` : ''}>${options.label ?? d.button}</button>
</form>`;
}

/** The confirmation page's body for a destructive form that arrived without confirm=yes. */
export function confirmationPage(
  action: string,
  csrf: string,
  d: Destruction,
  cancelHref: string,
  fields: Record<string, string> = {},
): Html {
  return html`<h1>${d.title}</h1>
<div class="confirm" role="alert"><p><strong>This will permanently delete:</strong></p>
<ul>${d.lost.map((item) => html`<li>${item}</li>`)}</ul><p>This cannot be undone.</p></div>
<form method="post" action="${action}" class="actions">
<input type="hidden" name="_csrf" value="${csrf}">
<input type="hidden" name="confirm" value="yes">
${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit" class="danger">${d.button}</button>
<a class="button secondary" href="${cancelHref}">Cancel</a>
</form>`;
}

/**
 * Answers a destructive form that arrived without confirm=yes: the confirmation page in the
 * signed-in frame, whose button posts `fields` to `action` again, confirmed.
 */
export async function askFirst(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  form: { action: string; destruction: Destruction; cancelHref: string; fields?: Record<string, string> },
  options: { section?: Section; noindex?: boolean } = {},
): Promise<FastifyReply> {
  const body = confirmationPage(
    form.action,
    await csrfToken(deps, reply),
    form.destruction,
    form.cancelHref,
    form.fields,
  );
  const markup = await userPage(deps, reply, user, form.destruction.title, body, {
    section: options.section ?? 'surveys',
    narrow: true,
  });
  return sendPage(reply, markup, 200, { noindex: options.noindex });
}
