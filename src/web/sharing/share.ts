// /share?sm=<manage token>: who has access to a survey and the controls to change it, for its
// owner or a user a share gives full access (the domain decides: surveySharing, 404 for a survey
// the user cannot see, 403 for one they only see). Lists the owner, each person share and each
// workgroup share with its role and the members it reaches; shares with a person of the team
// (shareWithPerson) or a workgroup (shareSurveyWith, the rules of /v3/workgroups/{id}/shares),
// gives a share another role and removes one after a confirmation. Every form works without script and answers with a
// 303 back here, or the page again with the domain's message.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../context.js';
import type { User } from '../../domain/accounts/users.js';
import { changePersonShare, removePersonShare, shareWithPerson } from '../../domain/sharing/person-shares.js';
import {
  changeSurveyShare,
  type PersonEntry,
  removeSurveyShare,
  type ShareEntry,
  type SurveySharing,
  shareSurveyWith,
  surveySharing,
} from '../../domain/sharing/survey-shares.js';
import { managedSurvey, type SurveyRow } from '../../domain/surveys/access.js';
import { SYSTEM_ROLE_IDS } from '../../domain/workgroups/roles.js';
import { ApiError } from '../../platform/errors.js';
import { pageErrorHandler, sendPage, userPage } from '../account/frame.js';
import { askFirst, confirmed, type Destruction, destructiveForm } from '../confirm.js';
import { hidden } from '../forms.js';
import { notFoundPage } from '../home/not-found.js';
import { type Html, html, raw } from '../html.js';
import { surveyHeader } from '../layout.js';
import { type PageApp, pageArea } from '../page-area.js';
import { csrfToken, currentUser, loginUrl } from '../session.js';

const VIEWER = SYSTEM_ROLE_IDS.Viewer;

export const shareUrl = (token: string) => `/share?sm=${encodeURIComponent(token)}`;

const Hex = Type.String({ pattern: '^[0-9a-f]{32}$' });
const Query = Type.Object(
  { sm: Type.String({ maxLength: 100 }), done: Type.Optional(Type.String({ maxLength: 20 })) },
  { additionalProperties: false },
);
const Body = Type.Union([
  Type.Object(
    {
      _csrf: Type.String({ maxLength: 200 }),
      action: Type.Literal('share'),
      workgroup: Type.String({ maxLength: 40 }),
      role: Type.Optional(Type.String({ maxLength: 40 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      _csrf: Type.String({ maxLength: 200 }),
      action: Type.Literal('person'),
      person: Type.String({ maxLength: 320 }),
      role: Type.Optional(Type.String({ maxLength: 40 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      _csrf: Type.String({ maxLength: 200 }),
      action: Type.Union([Type.Literal('role'), Type.Literal('person-role')]),
      share: Hex,
      role: Hex,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      _csrf: Type.String({ maxLength: 200 }),
      action: Type.Union([Type.Literal('remove'), Type.Literal('person-remove')]),
      share: Hex,
      confirm: Type.Optional(Type.String({ maxLength: 10 })),
    },
    { additionalProperties: false },
  ),
]);

const DONE: Record<string, string> = {
  shared: 'The survey is shared with the workgroup.',
  'person-shared': 'The survey is shared with the person.',
  role: 'The role was changed.',
  removed: 'The workgroup no longer has access.',
  'person-removed': 'The person no longer has access through this share.',
};

function personRemoval(e: PersonEntry, surveyTitle: string): Destruction {
  return {
    title: `Stop sharing “${surveyTitle || 'Untitled survey'}” with ${e.person.username}?`,
    lost: [
      `The access of ${e.person.username} (${e.role.name}): they lose it at once, unless a workgroup share reaches them.`,
    ],
    button: 'Remove access',
  };
}

function personRow(e: PersonEntry, s: SurveySharing, survey: SurveyRow, csrf: string): Html {
  const id = e.share.id;
  const action = shareUrl(survey.manage_token);
  const who = e.person.username;
  return html`<tr>
<th scope="row"><span class="badge">Person</span> ${who} <p class="muted small">${e.person.email}</p></th>
<td data-label="Role"><form method="post" action="${action}" class="row">${hidden(csrf)}
<input type="hidden" name="action" value="person-role"><input type="hidden" name="share" value="${id}">
<label for="role-${id}" class="visually-hidden">Role of ${who}</label>
<select id="role-${id}" name="role">${roleOptions(s.roles, e.role.id)}</select>
<button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${who}</span></button>
</form></td>
<td data-label="Shared by">${e.sharedBy?.username ?? 'someone no longer here'}</td>
<td class="share-actions">${destructiveForm(action, csrf, personRemoval(e, survey.title), {
    label: 'Remove',
    name: `Remove the access of ${who}`,
    fields: { action: 'person-remove', share: id },
  })}</td>
</tr>`;
}

function personForm(
  s: SurveySharing,
  survey: SurveyRow,
  csrf: string,
  form: { person?: string; error?: ApiError },
): Html {
  if (!s.inTeam)
    return html`<p class="hint">You are in no team: a survey is shared with people of your team. A team’s owner invites members on the team’s pages.</p>`;
  return html`<form method="post" action="${shareUrl(survey.manage_token)}" class="share-form">${hidden(csrf)}
<input type="hidden" name="action" value="person">
${form.error ? html`<p class="notice danger" role="alert" id="person-error">${form.error.detail ?? form.error.message}</p>` : ''}
<div><label for="share-person">Username or email address</label>
<p class="hint" id="share-person-hint">A member of your team.</p>
<input id="share-person" name="person" type="text" required maxlength="320" autocomplete="off" value="${form.person ?? ''}" aria-describedby="share-person-hint${form.error ? ' person-error' : ''}"></div>
<div><label for="share-person-role">Role</label>
<select id="share-person-role" name="role" aria-describedby="roles-help">${roleOptions(s.roles, VIEWER)}</select></div>
<div class="actions"><button type="submit">Share with this person</button></div>
</form>`;
}

function removal(e: ShareEntry, surveyTitle: string): Destruction {
  const n = e.members.length;
  return {
    title: `Stop sharing “${surveyTitle || 'Untitled survey'}” with ${e.workgroup.name}?`,
    lost: [
      `The access of the workgroup ${e.workgroup.name} (${e.role.name})${n ? `: its ${n === 1 ? 'member loses' : `${n} members lose`} access at once, unless another share reaches them` : ''}.`,
    ],
    button: 'Remove access',
  };
}

function roleOptions(roles: SurveySharing['roles'], selected: string): Html {
  return html`${roles.map(
    (r) => html`<option value="${r.id}"${r.id === selected ? raw(' selected') : ''}>${r.name}</option>`,
  )}`;
}

function shareRow(e: ShareEntry, s: SurveySharing, survey: SurveyRow, csrf: string): Html {
  const id = e.share.id;
  const action = shareUrl(survey.manage_token);
  return html`<tr>
<th scope="row"><span class="badge">Workgroup</span> ${e.workgroup.name}
${
  e.members.length
    ? html`<details class="members"><summary>${e.members.length === 1 ? '1 member' : `${e.members.length} members`}<span class="visually-hidden"> of ${e.workgroup.name}</span></summary>
<ul class="small">${e.members.map(
        (m) =>
          html`<li>${m.username} <span class="muted">(${m.email}${m.memberRole ? `; ${m.memberRole} in the workgroup` : ''}${m.isOwner ? '; workgroup owner' : ''})</span></li>`,
      )}</ul></details>`
    : html`<p class="muted small">No members yet.</p>`
}</th>
<td data-label="Role"><form method="post" action="${action}" class="row">${hidden(csrf)}
<input type="hidden" name="action" value="role"><input type="hidden" name="share" value="${id}">
<label for="role-${id}" class="visually-hidden">Role of ${e.workgroup.name}</label>
<select id="role-${id}" name="role">${roleOptions(s.roles, e.role.id)}</select>
<button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${e.workgroup.name}</span></button>
</form></td>
<td data-label="Shared by">${e.sharedBy?.username ?? 'someone no longer here'}</td>
<td class="share-actions">${destructiveForm(action, csrf, removal(e, survey.title), {
    label: 'Remove',
    name: `Remove the access of ${e.workgroup.name}`,
    fields: { action: 'remove', share: id },
  })}</td>
</tr>`;
}

function addForm(s: SurveySharing, survey: SurveyRow, csrf: string, error?: ApiError): Html {
  const refused = error
    ? html`<p class="notice danger" role="alert" id="share-error">${error.detail ?? error.message}</p>`
    : '';
  if (s.workgroups.length === 0)
    return html`${refused}<p class="hint" id="no-workgroups">${
      s.shares.length
        ? 'The survey is shared with every workgroup you may share it with.'
        : 'You are in no workgroup to share it with. A team’s owner or admin creates workgroups and adds members on the team’s pages.'
    }</p>`;
  const first = s.workgroups[0];
  return html`<form method="post" action="${shareUrl(survey.manage_token)}" class="share-form">${hidden(csrf)}
<input type="hidden" name="action" value="share">
${refused}
<div><label for="share-workgroup">Workgroup</label>
<select id="share-workgroup" name="workgroup"${error ? raw(' aria-describedby="share-error"') : ''}>${s.workgroups.map(
    (w) => html`<option value="${w.id}">${w.name}</option>`,
  )}</select></div>
<div><label for="share-role">Role</label>
<select id="share-role" name="role" aria-describedby="roles-help">${roleOptions(s.roles, first.default_role_id)}</select></div>
<div class="actions"><button type="submit">Share</button></div>
</form>`;
}

export async function sharePage(app: PageApp, deps: Deps): Promise<void> {
  async function render(
    reply: FastifyReply,
    user: User,
    survey: SurveyRow,
    state: { notice?: string; error?: ApiError; at?: 'workgroup' | 'person'; person?: string },
  ): Promise<FastifyReply> {
    const [s, csrf] = await Promise.all([surveySharing(deps, user.id, survey.id), csrfToken(deps, reply)]);
    const body = html`${surveyHeader(survey, null)}
<h2>Share</h2>
${state.notice ? html`<p class="notice ok" role="status">${state.notice}</p>` : ''}
${state.error && !state.at ? html`<p class="notice danger" role="alert">${state.error.detail ?? state.error.message}</p>` : ''}
<p>Share the survey with a person of your team or with a workgroup: the person, or each member of the workgroup, can then work on it as the role allows (a workgroup member never more than their own role in the workgroup allows), and finds it under “Shared with me” on their survey list.</p>
<section aria-labelledby="access-heading">
<h3 id="access-heading">Who has access</h3>
<table class="cards share-list">
<caption class="visually-hidden">Who has access to this survey, with their role</caption>
<thead><tr><th scope="col">Who</th><th scope="col">Role</th><th scope="col">Shared by</th><th scope="col">Actions</th></tr></thead>
<tbody>
<tr><th scope="row"><span class="badge accent">Owner</span> ${s.owner?.username ?? ''}${s.owner && s.owner.id === user.id ? ' (you)' : ''}</th><td data-label="Role">Owner: everything, including deleting the survey</td><td data-label="Shared by">—</td><td></td></tr>
${s.people.map((e) => personRow(e, s, survey, csrf))}
${s.shares.map((e) => shareRow(e, s, survey, csrf))}
</tbody></table>
${s.shares.length || s.people.length ? '' : html`<p class="muted" id="not-shared">Not shared yet: only the owner has access.</p>`}
</section>
<div class="workspace-panels">
<section class="card" aria-labelledby="person-heading">
<h3 id="person-heading">Share with a person</h3>
${personForm(s, survey, csrf, state.at === 'person' ? { person: state.person, error: state.error } : {})}
</section>
<section class="card" aria-labelledby="add-heading">
<h3 id="add-heading">Share with a workgroup</h3>
${addForm(s, survey, csrf, state.at === 'workgroup' ? state.error : undefined)}
<details id="roles-help"><summary>What each role allows</summary>
<dl class="small">${s.roles.map((r) => html`<dt>${r.name}</dt><dd>${r.description}</dd>`)}</dl></details>
</section>
</div>`;
    const code = state.error ? Math.min(state.error.status, 500) : 200;
    return sendPage(
      reply,
      await userPage(deps, reply, user, `Share: ${survey.title || 'Untitled survey'}`, body, {
        section: 'surveys',
      }),
      code,
      { noindex: true },
    );
  }

  app.get('/share', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
    const { sm, done } = request.query;
    const user = await currentUser(deps, request);
    if (!user) return reply.redirect(loginUrl(shareUrl(sm)), 303);
    const survey = await managedSurvey(deps, { user }, sm, 'design', 'read');
    return render(reply, user, survey, { notice: done ? DONE[done] : undefined });
  });

  app.post(
    '/share',
    { schema: { hide: true, querystring: Query, body: Body }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const { sm } = request.query;
      const user = await currentUser(deps, request);
      if (!user) return reply.redirect(loginUrl(shareUrl(sm)), 303);
      const survey = await managedSurvey(deps, { user }, sm, 'design', 'read');
      const actor = { userId: user.id, ip: request.ip ?? null };
      const b = request.body;
      try {
        if (b.action === 'share') {
          await shareSurveyWith(deps, actor, survey.id, b.workgroup, b.role || undefined);
          return reply.redirect(`${shareUrl(sm)}&done=shared`, 303);
        }
        if (b.action === 'person') {
          await shareWithPerson(deps, actor, survey.id, b.person, b.role || undefined);
          return reply.redirect(`${shareUrl(sm)}&done=person-shared`, 303);
        }
        if (b.action === 'role' || b.action === 'person-role') {
          if (b.action === 'role') await changeSurveyShare(deps, actor, survey.id, b.share, b.role);
          else await changePersonShare(deps, actor, survey.id, b.share, b.role);
          return reply.redirect(`${shareUrl(sm)}&done=role`, 303);
        }
        if (b.action === 'person-remove') {
          if (confirmed(b)) {
            await removePersonShare(deps, actor, survey.id, b.share);
            return reply.redirect(`${shareUrl(sm)}&done=person-removed`, 303);
          }
          const s = await surveySharing(deps, user.id, survey.id);
          const entry = s.people.find((e) => e.share.id === b.share);
          if (!entry) throw new ApiError(1020, 'Share not found.');
          return askFirst(deps, reply, user, {
            action: shareUrl(sm),
            destruction: personRemoval(entry, survey.title),
            cancelHref: shareUrl(sm),
            fields: { action: 'person-remove', share: entry.share.id },
          });
        }
        if (!confirmed(b)) {
          const s = await surveySharing(deps, user.id, survey.id);
          const entry = s.shares.find((e) => e.share.id === b.share);
          if (!entry) throw new ApiError(1020, 'Share not found.');
          return askFirst(deps, reply, user, {
            action: shareUrl(sm),
            destruction: removal(entry, survey.title),
            cancelHref: shareUrl(sm),
            fields: { action: 'remove', share: entry.share.id },
          });
        }
        await removeSurveyShare(deps, actor, survey.id, b.share);
        return reply.redirect(`${shareUrl(sm)}&done=removed`, 303);
      } catch (err) {
        // Refusals about the survey itself (not found, no right to share it) are the error page's.
        const adding = b.action === 'share' || b.action === 'person';
        if (
          !(err instanceof ApiError) ||
          err.status >= 500 ||
          (!adding && (err.code === 1016 || err.code === 1020))
        )
          throw err;
        return render(reply, user, survey, {
          error: err,
          at: b.action === 'share' ? 'workgroup' : b.action === 'person' ? 'person' : undefined,
          person: b.action === 'person' ? b.person : undefined,
        });
      }
    },
  );
}

function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (
    (err instanceof ApiError && err.code === 1020) ||
    (err.validation && err.validationContext === 'querystring')
  )
    return notFoundPage(reply, 'There is no such survey among yours or those shared with you.');
  return pageErrorHandler(err, request, reply);
}

export function sharingPages(deps: Deps) {
  return pageArea('sharing-pages', deps, [sharePage], { errorHandler });
}
