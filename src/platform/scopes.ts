// The 22 OAuth scopes of the spec, with their labels and whether they need a paid plan.
// `paid: 'partly'` marks scopes the basic plan may use in part (weblink collectors; the first 25
// responses per survey): the endpoint itself enforces the rest, not the generic scope check.

export type PaidRule = 'no' | 'yes' | 'partly';

export const SCOPES = [
  { name: 'surveys_read', label: 'View Surveys', paid: 'no' },
  { name: 'surveys_write', label: 'Create/Modify Surveys', paid: 'no' },
  { name: 'collectors_read', label: 'View Collectors', paid: 'no' },
  { name: 'collectors_write', label: 'Create/Modify Collectors', paid: 'partly' },
  { name: 'contacts_read', label: 'View Contacts', paid: 'no' },
  { name: 'contacts_write', label: 'Create/Modify Contacts', paid: 'no' },
  { name: 'responses_read', label: 'View Responses', paid: 'no' },
  { name: 'responses_read_detail', label: 'View Response Details', paid: 'partly' },
  { name: 'responses_write', label: 'Create/Modify Responses', paid: 'yes' },
  { name: 'webhooks_read', label: 'View Webhooks', paid: 'no' },
  { name: 'webhooks_write', label: 'Create/Modify Webhooks', paid: 'no' },
  { name: 'users_read', label: 'View Users', paid: 'no' },
  { name: 'groups_read', label: 'View Teams', paid: 'yes' },
  { name: 'library_read', label: 'View Library Assets', paid: 'no' },
  { name: 'workgroups_read', label: 'View Workgroups', paid: 'yes' },
  { name: 'workgroups_write', label: 'Create/Modify Workgroups', paid: 'yes' },
  { name: 'workgroups_members_read', label: 'View Workgroup Members', paid: 'yes' },
  { name: 'workgroups_members_write', label: 'Create/Modify Workgroup Members', paid: 'yes' },
  { name: 'roles_read', label: 'View Roles', paid: 'yes' },
  { name: 'roles_write', label: 'Create/Modify Roles', paid: 'yes' },
  { name: 'workgroups_shares_read', label: 'View Workgroups Shared Resources', paid: 'yes' },
  { name: 'workgroups_shares_write', label: 'Create/Modify Workgroups Shared Resources', paid: 'yes' },
] as const satisfies ReadonlyArray<{ name: string; label: string; paid: PaidRule }>;

export type Scope = (typeof SCOPES)[number]['name'];

export const SCOPE_NAMES: readonly Scope[] = SCOPES.map((s) => s.name);

const byName = new Map<string, (typeof SCOPES)[number]>(SCOPES.map((s) => [s.name, s]));

export function isScope(name: string): name is Scope {
  return byName.has(name);
}

export function scopeInfo(name: Scope) {
  return byName.get(name)!;
}

/** Scopes a public app may use only after the operator approves them for that app. */
export const OPERATOR_APPROVED_SCOPES: readonly Scope[] = ['surveys_write', 'responses_write'];

/** Parses a comma-separated scope list, rejecting unknown names. */
export function parseScopeList(list: string): Scope[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const scopes: Scope[] = [];
  for (const name of names) {
    if (!isScope(name)) throw new Error(`unknown scope: ${name}`);
    if (!scopes.includes(name)) scopes.push(name);
  }
  return scopes;
}
