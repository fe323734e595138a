// One way to declare an area of pages: an encapsulated plugin with cookies, form bodies, CSRF
// protection and the HTML error page (`pageErrorHandler`), so no page scope falls through to the
// API's JSON error handler. Routes get the TypeBox type provider (`PageApp`): each declares its
// params, querystring and body as schemas and its request is typed from them. Handlers send with
// `sendPage` and build pages with `page`, `workspacePage` or `userPage`.
//
// Each area is a named fastify-plugin (encapsulated all the same) that depends on the root's
// `security-headers`, plus whatever other plugins it names: an area registered without them fails
// at start-up with FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED naming both plugins.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import fp from 'fastify-plugin';
import { type Static, type TSchema, Type } from 'typebox';
import Value from 'typebox/value';
import type { Deps } from '../context.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { ApiError } from '../platform/errors.js';
import { pageErrorHandler } from './account/frame.js';
import { twoFactorFirst, webForms } from './session.js';

/** The instance page routes are declared on: TypeBox schemas give typed requests. */
export type PageApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A form field the handler validates itself (browsers send text inputs, empty or not). */
export const Field = Type.Optional(Type.String());
/** A checkbox or multi-select: one value arrives as a string, several as an array. */
export const Checked = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
/** A form with dynamic field names only (answers, slots): every value text or a list of text. */
export const AnyForm = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));

/**
 * A request part as the type of its schema, for a helper that registers routes with a schema still
 * generic (the type provider resolves only concrete ones). Fastify has validated it already: this
 * checks it again instead of casting.
 */
export function validated<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (Value.Check(schema, value)) return value;
  throw new ApiError(1002, 'Some fields of the form are missing or invalid.');
}

type ErrorHandler = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;

export function pageArea(
  name: string,
  deps: Deps,
  routes: ((app: PageApp, deps: Deps) => Promise<void> | void)[],
  options: { errorHandler?: ErrorHandler; dependencies?: string[] } = {},
) {
  return fp(
    async (app: FastifyInstance): Promise<void> => {
      await app.register(webForms);
      app.setErrorHandler(options.errorHandler ?? pageErrorHandler);
      if (deps.config.require2fa) app.addHook('preHandler', twoFactorFirst(deps));
      const pages = app.withTypeProvider<TypeBoxTypeProvider>();
      for (const register of routes) await register(pages, deps);
    },
    { name, encapsulate: true, dependencies: [SECURITY_HEADERS, ...(options.dependencies ?? [])] },
  );
}

/** A page plugin that is not a page area (its own parsers or none): named, encapsulated, and
 * refused at start-up without the security headers. */
export function pagePlugin<Options extends Record<string, unknown>>(
  name: string,
  plugin: (app: PageApp, options: Options) => Promise<void>,
  dependencies: string[] = [],
) {
  return fp(
    (app: FastifyInstance, options: Options) => plugin(app.withTypeProvider<TypeBoxTypeProvider>(), options),
    { name, encapsulate: true, dependencies: [SECURITY_HEADERS, ...dependencies] },
  );
}
