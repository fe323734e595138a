// The OAuth endpoints: /oauth/authorize, the consent page (a page area like any other, so it has
// the pages' cookies, CSRF protection and HTML errors; it sends a signed-out visitor to /login, so
// it needs the account pages), and /oauth/token in a child scope answering RFC 6749 errors.
import type { Deps } from '../context.js';
import { ACCOUNT_PAGES } from '../web/account/plugin.js';
import { pageArea } from '../web/page-area.js';
import { authorizeRoutes } from './authorize.js';
import { tokenRoutes } from './token.js';

export function oauthRoutes(deps: Deps) {
  return pageArea(
    'oauth',
    deps,
    [
      authorizeRoutes,
      async (app) => {
        await app.register(async (token) => tokenRoutes(token, deps));
      },
    ],
    { dependencies: [ACCOUNT_PAGES] },
  );
}
