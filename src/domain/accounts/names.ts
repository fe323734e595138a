// The account's own first and last name (the users row's first_name/last_name, which GET
// /v3/users/me reports): set on the account page, merged into an owner's previews and test sends.
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';

export const MAX_NAME_CHARS = 100;

function cleanName(value: string, what: string): string | null {
  const name = value.trim().replace(/\s+/g, ' ');
  if (name.length > MAX_NAME_CHARS)
    throw new ApiError(1002, `The ${what} is longer than ${MAX_NAME_CHARS} characters.`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name))
    throw new ApiError(1002, `The ${what} has characters that cannot be shown.`);
  return name === '' ? null : name;
}

/** Sets (or clears, when empty) the account's first and last name. */
export async function setNames(deps: Deps, userId: string, first: string, last: string): Promise<void> {
  const first_name = cleanName(first, 'first name');
  const last_name = cleanName(last, 'last name');
  await deps.db.kysely.updateTable('users').set({ first_name, last_name }).where('id', '=', userId).execute();
}
