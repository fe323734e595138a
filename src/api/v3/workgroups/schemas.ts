// Workgroup and workgroup member schemas and their JSON shapes (spec "Workgroup", reference §14).
import { type TSchema, Type } from 'typebox';
import type { WorkgroupMember } from '../../../domain/workgroups/members.js';
import type { WorkgroupView } from '../../../domain/workgroups/workgroups.js';
import { noOffset } from '../../../platform/dates.js';
import { JsonObject, parseAs } from '../../../platform/json.js';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const HEX = '^[0-9a-f]{32}$';

export const WorkgroupParams = Type.Object({ workgroup_id: Type.String({ pattern: HEX }) });
export const WorkgroupMemberParams = Type.Object({
  workgroup_id: Type.String({ pattern: HEX }),
  member_id: Type.String({ pattern: '^[0-9]{1,20}$' }),
});

export const WorkgroupSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    is_visible: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    created_at: Type.String({ description: 'YYYY-MM-DDTHH:MM:SS' }),
    updated_at: Type.String({ description: 'YYYY-MM-DDTHH:MM:SS' }),
    members: Type.Array(Type.Object({ user_id: Type.String(), is_owner: Type.Boolean() }), {
      description: 'Active members',
    }),
    membership: Type.Object({ is_owner: Type.Boolean(), status: Nullable(Type.String()) }),
    shares_count: Type.Integer(),
    share_count: Type.String({
      description: 'shares_count as a string, as the newer documentation names it',
    }),
    members_count: Type.Integer({ description: 'Members including non-active' }),
    default_role: Type.Object({
      id: Type.String(),
      name: Type.String(),
      description: Type.String(),
      is_enabled: Type.Boolean(),
      metadata: Type.Record(Type.String(), Type.Unknown()),
    }),
    organization_id: Type.String(),
  },
  { $id: 'Workgroup' },
);

export function workgroupJson(view: WorkgroupView, viewerId: string) {
  const wg = view.workgroup;
  const mine = view.members.find((m) => m.user_id === viewerId);
  return {
    id: wg.id,
    name: wg.name,
    description: wg.description,
    is_visible: wg.is_visible === 1,
    metadata: parseAs(JsonObject, wg.metadata),
    created_at: noOffset(wg.created_at),
    updated_at: noOffset(wg.updated_at),
    members: view.members
      .filter((m) => m.status === 'active')
      .map((m) => ({ user_id: m.user_id, is_owner: m.is_owner })),
    membership: { is_owner: mine?.is_owner ?? false, status: mine?.status ?? null },
    shares_count: view.sharesCount,
    share_count: String(view.sharesCount),
    members_count: view.members.length,
    default_role: {
      id: view.defaultRole.id,
      name: view.defaultRole.name,
      description: view.defaultRole.description,
      is_enabled: view.defaultRole.is_enabled === 1,
      metadata: parseAs(JsonObject, view.defaultRole.metadata),
    },
    // A workgroup belongs to its team; a user without a team is an organization of one.
    organization_id: wg.team_id ?? wg.owner_account_id,
  };
}

export const WorkgroupMemberSchema = Type.Object(
  {
    id: Type.String({ description: 'The member user id' }),
    workgroup_id: Type.String(),
    is_workgroup_owner: Type.Boolean(),
    role_assignment_id: Type.String(),
    status: Type.String({ description: 'active or pending' }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'WorkgroupMember' },
);

export function workgroupMemberJson(m: WorkgroupMember) {
  return {
    id: m.user_id,
    workgroup_id: m.workgroup_id,
    is_workgroup_owner: m.is_owner === 1,
    role_assignment_id: m.role_assignment_id,
    status: m.status,
    created_at: noOffset(m.created_at),
    updated_at: noOffset(m.updated_at),
  };
}
