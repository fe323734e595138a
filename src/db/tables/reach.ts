// Tables of "reaching people": contacts and contact lists, webhooks with their deliveries and
// attempts, the email outbox, and the marker of which events the worker has fanned out.

export interface ContactsTable {
  id: string;
  owner_id: string;
  first_name: string;
  last_name: string;
  /** lower-cased for matching; null when the contact has only a phone number */
  email: string | null;
  phone_number: string | null;
  custom_1: string;
  custom_2: string;
  custom_3: string;
  custom_4: string;
  custom_5: string;
  custom_6: string;
  /** active | optout | bounced */
  status: string;
  created_at: string;
  updated_at: string;
}

export interface ContactListsTable {
  id: string;
  owner_id: string;
  name: string;
  created_at: string;
}

export interface ContactListMembersTable {
  list_id: string;
  contact_id: string;
  owner_id: string;
  added_at: string;
}

/** Only labels that were changed are stored; the rest are "Custom N". */
export interface ContactFieldsTable {
  owner_id: string;
  field_id: string;
  label: string;
}

export interface WebhooksTable {
  id: string;
  owner_id: string;
  /** the app whose token created the webhook: its client id and secret sign the deliveries;
   * '' for a webhook made on the /integrations page (signed with its Standard Webhooks secret only) */
  app_id: string;
  name: string;
  event_type: string;
  object_type: string;
  /** JSON array of digit strings */
  object_ids: string;
  subscription_url: string;
  authorization: string | null;
  created_at: string;
  updated_at: string;
  /** set while paused: no deliveries are made or sent (migration 0035) */
  paused_at: string | null;
  /** the body's format: 'surveymonkey' (reference §13.3) or 'slack' (`{"text": …}`) */
  format: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  owner_id: string;
  webhook_id: string;
  event_id: string;
  /** the exact JSON body sent on every attempt */
  body: string;
  /** pending | delivered | failed */
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** retries stop once an attempt fails after this instant */
  retry_until: string;
  /** a worker holds the delivery until this instant; a crashed worker's claim simply expires */
  claimed_until: string | null;
  claim_token: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  /** when the first attempt started (migration 0062; null before it, and again after a redelivery) */
  first_attempt_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  owner_id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  /** delivered | retry | failed */
  outcome: string;
}

export interface EmailsTable {
  id: string;
  owner_id: string | null;
  to_address: string;
  from_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** JSON object of extra headers */
  headers: string;
  /** what the email is for (e.g. "invite") and the id it belongs to, for the invitation work */
  purpose: string | null;
  ref_id: string | null;
  /** pending | sent | failed */
  status: string;
  attempts: number;
  next_attempt_at: string;
  retry_until: string;
  claimed_until: string | null;
  claim_token: string | null;
  last_error: string | null;
  /** Message-ID from the transport, or the .eml file name in the local outbox */
  transport_id: string | null;
  created_at: string;
  sent_at: string | null;
  /** when the first attempt started (migration 0062; null before it) */
  first_attempt_at: string | null;
  /** JSON reference to a file the worker attaches when sending, e.g. {"kind":"survey_report",
   * "survey_id":"…"} (migration 0085; null for none) */
  attachment: string | null;
}

export interface EmailAttemptsTable {
  id: string;
  email_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  error: string | null;
  outcome: string;
}

/** Events the worker has fanned out to webhook deliveries (one row per event, written once). */
export interface EventDispatchTable {
  event_id: string;
  dispatched_at: string;
}

export interface ReachTables {
  contacts: ContactsTable;
  contact_lists: ContactListsTable;
  contact_list_members: ContactListMembersTable;
  contact_fields: ContactFieldsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  emails: EmailsTable;
  email_attempts: EmailAttemptsTable;
  event_dispatch: EventDispatchTable;
}
