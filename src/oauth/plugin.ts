// Sign-in, sign-up, password reset, account, developer, operator and OAuth pages in one scope with cookies, form bodies,
// CSRF protection and HTML error pages; /oauth/token in a child scope answering RFC 6749 errors.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../context.js';
import { pageErrorHandler } from '../web/account/frame.js';
import { accountPages } from '../web/account/linked-apps.js';
import { passwordPages } from '../web/account/password.js';
import { settingsPages } from '../web/account/settings.js';
import { signInPages } from '../web/account/sign-in.js';
import { signUpPages } from '../web/account/signup.js';
import { developerPages } from '../web/developer/apps.js';
import { directoryPages } from '../web/developer/directory.js';
import { operatorPages } from '../web/operator/apps.js';
import { webForms } from '../web/session.js';
import { authorizeRoutes } from './authorize.js';
import { tokenRoutes } from './token.js';

export function oauthPages(deps: Deps) {
  return async function oauthAndAccountPages(app: FastifyInstance): Promise<void> {
    await app.register(webForms);
    app.setErrorHandler(pageErrorHandler);
    await signInPages(app, deps);
    await signUpPages(app, deps);
    await passwordPages(app, deps);
    await settingsPages(app, deps);
    await accountPages(app, deps);
    await developerPages(app, deps);
    await directoryPages(app, deps);
    await operatorPages(app, deps);
    await authorizeRoutes(app, deps);
    await app.register(async (token) => tokenRoutes(token, deps));
  };
}
