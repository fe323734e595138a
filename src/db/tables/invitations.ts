// Tables of email invitations: messages, the collector's recipients, and message deliveries.

export interface CollectorMessagesTable {
  id: string;
  collector_id: string;
  owner_id: string;
  /** invite | reminder | thank_you */
  type: string;
  /** not_sent | processing | sent */
  status: string;
  recipient_status: string | null;
  subject: string;
  body_text: string | null;
  body_html: string | null;
  is_branding_enabled: number;
  embed_first_question: number;
  /** ISO instant the message was sent or is scheduled to go, or null */
  scheduled_date: string | null;
  date_created: string;
  date_modified: string;
}

export interface CollectorRecipientsTable {
  id: string;
  collector_id: string;
  survey_id: string;
  owner_id: string;
  contact_id: string;
  email: string;
  first_name: string;
  last_name: string;
  /** JSON {"1".."6": string} */
  custom_fields: string;
  /** JSON {name: string} */
  extra_fields: string;
  /** Unguessable token of the personal survey link and the opt-out link. */
  token: string;
  date_created: string;
}

export interface MessageRecipientsTable {
  message_id: string;
  recipient_id: string;
  collector_id: string;
  mail_status: string;
  email_id: string | null;
  sent_at: string | null;
}

/** An operator's daily send cap for one account (migration 0052); no row: the server's caps. */
export interface SendLimitsTable {
  user_id: string;
  /** recipients a day; 0 = no cap */
  per_day: number;
  set_at: string;
}

export interface InvitationTables {
  collector_messages: CollectorMessagesTable;
  collector_recipients: CollectorRecipientsTable;
  message_recipients: MessageRecipientsTable;
  send_limits: SendLimitsTable;
}
