// /analyze/<token>/flagged: the responses the screening kept aside (domain/screening), for the
// survey's owner (analyze access) to release, so they count, or to delete.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { listCollectors } from '../../domain/collectors/collectors.js';
import { designIndex } from '../../domain/responses/design-index.js';
import { answerText } from '../../domain/responses/readable.js';
import { storedPages } from '../../domain/responses/responses.js';
import {
  countFlagged,
  deleteFlagged,
  flaggedPage,
  reasonsOf,
  releaseFlagged,
} from '../../domain/screening/review.js';
import type { FlagReason } from '../../domain/screening/screen.js';
import { managedSurvey, mayAccess, type SurveyRow } from '../../domain/surveys/access.js';
import { sendPage, userPage } from '../account/frame.js';
import { STATUS_LABELS } from '../analyze/filter-form.js';
import { askFirst, confirmed, destructiveForm } from '../confirm.js';
import { type Html, html } from '../html.js';
import { surveyHeader, surveyPaths } from '../layout.js';
import type { PageApp } from '../page-area.js';
import { csrfToken, formField, requireSignedIn } from '../session.js';

const SHOWN = 100;
const Token = Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' });
const Params = Type.Object({ token: Token });
const OneParams = Type.Object({ token: Token, id: Type.String({ pattern: '^[0-9]{1,20}$' }) });
const Query = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });
const Body = Type.Object(
  { _csrf: Type.String({ maxLength: 200 }), confirm: Type.Optional(Type.String({ maxLength: 10 })) },
  { additionalProperties: false },
);

export const REASON_LABELS: Record<FlagReason, string> = {
  honeypot: 'Filled the hidden field',
  too_fast: 'Pages answered too fast',
  address_limit: 'Over the limit per address',
  duplicate: 'Duplicate',
  captcha: 'Failed the CAPTCHA',
};

const DONE: Record<string, string> = {
  released: 'The response was released: it now counts in the results.',
  refused: 'The response stays here: its collector takes no more responses (closed or full).',
  deleted: 'The response was deleted.',
};

export const flaggedPath = (survey: { manage_token: string }) => `/analyze/${survey.manage_token}/flagged`;

async function surveyOf(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  level: 'read' | 'write',
): Promise<{ user: User; survey: SurveyRow } | null> {
  const user = await requireSignedIn(deps, request, reply);
  if (!user) return null;
  const survey = await managedSurvey(
    deps,
    { user },
    formField(request.params, 'token') ?? '',
    'analyze',
    level,
  );
  return { user, survey };
}

export async function flaggedRoutes(app: PageApp, deps: Deps): Promise<void> {
  app.get(
    '/analyze/:token/flagged',
    { schema: { hide: true, params: Params, querystring: Query } },
    async (request, reply) => {
      const found = await surveyOf(deps, request, reply, 'read');
      if (!found) return reply;
      const { user, survey } = found;
      const scope = { surveyId: survey.id };
      const [total, rows, index, [, collectors], writable] = await Promise.all([
        countFlagged(deps, scope),
        flaggedPage(deps, scope, 0, SHOWN),
        designIndex(deps, survey),
        listCollectors(deps, survey.id, { offset: 0, limit: 1000, sortBy: 'name' }),
        mayAccess(deps, { user }, survey.id, 'analyze', 'write'),
      ]);
      const names = new Map(collectors.map((c) => [c.id, c.name]));
      const csrf = await csrfToken(deps, reply);
      const base = flaggedPath(survey);
      const done = request.query.done && DONE[request.query.done];
      const item = (f: (typeof rows)[number]): Html => {
        const pages = storedPages(f).filter((p) => p.questions.length > 0);
        const answers = pages.flatMap((p) =>
          p.questions.map(
            (qa) =>
              html`<li><strong>${index.questions.get(qa.id)?.label.replace(/<[^>]*>/g, '') ?? 'A removed question'}:</strong> ${qa.answers.map((a) => answerText(index, qa.id, { ...a })).join(', ') || '—'}</li>`,
          ),
        );
        const started = `${f.date_created.slice(0, 16).replace('T', ' ')} UTC`;
        return html`<li class="card flagged-item">
<h3>${started}: ${names.get(f.collector_id) ?? 'A removed collector'}</h3>
<p><span class="badge status-${f.response_status}">${STATUS_LABELS[f.response_status] ?? f.response_status}</span> ${reasonsOf(f).map((r) => html`<span class="badge">${REASON_LABELS[r]}</span> `)}${f.ip_address ? html`<span class="muted">from ${f.ip_address}</span>` : ''}</p>
${answers.length ? html`<ul class="flagged-answers">${answers}</ul>` : html`<p class="empty">No answers.</p>`}
${
  writable
    ? html`<div class="actions"><form method="post" action="${base}/${f.id}/release" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">Release</button></form>
${destructiveForm(
  `${base}/${f.id}/delete`,
  csrf,
  {
    title: 'Delete this flagged response?',
    lost: [`The flagged response started ${started}, with its answers.`],
    button: 'Delete response',
  },
  { label: 'Delete' },
)}</div>`
    : ''
}</li>`;
      };
      const body = html`${surveyHeader(survey, 'responses')}
<h2>Flagged responses</h2>
${done ? html`<p class="notice" role="status">${done}</p>` : ''}
<p>Responses that looked automated or duplicate are kept here, out of the results, exports, alerts and webhooks. Release one to count it (its alerts and webhooks happen then), or delete it.</p>
${
  total === 0
    ? html`<p class="empty">No flagged responses.</p>`
    : html`<p>${total === 1 ? 'One flagged response' : `${total} flagged responses`}${total > SHOWN ? `, the newest ${SHOWN} shown` : ''}.</p>
<ul class="plain flagged-list">${rows.map(item)}</ul>`
}
<p><a href="${surveyPaths(survey).analyze}">Back to the results</a></p>`;
      return sendPage(
        reply,
        await userPage(deps, reply, user, `${survey.title}: flagged responses`, body, { section: 'surveys' }),
        200,
        { noindex: true },
      );
    },
  );

  app.post(
    '/analyze/:token/flagged/:id/release',
    { schema: { hide: true, params: OneParams, body: Body }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const found = await surveyOf(deps, request, reply, 'write');
      if (!found) return reply;
      const { user, survey } = found;
      const r = await releaseFlagged(deps, { userId: user.id, ip: request.ip ?? null }, survey, [
        request.params.id,
      ]);
      return reply.redirect(`${flaggedPath(survey)}?done=${r.refused > 0 ? 'refused' : 'released'}`, 303);
    },
  );

  app.post(
    '/analyze/:token/flagged/:id/delete',
    { schema: { hide: true, params: OneParams, body: Body }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const found = await surveyOf(deps, request, reply, 'write');
      if (!found) return reply;
      const { user, survey } = found;
      const base = flaggedPath(survey);
      if (!confirmed(request.body))
        return askFirst(
          deps,
          reply,
          user,
          {
            action: `${base}/${request.params.id}/delete`,
            destruction: {
              title: 'Delete this flagged response?',
              lost: ['The flagged response, with its answers.'],
              button: 'Delete response',
            },
            cancelHref: base,
          },
          { noindex: true },
        );
      await deleteFlagged(deps, survey, [request.params.id]);
      return reply.redirect(`${base}?done=deleted`, 303);
    },
  );
}
