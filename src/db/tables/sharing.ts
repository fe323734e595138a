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

export interface SharingTables {
  workgroup_shares: WorkgroupSharesTable;
}
