// Shared pieces of the Team pages (/team, /team/workgroups, /team/activity): the signed-in frame
// with the section's tabs, notices and errors, form bodies, and the change-then-redirect plumbing
// every form of these pages goes through.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import type { Actor } from '../../domain/teams/teams.js';
import { ApiError } from '../../platform/errors.js';
import { sendPage } from '../account/frame.js';
import { formBody, messages } from '../forms.js';
import { type Html, html } from '../html.js';
import { workspacePage } from '../layout.js';

export { formBody, messages };

export type TeamTab = 'members' | 'workgroups' | 'activity';

const TABS: [TeamTab, string, string][] = [
  ['members', '/team', 'Members'],
  ['workgroups', '/team/workgroups', 'Workgroups'],
  ['activity', '/team/activity', 'Activity'],
];

export function userOf(request: FastifyRequest): User {
  return request.sessionUser;
}

export function actorOf(request: FastifyRequest): Actor {
  return { userId: request.sessionUser.id, ip: request.ip };
}

/** Sends a Team page: the workspace header, the section's tabs (`tab` null: no tabs), then `body`. */
export async function teamPage(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  title: string,
  tab: TeamTab | null,
  body: Html,
  status = 200,
): Promise<FastifyReply> {
  const nav = tab
    ? html`<nav class="survey-tabs" aria-label="Team pages"><ul>${TABS.map(
        ([t, href, label]) =>
          html`<li><a href="${href}"${t === tab ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>`
    : '';
  const markup = await workspacePage(
    deps,
    reply,
    user,
    title,
    html`<div class="survey-head"><h1>${title}</h1>${nav}</div>${body}`,
    { section: 'team' },
  );
  return sendPage(reply, markup, status);
}

/** The status a page answers with after a refused change: the error's own, never above 500. */
export function statusOf(error: ApiError | undefined): number {
  return error ? Math.min(error.status, 500) : 200;
}

export const text = (max = 1000) => Type.Optional(Type.String({ maxLength: max }));
export const Done = Type.Object({ done: text(40) });
export const MemberParams = Type.Object({ memberId: Type.String({ pattern: '^[0-9]{1,20}$' }) });
export const RoleField = Type.Optional(Type.Union([Type.Literal('regular'), Type.Literal('admin')]));

/** Runs a change; an ApiError is handed to `refused` (which re-renders the page with it). */
export async function attempt(
  change: () => Promise<string>,
  reply: FastifyReply,
  refused: (error: ApiError) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return reply.redirect(await change(), 303);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(err);
  }
}

export const ROLE_LABELS: Record<string, string> = {
  account_owner: 'Account owner',
  admin: 'Admin',
  regular: 'Member',
};

/** What a user whose plan has no teams sees instead (as the API's paid team scopes). */
export const UNPAID = html`<p class="notice" role="status">Teams and workgroups come with a paid plan. Ask your operator to change
your account's plan to use them.</p>`;

/** The page a user whose plan has no teams gets in place of `title`: the refusal, if any, and why. */
export function unpaidPage(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  title: string,
  error?: ApiError,
): Promise<FastifyReply> {
  return teamPage(
    deps,
    reply,
    user,
    title,
    null,
    html`${messages(undefined, error)}${UNPAID}`,
    statusOf(error),
  );
}
