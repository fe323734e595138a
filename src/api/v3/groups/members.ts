// Team members: GET /groups/{id}/members (paging, include, division_ids), GET and PATCH
// /groups/{id}/members/{id} (spec "Group member", reference §3.2).
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  changeMemberEmail,
  findMember,
  listMembers,
  type MemberRow,
  teamForCaller,
} from '../../../domain/teams/members.js';
import { baseUrl, envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { withOffset } from '../../../platform/dates.js';
import { ApiError } from '../../../platform/errors.js';
import { isOneOf } from '../../../platform/lists.js';
import { GroupParams, MEMBER_TYPES_DOC, MemberParams, MemberSchema } from './schemas.js';

const INCLUDABLE = ['first_name', 'last_name', 'user_id', 'email', 'type', 'language', 'status'] as const;
type Includable = (typeof INCLUDABLE)[number];

const MemberItem = Type.Object({
  id: Type.String(),
  username: Type.String(),
  href: Type.String(),
  first_name: Type.Optional(Type.String({ description: '"" when unknown' })),
  last_name: Type.Optional(Type.String({ description: '"" when unknown' })),
  user_id: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  type: Type.Optional(Type.String({ description: MEMBER_TYPES_DOC })),
  language: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
});

function commaList(value: string | undefined, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ApiError(1003, `'${name}' must be a comma-separated list.`);
  return [...new Set(items)];
}

export function memberHref(request: FastifyRequest, m: Pick<MemberRow, 'team_id' | 'id'>): string {
  return `${baseUrl(request)}/v3/groups/${m.team_id}/members/${m.id}`;
}

function fullMember(request: FastifyRequest, m: MemberRow) {
  return {
    id: m.id,
    user_id: m.user_id,
    username: m.username,
    first_name: m.first_name ?? '',
    last_name: m.last_name ?? '',
    email: m.email,
    language: m.language,
    type: m.type,
    status: m.status,
    date_created: withOffset(m.date_created),
    href: memberHref(request, m),
  };
}

export function groupMembersRoutes(app: Api, deps: Deps): void {
  app.get(
    '/groups/:group_id/members',
    {
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Users and teams'],
        summary: "The team's members",
        params: GroupParams,
        querystring: Type.Object({
          ...pagingQuery(),
          division_ids: Type.Optional(
            Type.String({ description: 'Comma-separated member ids: only these members' }),
          ),
          include: Type.Optional(
            Type.String({ description: `Comma-separated properties to add: ${INCLUDABLE.join(', ')}` }),
          ),
        }),
        response: { 200: listEnvelopeSchema(MemberItem) },
      },
    },
    async (request) => {
      const q = request.query;
      const include: Includable[] = [];
      for (const name of commaList(q.include, 'include') ?? [])
        if (isOneOf(INCLUDABLE, name)) include.push(name);
        else throw new ApiError(1003, `'include' may name ${INCLUDABLE.join(', ')}; not '${name}'.`);
      const ids = commaList(q.division_ids, 'division_ids');
      if (ids?.some((id) => !/^[0-9]{1,20}$/.test(id)))
        throw new ApiError(1003, "'division_ids' must be comma-separated member ids.");
      const caller = await teamForCaller(deps, request.auth.user.id, request.params.group_id);
      const page = pageOf(q);
      const { total, rows } = await listMembers(deps, caller.team.id, {
        memberIds: ids,
        offset: page.offset,
        limit: page.perPage,
      });
      const data = rows.map((m) => {
        const item: Static<typeof MemberItem> = {
          id: m.id,
          username: m.username,
          href: memberHref(request, m),
        };
        for (const name of include) item[name] = m[name] ?? '';
        return item;
      });
      return envelope(request, page, total, data);
    },
  );

  app.get(
    '/groups/:group_id/members/:member_id',
    {
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Users and teams'],
        summary: 'A team member',
        params: MemberParams,
        response: { 200: MemberSchema },
      },
    },
    async (request) => {
      const caller = await teamForCaller(deps, request.auth.user.id, request.params.group_id);
      return fullMember(request, await findMember(deps, caller.team.id, request.params.member_id));
    },
  );

  app.patch(
    '/groups/:group_id/members/:member_id',
    {
      // The spec names no scope for this write; it is a change to team membership data, so it
      // needs the team scope, and the caller must be the member or an owner/admin of the team.
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Users and teams'],
        summary: "Change a member's email address",
        description:
          "The member may change their own address; an owner or admin may change other members' (only the account owner may change the account owner's). An address another member of the team uses is refused with 409/1026.",
        params: MemberParams,
        body: Type.Object(
          { email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }) },
          { additionalProperties: false },
        ),
        response: { 200: MemberSchema },
      },
    },
    async (request) => {
      const caller = await teamForCaller(deps, request.auth.user.id, request.params.group_id);
      const updated = await changeMemberEmail(deps, caller, request.params.member_id, request.body.email);
      return fullMember(request, updated);
    },
  );
}
