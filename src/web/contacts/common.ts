// Shared pieces of the Contacts pages: the signed-in frame with the section's navigation, the
// signed-in actor, and the contact form's fields.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import {
  type Contact,
  type ContactInput,
  CUSTOM_SLOTS,
  type CustomSlot,
} from '../../domain/contacts/contacts.js';
import type { ContactField } from '../../domain/contacts/fields.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage } from '../account/frame.js';
import { formBody, messages } from '../forms.js';
import { type Html, html } from '../html.js';
import { workspacePage } from '../layout.js';

export { formBody, messages };

export type ContactsTab = 'contacts' | 'lists' | 'fields' | 'import';

const TABS: [ContactsTab, string, string][] = [
  ['contacts', '/contacts', 'Address book'],
  ['lists', '/contacts/lists', 'Lists'],
  ['fields', '/contacts/fields', 'Custom fields'],
  ['import', '/contacts/import', 'Import CSV'],
];

export function userOf(request: FastifyRequest): User {
  return request.sessionUser;
}

/** Sends a Contacts page: the workspace header, the section's tabs, then `body`. */
export async function contactsPage(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  title: string,
  tab: ContactsTab | null,
  body: Html,
  status = 200,
): Promise<FastifyReply> {
  const nav = html`<nav class="survey-tabs" aria-label="Contacts pages"><ul>${TABS.map(
    ([t, href, label]) =>
      html`<li><a href="${href}"${t === tab ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}<li><a href="/contacts/export.csv" download>Export CSV</a></li></ul></nav>`;
  const markup = await workspacePage(
    deps,
    reply,
    user,
    title,
    html`<div class="survey-head"><h1>${title}</h1>${nav}</div>${body}`,
    {
      section: 'contacts',
    },
  );
  return sendPage(reply, markup, status);
}

export const text = (max = 1000) => Type.Optional(Type.String({ maxLength: max }));
/** One or many values of a repeated field (checkboxes, selects with the same name). */
export const many = Type.Optional(
  Type.Union([
    Type.String({ maxLength: 100 }),
    Type.Array(Type.String({ maxLength: 100 }), { maxItems: 5000 }),
  ]),
);
export function listOf(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
export const IdParams = (name: string) => Type.Object({ [name]: Type.String({ pattern: '^[0-9]{1,20}$' }) });

export const CONTACT_FIELDS = {
  email: text(320),
  first_name: text(200),
  last_name: text(200),
  phone_number: text(40),
  ...Object.fromEntries(CUSTOM_SLOTS.map((s) => [`custom_${s}`, text(1000)])),
};

/** The contact a contact form describes. */
export function contactInput(body: Record<string, string | undefined>): ContactInput {
  return {
    email: body.email?.trim() || null,
    first_name: body.first_name?.trim() ?? '',
    last_name: body.last_name?.trim() ?? '',
    phone_number: body.phone_number?.trim() || null,
    custom_fields: Object.fromEntries(
      CUSTOM_SLOTS.map((s) => [s, body[`custom_${s}`]?.trim() ?? '']),
    ) as Record<CustomSlot, string>,
  };
}

/** The fields of the add and edit forms, filled with `values`. */
export function contactFields(
  prefix: string,
  fields: ContactField[],
  values: Partial<Record<string, string | null>>,
  invalid: boolean,
): Html {
  const field = (name: string, label: string, type: string, autocomplete = '') =>
    html`<div class="field"><label for="${prefix}-${name}">${label}</label>
<input id="${prefix}-${name}" name="${name}" type="${type}" value="${values[name] ?? ''}"${autocomplete ? html` autocomplete="${autocomplete}"` : ''}${
      invalid && name === 'email' ? html` aria-invalid="true" aria-describedby="form-error"` : ''
    }></div>`;
  return html`<div class="contact-fields">
${field('email', 'Email address', 'email', 'off')}
${field('first_name', 'First name', 'text', 'off')}
${field('last_name', 'Last name', 'text', 'off')}
${field('phone_number', 'Phone number', 'tel', 'off')}
${fields.map((f) => field(`custom_${f.id}`, f.label, 'text'))}
</div>`;
}

export function contactValues(c: Contact): Record<string, string | null> {
  return {
    email: c.email,
    first_name: c.first_name,
    last_name: c.last_name,
    phone_number: c.phone_number,
    ...Object.fromEntries(CUSTOM_SLOTS.map((s) => [`custom_${s}`, c[`custom_${s}`]])),
  };
}

export function fullName(c: Pick<Contact, 'first_name' | 'last_name'>): string {
  return `${c.first_name} ${c.last_name}`.trim();
}

/** Runs a change; an ApiError comes back as the value to show on the re-rendered page. */
export async function attempt(fn: () => Promise<unknown>): Promise<ApiError | undefined> {
  try {
    await fn();
    return undefined;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}
