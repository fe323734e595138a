// One way to declare an area of pages: an encapsulated plugin with cookies, form bodies, CSRF
// protection and the HTML error page (`pageErrorHandler`), so no page scope falls through to the
// API's JSON error handler. Handlers send with `sendPage` and build pages with `page`,
// `workspacePage` or `userPage`.
//
// Each area is a named fastify-plugin (encapsulated all the same) that depends on the root's
// `security-headers`, plus whatever other plugins it names: an area registered without them fails
// at start-up with FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED naming both plugins.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../context.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { pageErrorHandler } from './account/frame.js';
import { webForms } from './session.js';

type ErrorHandler = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;

export function pageArea(
  name: string,
  deps: Deps,
  routes: ((app: FastifyInstance, deps: Deps) => Promise<void> | void)[],
  options: { errorHandler?: ErrorHandler; dependencies?: string[] } = {},
) {
  return fp(
    async (app: FastifyInstance): Promise<void> => {
      await app.register(webForms);
      app.setErrorHandler(options.errorHandler ?? pageErrorHandler);
      for (const register of routes) await register(app, deps);
    },
    { name, encapsulate: true, dependencies: [SECURITY_HEADERS, ...(options.dependencies ?? [])] },
  );
}

/** A page plugin that is not a page area (its own parsers or none): named, encapsulated, and
 * refused at start-up without the security headers. */
export function pagePlugin<Options extends Record<string, unknown>>(
  name: string,
  plugin: (app: FastifyInstance, options: Options) => Promise<void>,
  dependencies: string[] = [],
) {
  return fp(plugin, { name, encapsulate: true, dependencies: [SECURITY_HEADERS, ...dependencies] });
}
