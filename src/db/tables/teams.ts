// Tables of teams (groups), their members, workgroups, workgroup members, roles and the group
// activity log. Same conventions as the platform tables: TEXT ids and ISO-8601 UTC dates, INTEGER
// 0/1 booleans, JSON TEXT for structured values.

export interface TeamsTable {
  id: string;
  name: string;
  /** the account owner's user id (the distribution key of everything the team owns) */
  owner_id: string;
  max_invites: number;
  date_created: string;
}

/** One row per user in a team: a user belongs to at most one team (unique user_id). */
export interface TeamMembersTable {
  id: string;
  team_id: string;
  /** the team owner's account (the distribution key) */
  owner_account_id: string;
  user_id: string;
  /** account_owner | admin | regular */
  type: string;
  /** active | pending (pending until the invitation is accepted) */
  status: string;
  /** when the (latest) invitation was sent; part of the signed accept link, so a resend voids old links */
  invited_at: string | null;
  date_created: string;
}

export interface RolesTable {
  id: string;
  /** null for the system roles every organization shares */
  organization_id: string | null;
  name: string;
  description: string;
  /** JSON array of "<area>.<level>" */
  privileges: string;
  is_system_role: number;
  is_enabled: number;
  metadata: string;
  created_at: string;
  updated_at: string;
}

export interface WorkgroupsTable {
  id: string;
  /** the team that owns it, or null for a workgroup of a user without a team */
  team_id: string | null;
  /** the account that owns it: the team's owner, or the creator without a team */
  owner_account_id: string;
  created_by: string;
  name: string;
  description: string;
  is_visible: number;
  metadata: string;
  default_role_id: string;
  created_at: string;
  updated_at: string;
}

export interface WorkgroupMembersTable {
  workgroup_id: string;
  user_id: string;
  owner_account_id: string;
  is_owner: number;
  role_id: string;
  role_assignment_id: string;
  created_at: string;
  updated_at: string;
}

/**
 * The group activity log: one row per event whose acting user belonged to a team when it happened,
 * written by recordEvent in the event's own transaction. Append-only: rows are never updated.
 */
export interface GroupActivitiesTable {
  /** the id of the event it was derived from */
  event_id: string;
  group_id: string;
  /** the team owner's account (the distribution key) */
  owner_account_id: string;
  user_id: string | null;
  user_name: string;
  email: string;
  member_type: string;
  activity_type: string;
  activity_msg: string;
  ip_address: string;
  city: string | null;
  country: string | null;
  division_name: string | null;
  created_at: string;
}

export interface TeamTables {
  teams: TeamsTable;
  team_members: TeamMembersTable;
  roles: RolesTable;
  workgroups: WorkgroupsTable;
  workgroup_members: WorkgroupMembersTable;
  group_activities: GroupActivitiesTable;
}
