// Workgroup shares: a resource (a survey) shared with a workgroup. The share carries a role; the
// privileges a member holds through it are that role's, capped by the member's own role.

export interface WorkgroupSharesTable {
  /** 32-char hex */
  id: string;
  workgroup_id: string;
  /** the workgroup's team, or its owner's account for a workgroup without a team */
  organization_id: string;
  /** the workgroup's owning account (the distribution key) */
  owner_account_id: string;
  /** the user who shared the resource */
  owner_user_id: string;
  /** survey (the only type so far) */
  resource_type: string;
  resource_id: string;
  role_id: string;
  created_at: string;
  updated_at: string;
}

/** A survey shared with one person of the sharer's team, with a role; in effect while they are an active member. */
export interface PersonSharesTable {
  /** 32-char hex */
  id: string;
  survey_id: string;
  user_id: string;
  /** the team both belong to */
  team_id: string;
  /** the survey owner's account (the distribution key) */
  owner_account_id: string;
  /** the user who shared it */
  shared_by: string;
  role_id: string;
  created_at: string;
  updated_at: string;
}

export interface SharingTables {
  workgroup_shares: WorkgroupSharesTable;
  person_shares: PersonSharesTable;
}
