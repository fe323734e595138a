// /v3/collectors/{id}/messages, send and stats (reference §8).
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  copyMessage,
  createMessage,
  deleteMessage,
  getMessage,
  listMessages,
  type MessageRow,
  messageStatus,
  updateMessage,
} from '../../../domain/invitations/messages.js';
import { invitationStats, sendMessage } from '../../../domain/invitations/send.js';
import { baseUrl, envelope, listEnvelopeSchema, PagingQuery, pageOf } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { parseApiDate, withOffset } from '../../../platform/dates.js';
import { ApiError } from '../../../platform/errors.js';
import { emailCollector } from './access.js';
import {
  CollectorParams,
  Message,
  MessageCopyBody,
  MessageCreateBody,
  MessageListItem,
  MessageParams,
  MessageUpdateBody,
  SendBody,
  SendResult,
  Stats,
} from './schemas.js';

const tags = ['Collector messages'];

export function presentMessage(base: string, m: MessageRow, now: Date): Static<typeof Message> {
  return {
    id: m.id,
    href: `${base}/v3/collectors/${m.collector_id}/messages/${m.id}`,
    type: m.type,
    status: messageStatus(m, now),
    recipient_status: m.recipient_status,
    subject: m.subject,
    body: m.body_html ?? m.body_text ?? '',
    body_text: m.body_text,
    body_html: m.body_html,
    is_branding_enabled: m.is_branding_enabled === 1,
    embed_first_question: m.embed_first_question === 1,
    is_scheduled: m.scheduled_date !== null,
    scheduled_date: m.scheduled_date ? withOffset(m.scheduled_date) : null,
    date_created: withOffset(m.date_created),
  };
}

export const messagesRoutes: Routes = (app, deps: Deps) => {
  app.get(
    '/collectors/:collector_id/messages',
    {
      config: { scope: 'collectors_read' },
      schema: {
        tags,
        summary: "An email collector's messages",
        params: CollectorParams,
        querystring: PagingQuery,
        response: { 200: listEnvelopeSchema(MessageListItem) },
      },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      const page = pageOf(request.query);
      const [total, rows] = await listMessages(deps, collector, page.offset, page.perPage);
      const base = baseUrl(request);
      const now = deps.clock.now();
      return envelope(
        request,
        page,
        total,
        rows.map((m) => ({
          id: m.id,
          href: `${base}/v3/collectors/${m.collector_id}/messages/${m.id}`,
          type: m.type,
          status: messageStatus(m, now),
          subject: m.subject,
        })),
      );
    },
  );

  app.post(
    '/collectors/:collector_id/messages',
    {
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary: 'Create a message (invite, reminder or thank_you)',
        params: CollectorParams,
        body: Type.Union([MessageCreateBody, MessageCopyBody]),
        response: { 201: Message },
      },
    },
    async (request, reply) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'write');
      const body = request.body;
      if (!('from_message_id' in body)) {
        const m = await createMessage(deps, collector, body);
        return reply.code(201).send(presentMessage(baseUrl(request), m, deps.clock.now()));
      }
      const source = await emailCollector(deps, request, body.from_collector_id, 'read');
      const from = await getMessage(deps, source, body.from_message_id);
      const m = await copyMessage(
        deps,
        request.auth.plan,
        collector,
        source,
        from,
        body.include_recipients === true,
      );
      return reply.code(201).send(presentMessage(baseUrl(request), m, deps.clock.now()));
    },
  );

  app.get(
    '/collectors/:collector_id/messages/:message_id',
    {
      config: { scope: 'collectors_read' },
      schema: { tags, summary: 'A message', params: MessageParams, response: { 200: Message } },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      return presentMessage(
        baseUrl(request),
        await getMessage(deps, collector, request.params.message_id),
        deps.clock.now(),
      );
    },
  );

  for (const mode of ['patch', 'put'] as const)
    app.route({
      method: mode === 'patch' ? 'PATCH' : 'PUT',
      url: '/collectors/:collector_id/messages/:message_id',
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary:
          mode === 'patch'
            ? 'Change a message not yet sent'
            : 'Replace a message not yet sent (unset fields get their defaults)',
        params: MessageParams,
        body: MessageUpdateBody,
        response: { 200: Message },
      },
      handler: async (request) => {
        const { collector_id, message_id } = request.params;
        const collector = await emailCollector(deps, request, collector_id, 'write');
        const current = await getMessage(deps, collector, message_id);
        const next = await updateMessage(deps, current, request.body, mode);
        return presentMessage(baseUrl(request), next, deps.clock.now());
      },
    });

  app.delete(
    '/collectors/:collector_id/messages/:message_id',
    {
      config: { scope: 'collectors_write' },
      schema: { tags, summary: 'Delete a message', params: MessageParams, response: { 200: Message } },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'write');
      const current = await getMessage(deps, collector, request.params.message_id);
      await deleteMessage(deps, current);
      return presentMessage(baseUrl(request), current, deps.clock.now());
    },
  );

  app.post(
    '/collectors/:collector_id/messages/:message_id/send',
    {
      config: { scope: 'collectors_write' },
      schema: {
        tags,
        summary: 'Send a message now, or at scheduled_date',
        params: MessageParams,
        body: Type.Optional(SendBody),
        response: { 200: SendResult },
      },
    },
    async (request) => {
      const given = request.body?.scheduled_date;
      let scheduled: string | null = null;
      if (given !== undefined) {
        scheduled = parseApiDate(given.replace(/ (\d{2}:?\d{2})$/, '+$1'));
        if (!scheduled)
          throw new ApiError(1002, `'scheduled_date' must be a date like 2038-01-01T00:00:00+00:00.`);
        if (scheduled <= deps.clock.now().toISOString()) scheduled = null; // the past means now
      }
      const collector = await emailCollector(deps, request, request.params.collector_id, 'write');
      const current = await getMessage(deps, collector, request.params.message_id);
      const { message, recipientIds } = await sendMessage(
        deps,
        { user: request.auth.user, plan: request.auth.plan },
        collector,
        current,
        scheduled,
      );
      return {
        is_scheduled: true,
        scheduled_date: message.scheduled_date ? withOffset(message.scheduled_date) : null,
        subject: message.subject,
        body: message.body_html ?? message.body_text ?? '',
        type: message.type,
        recipient_status: message.recipient_status,
        recipients: recipientIds,
      };
    },
  );

  app.get(
    '/collectors/:collector_id/messages/:message_id/stats',
    {
      config: { scope: 'collectors_read' },
      schema: { tags, summary: "A message's stats", params: MessageParams, response: { 200: Stats } },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      const m = await getMessage(deps, collector, request.params.message_id);
      return invitationStats(deps, collector.id, m.id);
    },
  );

  app.get(
    '/collectors/:collector_id/stats',
    {
      config: { scope: 'collectors_read' },
      schema: {
        tags,
        summary: "Stats over all of an email collector's recipients",
        params: CollectorParams,
        response: { 200: Stats },
      },
    },
    async (request) => {
      const collector = await emailCollector(deps, request, request.params.collector_id, 'read');
      return invitationStats(deps, collector.id, null);
    },
  );
};
