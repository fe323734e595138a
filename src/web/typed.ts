// Typed readings of stored values the pages show: a user's plan and JSON lists of text.
import type { User } from '../domain/accounts/users.js';
import { isPlan, type Plan } from '../platform/plans.js';

/** The user's plan (an account type outside the list of plans reads as the free plan). */
export function planOf(user: Pick<User, 'account_type'>): Plan {
  return isPlan(user.account_type) ? user.account_type : 'basic';
}

/** A stored JSON array of text (redirect URIs, object ids): its strings, anything else dropped. */
export function textList(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
