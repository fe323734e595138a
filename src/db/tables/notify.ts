// Notification tables (migration 0030): account preferences.

export interface AccountPreferencesTable {
  user_id: string;
  /** an IANA time zone name: the account's pages show and take times in it */
  time_zone: string;
}

export interface NotifyTables {
  account_preferences: AccountPreferencesTable;
}
