// Share schemas and JSON shapes: the workgroup share (reference §14.3) and the user-scoped shared
// resource record (spec "Shared resource record"), with include=permissions,resource_details.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import type { SharedRecord } from '../../../domain/sharing/shared-with.js';
import type { Share } from '../../../domain/sharing/shares.js';
import { privilegesOf, type Role, rolesById } from '../../../domain/workgroups/roles.js';
import { baseUrl } from '../../../http/paging.js';
import { noOffset } from '../../../platform/dates.js';
import { badQuery } from '../../../platform/errors.js';
import { isOneOf } from '../../../platform/lists.js';

const HEX = '^[0-9a-f]{32}$';
export const SURVEY_ID = '^[0-9]{1,20}$';

export const ShareParams = Type.Object({
  workgroup_id: Type.String({ pattern: HEX }),
  share_id: Type.String({ pattern: HEX }),
});

export const SHARE_INCLUDES = ['permissions', 'resource_details'] as const;
export type ShareInclude = (typeof SHARE_INCLUDES)[number];

export const IncludeQuery = Type.Optional(
  Type.String({ maxLength: 100, description: 'Comma-separated: permissions, resource_details' }),
);

export function parseInclude(raw: string | undefined): Set<ShareInclude> {
  const out = new Set<ShareInclude>();
  for (const part of (raw ?? '').split(',')) {
    const v = part.trim();
    if (!v) continue;
    if (!isOneOf(SHARE_INCLUDES, v))
      throw badQuery(`'include' value ${v} is not one of ${SHARE_INCLUDES.join(', ')}.`);
    out.add(v);
  }
  return out;
}

const Privileges = Type.Array(Type.String(), {
  description: '<area>.<level>: areas design, collect, analyze; levels read_only, full_access',
});
const RoleRef = Type.Object({ id: Type.String(), name: Type.String() });
interface ResourceDetailsJson {
  id: string;
  title: string;
  nickname: string;
  owner_user_id: string;
  href: string;
}

const ResourceDetails = Type.Object({
  id: Type.String(),
  title: Type.String(),
  nickname: Type.String(),
  owner_user_id: Type.String({ description: 'The owner of the survey' }),
  href: Type.String(),
});

export const ShareSchema = Type.Object(
  {
    id: Type.String({ description: '32-char hex' }),
    organization_id: Type.String(),
    workgroup_id: Type.String(),
    owner_user_id: Type.String({ description: 'The user who shared the resource' }),
    resource_type: Type.String({ description: 'survey' }),
    resource_id: Type.String(),
    role_id: Type.String({ description: 'The role (privileges) the share gives the workgroup' }),
    created_at: Type.String({ description: 'YYYY-MM-DDTHH:MM:SS' }),
    updated_at: Type.String({ description: 'YYYY-MM-DDTHH:MM:SS' }),
    href: Type.String(),
    privileges: Type.Optional({ ...Privileges, description: 'include=permissions: the role’s privileges' }),
    role: Type.Optional(RoleRef),
    resource_details: Type.Optional(ResourceDetails),
  },
  { $id: 'Share' },
);

export const SharedRecordSchema = Type.Object(
  {
    share_id: Type.String(),
    workgroup_id: Type.String(),
    owner_user_id: Type.String({ description: 'The user who shared the resource' }),
    resource_type: Type.String({ description: 'survey' }),
    resource_id: Type.String(),
    privileges: { ...Privileges, description: 'What the share gives this user' },
    role: Type.Optional(RoleRef),
    resource_details: Type.Optional(ResourceDetails),
  },
  { $id: 'SharedRecord' },
);

/** Builds the JSON of shares, loading roles and surveys only when `include` asks for them. */
async function extras(deps: Deps, request: FastifyRequest, shares: Share[], include: Set<ShareInclude>) {
  const roles: Map<string, Role> = include.has('permissions')
    ? await rolesById(
        deps,
        shares.map((s) => s.role_id),
      )
    : new Map();
  const surveys = include.has('resource_details')
    ? await deps.db.kysely
        .selectFrom('surveys')
        .select(['id', 'title', 'nickname', 'owner_id'])
        .where('id', 'in', shares.length ? shares.map((s) => s.resource_id) : [''])
        .execute()
        .then((rows) => new Map(rows.map((r) => [r.id, r])))
    : new Map();
  const base = baseUrl(request);
  return (s: Share) => {
    const out: {
      role?: { id: string; name: string };
      resource_details?: ResourceDetailsJson;
      rolePrivileges?: string[];
    } = {};
    const role = roles.get(s.role_id);
    if (role) {
      out.role = { id: role.id, name: role.name };
      out.rolePrivileges = privilegesOf(role);
    }
    const survey = surveys.get(s.resource_id);
    if (survey)
      out.resource_details = {
        id: survey.id,
        title: survey.title,
        nickname: survey.nickname,
        owner_user_id: survey.owner_id,
        href: `${base}/v3/surveys/${survey.id}`,
      };
    return out;
  };
}

export async function sharesJson(
  deps: Deps,
  request: FastifyRequest,
  shares: Share[],
  include: Set<ShareInclude> = new Set(),
) {
  const more = await extras(deps, request, shares, include);
  const base = baseUrl(request);
  return shares.map((s) => {
    const x = more(s);
    return {
      id: s.id,
      organization_id: s.organization_id,
      workgroup_id: s.workgroup_id,
      owner_user_id: s.owner_user_id,
      resource_type: s.resource_type,
      resource_id: s.resource_id,
      role_id: s.role_id,
      created_at: noOffset(s.created_at),
      updated_at: noOffset(s.updated_at),
      href: `${base}/v3/workgroups/${s.workgroup_id}/shares/${s.id}`,
      ...(x.rolePrivileges ? { privileges: x.rolePrivileges, role: x.role } : {}),
      ...(x.resource_details ? { resource_details: x.resource_details } : {}),
    };
  });
}

export async function sharedRecordsJson(
  deps: Deps,
  request: FastifyRequest,
  records: SharedRecord[],
  include: Set<ShareInclude>,
) {
  const more = await extras(
    deps,
    request,
    records.map((r) => r.share),
    include,
  );
  return records.map(({ share, privileges }) => {
    const x = more(share);
    return {
      share_id: share.id,
      workgroup_id: share.workgroup_id,
      owner_user_id: share.owner_user_id,
      resource_type: share.resource_type,
      resource_id: share.resource_id,
      privileges,
      ...(x.role ? { role: x.role } : {}),
      ...(x.resource_details ? { resource_details: x.resource_details } : {}),
    };
  });
}
