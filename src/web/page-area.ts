// One way to declare an area of pages: an encapsulated plugin with cookies, form bodies, CSRF
// protection and the HTML error page (`pageErrorHandler`), so no page scope falls through to the
// API's JSON error handler. Handlers send with `sendPage` and build pages with `page`,
// `workspacePage` or `userPage`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../context.js';
import { pageErrorHandler } from './account/frame.js';
import { webForms } from './session.js';

type ErrorHandler = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;

export function pageArea(
  name: string,
  deps: Deps,
  routes: ((app: FastifyInstance, deps: Deps) => Promise<void> | void)[],
  options: { errorHandler?: ErrorHandler } = {},
) {
  const plugin = async (app: FastifyInstance): Promise<void> => {
    await app.register(webForms);
    app.setErrorHandler(options.errorHandler ?? pageErrorHandler);
    for (const register of routes) await register(app, deps);
  };
  Object.defineProperty(plugin, 'name', { value: name });
  return plugin;
}
