// The pages of an email collector, reached from the collect page:
//   /collect/email/{collector}?sm=<manage token>: the collector's stats, its messages, and forms to
//     write an invitation or a reminder (to those who have not answered);
//   /collect/email/{collector}/messages/{message}?sm=…: one message: its subject and body (with the
//     placeholders the invitations domain fills in), a preview as a recipient will read it, its
//     recipients (picked from contacts and lists or pasted, with a result per address), sending it
//     now or at a time, and its stats once sent.
// Everything goes through the invitations domain, as /v3/collectors/{id}/messages does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { Deps } from '../../context.js';
import { preferencesOf } from '../../domain/accounts/preferences.js';
import type { User } from '../../domain/accounts/users.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import { listContacts } from '../../domain/contacts/contacts.js';
import { listLists } from '../../domain/contacts/lists.js';
import { renderInvitation, textOf } from '../../domain/invitations/email-body.js';
import {
  createMessage,
  DEFAULT_BODY_HTML,
  DEFAULT_SUBJECT,
  emailCollectorFor,
  getMessage,
  listMessages,
  type MessageRow,
  messageStatus,
  REQUIRED_PLACEHOLDERS,
  updateMessage,
} from '../../domain/invitations/messages.js';
import {
  addRecipients,
  type BulkOutcome,
  listRecipients,
  recipientStates,
} from '../../domain/invitations/recipients.js';
import {
  exampleLinks,
  invitationStats,
  type Stats,
  senderOf,
  sendMessage,
  sendTestMessage,
} from '../../domain/invitations/send.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import { ApiError } from '../../platform/errors.js';
import type { Plan } from '../../platform/plans.js';
import { accessUrl } from '../../platform/regions.js';
import { localTime, utcOfLocal } from '../../platform/time-zones.js';
import { sendPage, userPage } from '../account/frame.js';
import { hidden } from '../forms.js';
import { type Html, html } from '../html.js';
import { surveyHeader } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, currentUser, formField, formFields, loginUrl } from '../session.js';
import { planOf } from '../typed.js';
import { alertPages, alertsUrl } from './alerts.js';

/** Recipients and contacts listed on a message's page (the rest: "and N more"). */
const SHOWN = 200;
const DEFAULT_BODY_TEXT = textOf(DEFAULT_BODY_HTML);
const ID = Type.String({ pattern: '^[0-9]{1,20}$' });
const Query = Type.Object({
  sm: Type.Optional(Type.String({ maxLength: 100 })),
  done: Type.Optional(Type.String({ maxLength: 40 })),
});
const form = <F extends TProperties>(fields: F) =>
  Type.Object({ _csrf: Type.String({ maxLength: 200 }), ...fields }, { additionalProperties: false });
const text = (max: number) => Type.Optional(Type.String({ maxLength: max }));
const many = Type.Optional(
  Type.Union([
    Type.String({ maxLength: 20 }),
    Type.Array(Type.String({ maxLength: 20 }), { maxItems: 5000 }),
  ]),
);
const listOf = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const NOTICES: Record<string, string> = {
  created: 'The message was created. Check it, add recipients and send it.',
  saved: 'The message was saved.',
  sent: 'The message was sent: the emails are on their way.',
  scheduled: 'The message is scheduled.',
  tested: 'A test copy is on its way to your address.',
};
const TYPE_LABELS: Record<string, string> = {
  invite: 'Invitation',
  reminder: 'Reminder',
  thank_you: 'Thank-you',
};
const STATUS_LABELS: Record<string, string> = { not_sent: 'Not sent', sent: 'Sent', scheduled: 'Scheduled' };
const RESPONSE_LABELS: Record<string, string> = {
  not_responded: 'Not responded',
  partially_responded: 'Partially responded',
  completely_responded: 'Responded',
};

export const emailCollectorUrl = (token: string, collectorId: string) =>
  `/collect/email/${collectorId}?sm=${encodeURIComponent(token)}`;
export const messageUrl = (token: string, collectorId: string, messageId: string) =>
  `/collect/email/${collectorId}/messages/${messageId}?sm=${encodeURIComponent(token)}`;

interface Ctx {
  user: User;
  actor: { user: User; plan: Plan; ip: string | null };
  survey: SurveyRow;
  collector: Collector;
  token: string;
  /** the account's time zone: times are shown and entered in it */
  zone: string;
}

/** The signed-in user's email collector named by the path, of the survey named by `sm`. */
async function contextOf(
  deps: Deps,
  request: FastifyRequest & { params: { collectorId: string }; query: { sm?: string } },
  reply: FastifyReply,
  level: 'read' | 'write',
): Promise<Ctx | null> {
  const token = request.query.sm ?? '';
  const { collectorId } = request.params;
  const user = await currentUser(deps, request);
  if (!user) {
    reply.redirect(loginUrl(emailCollectorUrl(token, collectorId)), 303);
    return null;
  }
  const survey = await managedSurvey(deps, { user }, token, 'collect', level);
  const actor = { user, plan: planOf(user), ip: request.ip ?? null };
  const collector = await emailCollectorFor(deps, actor, collectorId, level);
  if (collector.survey_id !== survey.id) throw new ApiError(1020, 'Collector not found.');
  const { time_zone: zone } = await preferencesOf(deps, user.id);
  return { user, actor, survey, collector, token, zone };
}

function when(iso: string, zone: string): Html {
  return html`<time datetime="${iso}">${localTime(iso, zone)} ${zone === 'UTC' ? 'UTC' : `(${zone})`}</time>`;
}

function statsList(s: Stats, id: string): Html {
  const items: [string, number][] = [
    ['Recipients', s.recipients],
    ['Sent', s.mail_status.sent],
    ['Responded', s.survey_response_status.completely_responded],
    ['Partially responded', s.survey_response_status.partially_responded],
    ['Not responded', s.survey_response_status.not_responded],
    ['Bounced', s.mail_status.bounced],
    ['Opted out', s.mail_status.opted_out],
  ];
  return html`<dl class="stats" id="${id}">${items.map(
    ([label, n]) => html`<div><dt>${label}</dt><dd data-stat="${label}">${n}</dd></div>`,
  )}</dl>
<p class="hint">Opens are not tracked (no tracking pixel); a response shows that the link was followed.</p>`;
}

function errorBox(error: ApiError | undefined): Html {
  return error
    ? html`<p class="notice danger" role="alert" id="form-error">${error.detail ?? error.message}</p>`
    : html``;
}

const placeholderHelp = (id: string) =>
  html`<p class="hint" id="${id}">Write the email as plain text; it is sent as text and as formatted HTML. It must contain ${REQUIRED_PLACEHOLDERS.map(
    (p, i) => html`${i ? ', ' : ''}<code>${p}</code>`,
  )}: each recipient gets their own survey link and unsubscribe link, and the "Sent with Survey Service" footer. <code>[PrivacyLink]</code> (the privacy page) is optional. The subject and the message may use each recipient's <code>[FirstName]</code>, <code>[LastName]</code>, <code>[Email]</code> and <code>[CustomData1]</code> to <code>[CustomData6]</code>.</p>`;

/** A message's subject and body fields; `at` keeps their ids apart where one page has several
 * (the invitation and the reminder composers). */
function messageFields(values: { subject: string; body: string }, invalid: boolean, at: string): Html {
  return html`<div class="field"><label for="${at}-subject">Subject</label>
<input id="${at}-subject" name="subject" type="text" maxlength="500" required value="${values.subject}"></div>
<div class="field"><label for="${at}-body">Message</label>${placeholderHelp(`${at}-body-help`)}
<textarea id="${at}-body" name="body" rows="12" required aria-describedby="${at}-body-help${invalid ? ' form-error' : ''}"${
    invalid ? html` aria-invalid="true"` : ''
  }>${values.body}</textarea></div>`;
}

function bodyOf(m: MessageRow): string {
  return m.body_text ?? textOf(m.body_html ?? '');
}

const OUTCOME_LABELS: [keyof BulkOutcome, string][] = [
  ['invalids', 'Not a valid email address'],
  ['duplicate', 'Given twice'],
  ['existing', 'Already a recipient of this message'],
  ['opted_out', 'Opted out: not added'],
  ['bounced', 'Bounced before: not added'],
];

function outcomeTable(out: BulkOutcome): Html {
  const rows: [string, string][] = [
    ...out.succeeded.map((r) => [r.email, 'Added'] as [string, string]),
    ...OUTCOME_LABELS.flatMap(([key, label]) =>
      (out[key] as string[]).map((e) => [e, label] as [string, string]),
    ),
  ];
  return html`<section class="card" aria-labelledby="added-heading"><h3 id="added-heading">Result of each address</h3>
<p role="status">${out.succeeded.length} added, ${rows.length - out.succeeded.length} not added.</p>
<table class="cards recipient-result"><thead><tr><th scope="col">Address</th><th scope="col">Result</th></tr></thead>
<tbody>${rows.map(([e, l]) => html`<tr><td data-label="Address" class="break">${e}</td><td data-label="Result">${l}</td></tr>`)}</tbody></table></section>`;
}

export function emailCollectorPages(app: PageApp, deps: Deps): void {
  alertPages(app, deps);
  async function render(ctx: Ctx, reply: FastifyReply, title: string, body: Html, status = 200) {
    const markup = await userPage(
      deps,
      reply,
      ctx.user,
      `${title}: ${ctx.survey.title}`,
      html`${surveyHeader(ctx.survey, 'collect')}${body}`,
      {
        section: 'surveys',
      },
    );
    return sendPage(reply, markup, status);
  }

  async function renderCollector(
    ctx: Ctx,
    reply: FastifyReply,
    state: { notice?: string; error?: ApiError; errorAt?: string; form?: Record<string, string | undefined> },
  ) {
    const { collector, token } = ctx;
    const csrf = await csrfToken(deps, reply);
    const [, messages] = await listMessages(deps, collector, 0, 500);
    const stats = await invitationStats(deps, collector.id, null);
    const now = deps.clock.now();
    // A reminder starts from the invitation it follows: the latest one sent.
    const lastInvite = messages
      .filter((m) => m.type === 'invite' && m.status === 'sent')
      .sort((a, b) => (a.date_created < b.date_created ? 1 : -1))[0];
    const anySent = lastInvite !== undefined;
    const act = `/collect/email/${collector.id}/messages?sm=${encodeURIComponent(token)}`;
    const mine = (at: string) => (state.errorAt === at ? state.form : undefined);
    const composer = (
      type: 'invite' | 'reminder',
      heading: string,
      intro: string,
      subject: string,
      body = DEFAULT_BODY_TEXT,
    ) => {
      const f = mine(type);
      return html`<section class="card" aria-labelledby="${type}-heading"><h2 id="${type}-heading">${heading}</h2><p>${intro}</p>
<form method="post" action="${act}">${hidden(csrf)}<input type="hidden" name="type" value="${type}">
${state.errorAt === type ? errorBox(state.error) : ''}
${messageFields({ subject: f?.subject ?? subject, body: f?.body ?? body }, state.errorAt === type, type)}
<p><button type="submit">${type === 'invite' ? 'Create invitation' : 'Create reminder'}</button></p></form></section>`;
    };
    const body = html`<p><a href="/collect/list?sm=${encodeURIComponent(token)}">← All collectors</a></p>
<h2>${collector.name} <span class="badge">Email invitation</span></h2>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error && !state.errorAt ? errorBox(state.error) : ''}
<section aria-labelledby="stats-heading"><h3 id="stats-heading">Recipients and responses</h3>${statsList(stats, 'collector-stats')}
<p><a href="${alertsUrl(token)}">Response alerts</a>: an email on each response, or a daily digest.</p></section>
<section aria-labelledby="messages-heading"><h3 id="messages-heading">Messages</h3>
${
  messages.length
    ? html`<table class="cards messages"><thead><tr><th scope="col">Message</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Sent or scheduled</th></tr></thead>
<tbody>${messages.map((m) => {
        const status = messageStatus(m, now);
        return html`<tr><td data-label="Message"><a href="${messageUrl(token, collector.id, m.id)}">${m.subject}</a></td><td data-label="Type">${TYPE_LABELS[m.type] ?? m.type}</td><td data-label="Status">${STATUS_LABELS[status] ?? status}</td><td data-label="Sent or scheduled">${m.scheduled_date ? when(m.scheduled_date, ctx.zone) : '—'}</td></tr>`;
      })}</tbody></table>`
    : html`<p class="empty">No messages yet. Write the invitation below.</p>`
}</section>
${composer('invite', 'Write an invitation', 'The invitation goes to the recipients you choose on the next step.', DEFAULT_SUBJECT)}
${
  anySent
    ? composer(
        'reminder',
        'Send a reminder',
        'A reminder goes to the invited recipients who have not answered yet (opted-out and bounced addresses are skipped).',
        /^reminder:/i.test(lastInvite.subject) ? lastInvite.subject : `Reminder: ${lastInvite.subject}`,
        bodyOf(lastInvite),
      )
    : ''
}`;
    return render(ctx, reply, collector.name, body, state.error ? Math.min(state.error.status, 500) : 200);
  }

  async function renderMessage(
    ctx: Ctx,
    reply: FastifyReply,
    message: MessageRow,
    state: {
      notice?: string;
      error?: ApiError;
      errorAt?: string;
      form?: Record<string, string | undefined>;
      outcome?: BulkOutcome;
    },
  ) {
    const { collector, token, user } = ctx;
    const csrf = await csrfToken(deps, reply);
    const now = deps.clock.now();
    const status = messageStatus(message, now);
    const editable = message.status === 'not_sent';
    const act = (path: string) =>
      `/collect/email/${collector.id}/messages/${message.id}/${path}?sm=${encodeURIComponent(token)}`;
    const mine = (at: string) => (state.errorAt === at ? state.form : undefined);
    const base = accessUrl(deps.config, user.region);
    const sender = senderOf(deps, user);
    const preview = renderInvitation(
      message,
      { email: user.email, first_name: user.first_name ?? '', last_name: user.last_name ?? '', custom: {} },
      exampleLinks(base, collector, deps.config.abuseContact),
    );
    const [total, recipients] = await listRecipients(
      deps,
      collector,
      message.type === 'invite' ? message.id : null,
      0,
      SHOWN,
    );
    const states = await recipientStates(
      deps,
      collector.id,
      recipients.map((r) => r.id),
    );

    const editForm = editable
      ? html`<section class="card" aria-labelledby="write-heading"><h3 id="write-heading">Subject and message</h3>
<form method="post" action="${act('edit')}">${hidden(csrf)}
${state.errorAt === 'edit' ? errorBox(state.error) : ''}
${messageFields({ subject: mine('edit')?.subject ?? message.subject, body: mine('edit')?.body ?? bodyOf(message) }, state.errorAt === 'edit', 'msg')}
<p><button type="submit">Save message</button></p></form></section>`
      : '';

    const previewCard = html`<section class="card" aria-labelledby="preview-heading"><h3 id="preview-heading">Preview</h3>
<p class="hint">As a recipient will read it, here with your own name; their personal links and fields replace the examples.</p>
<div class="email-preview"><dl class="email-head"><div><dt>From</dt><dd>${sender.from}</dd></div><div><dt>Reply to</dt><dd>${sender.replyTo}</dd></div><div><dt>Subject</dt><dd>${preview.subject}</dd></div></dl>
<pre>${preview.text}</pre></div>
${state.errorAt === 'test' ? errorBox(state.error) : ''}
<form method="post" action="${act('test')}">${hidden(csrf)}<p><button type="submit" class="secondary">Send a test to me</button> <span class="hint">to ${user.email}</span></p></form></section>`;

    let picker: Html | string = '';
    if (editable && message.type === 'invite') {
      const lists = await listLists(deps, user.id, { offset: 0, perPage: 500 });
      const contacts = await listContacts(deps, user.id, {}, { offset: 0, perPage: SHOWN });
      const withEmail = contacts.rows.filter((c) => c.email);
      const f = mine('recipients');
      picker = html`<section class="card" aria-labelledby="add-heading"><h3 id="add-heading">Add recipients</h3>
<form method="post" action="${act('recipients')}">${hidden(csrf)}
${state.errorAt === 'recipients' ? errorBox(state.error) : ''}
${
  lists.rows.length
    ? html`<fieldset class="pick-list"><legend>Contact lists</legend>${lists.rows.map(
        (l) =>
          html`<div class="check"><input type="checkbox" id="list-${l.id}" name="list_id" value="${l.id}"><label for="list-${l.id}">${l.name}</label></div>`,
      )}</fieldset>`
    : ''
}
${
  withEmail.length
    ? html`<fieldset class="pick-list"><legend>Contacts</legend>${withEmail.map(
        (c) =>
          html`<div class="check"><input type="checkbox" id="contact-${c.id}" name="contact_id" value="${c.id}"><label for="contact-${c.id}">${c.email}${
            c.first_name || c.last_name ? ` (${`${c.first_name} ${c.last_name}`.trim()})` : ''
          }</label></div>`,
      )}${contacts.total > SHOWN ? html`<p class="hint">The first ${SHOWN} contacts are listed; use a list or paste the others.</p>` : ''}</fieldset>`
    : ''
}
<div class="field"><label for="paste">Email addresses</label><p class="hint" id="paste-help">One per line or separated by commas. New addresses are added to your contacts.</p>
<textarea id="paste" name="emails" rows="4" aria-describedby="paste-help">${f?.emails ?? ''}</textarea></div>
<p><button type="submit">Add recipients</button></p></form></section>`;
    }

    const sendForm = editable
      ? html`<section class="card" aria-labelledby="send-heading"><h3 id="send-heading">Send</h3>
<form method="post" action="${act('send')}">${hidden(csrf)}
${state.errorAt === 'send' ? errorBox(state.error) : ''}
<fieldset><legend>When</legend>
<div class="check"><input type="radio" id="send-now" name="when" value="now" checked><label for="send-now">Send now</label></div>
<div class="check"><input type="radio" id="send-later" name="when" value="later"${mine('send')?.when === 'later' ? html` checked` : ''}><label for="send-later">Send at a time</label></div>
<div class="field"><label for="send-at">Date and time (${ctx.zone})</label><p class="hint" id="send-at-help">In your time zone; change it on <a href="/account">your account</a>.</p><input id="send-at" name="scheduled_date" type="datetime-local" aria-describedby="send-at-help" value="${mine('send')?.scheduled_date ?? ''}"></div>
</fieldset>
<p><button type="submit">${message.type === 'invite' ? `Send to ${total} recipient${total === 1 ? '' : 's'}` : 'Send reminder'}</button></p></form></section>`
      : '';

    const sentInfo = editable
      ? ''
      : html`<section aria-labelledby="mstats-heading"><h3 id="mstats-heading">Stats of this message</h3>
<p>${status === 'scheduled' ? html`Scheduled for ${when(message.scheduled_date!, ctx.zone)}.` : html`Sent ${message.scheduled_date ? when(message.scheduled_date, ctx.zone) : ''}.`}</p>
${statsList(await invitationStats(deps, collector.id, message.id), 'message-stats')}</section>`;

    const recipientList = html`<section aria-labelledby="recipients-heading"><h3 id="recipients-heading">${
      message.type === 'invite' ? 'Recipients of this invitation' : "The collector's recipients"
    } (${total})</h3>
${
  message.type !== 'invite' && editable
    ? html`<p class="hint">A reminder reaches the invited recipients who have not answered when it is sent; a thank-you those who have.</p>`
    : ''
}
${
  recipients.length
    ? html`<table class="cards recipients"><thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Response</th></tr></thead>
<tbody>${recipients.map(
        (r) =>
          html`<tr><td data-label="Email" class="break">${r.email}</td><td data-label="Name">${`${r.first_name} ${r.last_name}`.trim()}</td><td data-label="Response">${
            RESPONSE_LABELS[states.get(r.id)?.response ?? 'not_responded']
          }${states.get(r.id)?.optedOut ? ' (opted out)' : ''}</td></tr>`,
      )}</tbody></table>${total > recipients.length ? html`<p class="muted">Showing ${recipients.length} of ${total}.</p>` : ''}`
    : html`<p class="empty">No recipients yet.</p>`
}</section>`;

    const body = html`<p><a href="${emailCollectorUrl(token, collector.id)}">← ${collector.name}</a></p>
<h2>${TYPE_LABELS[message.type] ?? message.type}: ${message.subject} <span class="badge" data-message-status="${status}">${STATUS_LABELS[status] ?? status}</span></h2>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error && !state.errorAt ? errorBox(state.error) : ''}
${state.outcome ? outcomeTable(state.outcome) : ''}
${sentInfo}${editForm}${previewCard}${picker}${recipientList}${sendForm}`;
    return render(ctx, reply, message.subject, body, state.error ? Math.min(state.error.status, 500) : 200);
  }

  const CollectorParams = Type.Object({ collectorId: ID });
  const MessageParams = Type.Object({ collectorId: ID, messageId: ID });

  app.get(
    '/collect/email/:collectorId',
    { schema: { hide: true, params: CollectorParams, querystring: Query } },
    async (request, reply) => {
      const ctx = await contextOf(deps, request, reply, 'read');
      if (!ctx) return reply;
      const done = request.query.done;
      return renderCollector(ctx, reply, { notice: done ? NOTICES[done] : undefined });
    },
  );

  app.get(
    '/collect/email/:collectorId/messages/:messageId',
    { schema: { hide: true, params: MessageParams, querystring: Query } },
    async (request, reply) => {
      const ctx = await contextOf(deps, request, reply, 'read');
      if (!ctx) return reply;
      const message = await getMessage(deps, ctx.collector, request.params.messageId);
      const done = request.query.done;
      return renderMessage(ctx, reply, message, { notice: done ? NOTICES[done] : undefined });
    },
  );

  /** A message body from the form: the text, without the carriage returns of a textarea. */
  const bodyText = (v: string | undefined) => (v ?? '').replace(/\r\n/g, '\n');

  app.post(
    '/collect/email/:collectorId/messages',
    {
      schema: {
        hide: true,
        params: CollectorParams,
        querystring: Query,
        body: form({
          type: Type.Optional(Type.Union([Type.Literal('invite'), Type.Literal('reminder')])),
          subject: text(500),
          body: text(100_000),
        }),
      },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const ctx = await contextOf(deps, request, reply, 'write');
      if (!ctx) return reply;
      const f = request.body;
      const type = f.type ?? 'invite';
      try {
        const subject = (f.subject ?? '').trim();
        if (!subject) throw new ApiError(1002, 'Write a subject.');
        const m = await createMessage(deps, ctx.collector, { type, subject, body_text: bodyText(f.body) });
        return reply.redirect(`${messageUrl(ctx.token, ctx.collector.id, m.id)}&done=created`, 303);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return renderCollector(ctx, reply, { error: err, errorAt: type, form: formFields(f) });
      }
    },
  );

  /** A change to one message; an ApiError re-renders its page with the error beside the form. */
  function messagePost(
    path: string,
    at: string,
    body: Record<string, ReturnType<typeof text> | typeof many>,
    action: (
      ctx: Ctx,
      message: MessageRow,
      form: Record<string, string | string[] | undefined>,
    ) => Promise<string | BulkOutcome>,
  ) {
    app.post(
      `/collect/email/:collectorId/messages/:messageId/${path}`,
      {
        schema: { hide: true, params: MessageParams, querystring: Query, body: form(body) },
        preHandler: app.csrfProtection,
      },
      async (request, reply) => {
        const ctx = await contextOf(deps, request, reply, 'write');
        if (!ctx) return reply;
        const message = await getMessage(deps, ctx.collector, request.params.messageId);
        const f = request.body;
        try {
          const done = await action(ctx, message, f);
          if (typeof done !== 'string')
            return renderMessage(ctx, reply, await getMessage(deps, ctx.collector, message.id), {
              outcome: done,
            });
          return reply.redirect(`${messageUrl(ctx.token, ctx.collector.id, message.id)}&done=${done}`, 303);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const fresh = await getMessage(deps, ctx.collector, message.id);
          return renderMessage(ctx, reply, fresh, {
            error: err,
            errorAt: at,
            form: formFields(f),
          });
        }
      },
    );
  }

  messagePost('edit', 'edit', { subject: text(500), body: text(100_000) }, async (_ctx, message, f) => {
    const subject = String(f.subject ?? '').trim();
    if (!subject) throw new ApiError(1002, 'Write a subject.');
    await updateMessage(deps, message, { subject, body_text: bodyText(formField(f, 'body')) }, 'patch');
    return 'saved';
  });

  messagePost(
    'recipients',
    'recipients',
    { list_id: many, contact_id: many, emails: text(100_000) },
    async (ctx, message, f) => {
      const emails = String(f.emails ?? '')
        .split(/[\n,;]+/)
        .map((e) => e.trim())
        .filter((e) => e);
      const input = {
        contacts: emails.map((email) => ({ email })),
        contact_ids: listOf(f.contact_id),
        contact_list_ids: listOf(f.list_id),
      };
      if (input.contacts.length + input.contact_ids.length + input.contact_list_ids.length === 0)
        throw new ApiError(1002, 'Choose contacts or lists, or paste email addresses.');
      return addRecipients(deps, ctx.actor.plan, ctx.collector, message, input);
    },
  );

  messagePost('send', 'send', { when: text(10), scheduled_date: text(40) }, async (ctx, message, f) => {
    let scheduled: string | null = null;
    if (f.when === 'later') {
      const v = String(f.scheduled_date ?? '').trim();
      scheduled = utcOfLocal(v, ctx.zone);
      if (!scheduled) throw new ApiError(1002, 'Give the date and time to send at, like 2038-01-01T09:00.');
    }
    const { message: sent } = await sendMessage(deps, ctx.actor, ctx.collector, message, scheduled);
    return messageStatus(sent, deps.clock.now()) === 'scheduled' ? 'scheduled' : 'sent';
  });

  messagePost('test', 'test', {}, async (ctx, message) => {
    await sendTestMessage(deps, ctx.user, ctx.collector, message);
    return 'tested';
  });
}
