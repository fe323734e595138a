// The account pages: sign-in and sign-out, sign-up and email verification, password reset, the
// settings page, the security page (two-factor sign-in and sessions) and the linked apps of /account.
import type { Deps } from '../../context.js';
import { pageArea } from '../page-area.js';
import { archivePages } from './archive.js';
import { accountAuditPages } from './audit.js';
import { accountPages } from './linked-apps.js';
import { passwordPages } from './password.js';
import { securityPages } from './security.js';
import { settingsPages } from './settings.js';
import { signInPages } from './sign-in.js';
import { secondFactorPages } from './sign-in-two-factor.js';
import { signUpPages } from './signup.js';

/** The plugin's name: the pages that send a visitor to /login (OAuth consent) depend on it. */
export const ACCOUNT_PAGES = 'account-pages';

export function accountArea(deps: Deps) {
  return pageArea(ACCOUNT_PAGES, deps, [
    signInPages,
    secondFactorPages,
    signUpPages,
    passwordPages,
    settingsPages,
    securityPages,
    accountPages,
    accountAuditPages,
    archivePages,
  ]);
}
