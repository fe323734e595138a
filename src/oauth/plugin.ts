// Sign-in, sign-up, password reset, account, developer, operator and OAuth pages in one scope with
// cookies, form bodies, CSRF protection and HTML error pages; /oauth/token in a child scope answering RFC 6749 errors.
import type { Deps } from '../context.js';
import { accountPages } from '../web/account/linked-apps.js';
import { passwordPages } from '../web/account/password.js';
import { settingsPages } from '../web/account/settings.js';
import { signInPages } from '../web/account/sign-in.js';
import { signUpPages } from '../web/account/signup.js';
import { developerPages } from '../web/developer/apps.js';
import { directoryPages } from '../web/developer/directory.js';
import { operatorPages } from '../web/operator/apps.js';
import { pageArea } from '../web/page-area.js';
import { authorizeRoutes } from './authorize.js';
import { tokenRoutes } from './token.js';

export function oauthPages(deps: Deps) {
  return pageArea('oauth-and-account-pages', deps, [
    signInPages,
    signUpPages,
    passwordPages,
    settingsPages,
    accountPages,
    developerPages,
    directoryPages,
    operatorPages,
    authorizeRoutes,
    async (app) => {
      await app.register(async (token) => tokenRoutes(token, deps));
    },
  ]);
}
