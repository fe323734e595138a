// The audit log (migration 0073): who changed what, how, from where, and whether it was allowed.

export interface AuditLogTable {
  /** 32-char hex (random: the row is written inside the change's commit, with no id to reserve) */
  id: string;
  /** ISO-8601 UTC */
  at: string;
  /** the actor's team when written (the team owner's view), else null */
  team_id: string | null;
  actor_id: string | null;
  /** the actor's username, or `cli` for the command line */
  actor_name: string | null;
  /** session | token | cli | oidc | saml */
  via: string;
  /** the app whose token made an API call */
  app_id: string | null;
  /** the client address (null for the command line) */
  address: string | null;
  /** the API's method and path pattern, a page's method and route, a CLI verb path, or sign_in */
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** ok | denied | failed */
  outcome: string;
  /** the HTTP status of a refused or failed request (null for changes written in their commit) */
  status: number | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
