// Recipients of email collectors (reference §9): add one or many to an invite message, list them
// per message or per collector, read and remove one.
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import type { Collector } from '../../../domain/collectors/collectors.js';
import { getMessage } from '../../../domain/invitations/messages.js';
import {
  addRecipients,
  type BulkInput,
  deleteRecipient,
  getRecipient,
  listRecipients,
  type RecipientRow,
  recipientStates,
  removeLink,
  surveyLink,
} from '../../../domain/invitations/recipients.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { ApiError, badQuery } from '../../../platform/errors.js';
import { isOneOf } from '../../../platform/lists.js';
import { emailCollector, linkBase } from './access.js';
import {
  BulkResult,
  CollectorParams,
  MessageParams,
  RECIPIENT_INCLUDES,
  Recipient,
  RecipientAddBody,
  RecipientBulkBody,
  RecipientListItem,
  RecipientParams,
} from './schemas.js';

const tags = ['Collector recipients'];

const ListQuery = Type.Object({
  ...pagingQuery(),
  include: Type.Optional(
    Type.String({
      maxLength: 300,
      description: `Comma-separated extra fields: ${RECIPIENT_INCLUDES.join(', ')}`,
    }),
  ),
});

function includes(raw: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (raw ?? '').split(',')) {
    const v = part.trim();
    if (!v) continue;
    if (!isOneOf(RECIPIENT_INCLUDES, v))
      throw badQuery(`'include' value ${v} is not one of ${RECIPIENT_INCLUDES.join(', ')}.`);
    out.add(v);
  }
  return out;
}

export const recipientsRoutes: Routes = (app, deps: Deps) => {
  async function present(
    request: Parameters<typeof linkBase>[1],
    collector: Collector,
    rows: RecipientRow[],
    fields: Set<string> | 'all',
  ) {
    const base = baseUrl(request);
    const links = linkBase(deps, request);
    const states = await recipientStates(
      deps,
      collector.id,
      rows.map((r) => r.id),
    );
    const want = (f: string) => fields === 'all' || fields.has(f);
    return rows.map((r) => {
      const s = states.get(r.id)!;
      // A list item; with every field (`all`) a whole Recipient.
      const item: Static<typeof RecipientListItem> & Partial<Static<typeof Recipient>> = {
        id: r.id,
        href: `${base}/v3/collectors/${collector.id}/recipients/${r.id}`,
        email: r.email,
        phone_number: null,
      };
      if (fields === 'all') {
        item.survey_id = r.survey_id;
        item.first_name = r.first_name;
        item.last_name = r.last_name;
      }
      if (want('survey_response_status')) item.survey_response_status = s.response;
      if (want('mail_status')) item.mail_status = s.mail;
      if (want('custom_fields')) item.custom_fields = JSON.parse(r.custom_fields);
      if (want('extra_fields')) item.extra_fields = JSON.parse(r.extra_fields);
      if (want('remove_link')) item.remove_link = removeLink(links, r);
      if (want('survey_link')) item.survey_link = surveyLink(links, collector.url_token, r);
      return item;
    });
  }

  app.post(
    '/collectors/:collector_id/messages/:message_id/recipients',
    {
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary: 'Add one recipient to an invite message not yet sent',
        params: MessageParams,
        body: RecipientAddBody,
        response: { 201: Recipient },
      },
    },
    async (request, reply) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'write');
      const message = await getMessage(deps, collector, request.params.message_id);
      const body = request.body;
      const { duplicates, ...rest } = body;
      const out = await addRecipients(
        deps,
        request.auth.plan,
        collector,
        message,
        'contact_id' in rest ? { contact_ids: [rest.contact_id] } : ({ contacts: [rest] } as BulkInput),
        duplicates,
      );
      const r = out.succeeded[0];
      if (!r) {
        if (out.invalids.length)
          throw new ApiError(
            'contact_id' in rest ? 1020 : 1002,
            'contact_id' in rest
              ? 'Contact not found or without an email address.'
              : `'email' is not a valid email address.`,
          );
        if (out.opted_out.length) throw new ApiError(1002, `${out.opted_out[0]} has opted out of emails.`);
        if (out.bounced.length) throw new ApiError(1002, `Email to ${out.bounced[0]} bounced.`);
        throw new ApiError(1026, `${out.existing[0] ?? 'The recipient'} is already a recipient.`);
      }
      const [item] = await present(request, collector, [r], 'all');
      return reply.code(201).send(item as Static<typeof Recipient>);
    },
  );

  app.post(
    '/collectors/:collector_id/messages/:message_id/recipients/bulk',
    {
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary: 'Add recipients from emails, contacts and contact lists',
        params: MessageParams,
        body: RecipientBulkBody,
        response: { 200: BulkResult },
      },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'write');
      const message = await getMessage(deps, collector, request.params.message_id);
      const { duplicates, ...input } = request.body;
      const out = await addRecipients(
        deps,
        request.auth.plan,
        collector,
        message,
        input as BulkInput,
        duplicates,
      );
      const base = baseUrl(request);
      return {
        ...out,
        succeeded: out.succeeded.map((r) => ({
          id: r.id,
          email: r.email,
          phone_number: null,
          href: `${base}/v3/collectors/${collector.id}/recipients/${r.id}`,
        })),
      };
    },
  );

  app.get(
    '/collectors/:collector_id/messages/:message_id/recipients',
    {
      config: { scope: 'collectors_read' },
      schema: {
        tags,
        summary: "A message's recipients",
        params: MessageParams,
        querystring: ListQuery,
        response: { 200: listEnvelopeSchema(RecipientListItem) },
      },
    },
    async (request) => {
      const fields = includes(request.query.include);
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      const message = await getMessage(deps, collector, request.params.message_id);
      const page = pageOf(request.query);
      const [total, rows] = await listRecipients(deps, collector, message.id, page.offset, page.perPage);
      return envelope(request, page, total, await present(request, collector, rows, fields));
    },
  );

  app.get(
    '/collectors/:collector_id/recipients',
    {
      config: { scope: 'collectors_read' },
      schema: {
        tags,
        summary: "All of a collector's recipients",
        params: CollectorParams,
        querystring: ListQuery,
        response: { 200: listEnvelopeSchema(RecipientListItem) },
      },
    },
    async (request) => {
      const fields = includes(request.query.include);
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      const page = pageOf(request.query);
      const [total, rows] = await listRecipients(deps, collector, null, page.offset, page.perPage);
      return envelope(request, page, total, await present(request, collector, rows, fields));
    },
  );

  app.get(
    '/collectors/:collector_id/recipients/:recipient_id',
    {
      config: { scope: 'collectors_read' },
      schema: { tags, summary: 'A recipient', params: RecipientParams, response: { 200: Recipient } },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      const r = await getRecipient(deps, collector, request.params.recipient_id);
      const [item] = await present(request, collector, [r], 'all');
      return item as Static<typeof Recipient>;
    },
  );

  app.delete(
    '/collectors/:collector_id/recipients/:recipient_id',
    {
      config: { scope: 'collectors_write' },
      schema: { tags, summary: 'Remove a recipient', params: RecipientParams, response: { 200: Recipient } },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'write');
      const r = await getRecipient(deps, collector, request.params.recipient_id);
      const [item] = await present(request, collector, [r], 'all');
      await deleteRecipient(deps, r);
      return item as Static<typeof Recipient>;
    },
  );
};
