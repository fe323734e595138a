// POST /oauth/token: exchanges an authorization code for the account's access token (spec step 3;
// reference §2.1). Form-encoded (JSON also accepted). Client authentication by client_id and
// client_secret in the body or HTTP Basic. Errors follow RFC 6749 §5.2.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../context.js';
import { type App, isDisabled } from '../domain/accounts/apps.js';
import { exchangeCode, secretMatches } from '../domain/accounts/grants.js';
import { findUserById } from '../domain/accounts/users.js';
import { accessUrl } from '../platform/regions.js';
import type { PageApp } from '../web/page-area.js';

const str = () => Type.Optional(Type.String({ maxLength: 2000 }));
const TokenBody = Type.Object(
  {
    grant_type: str(),
    code: str(),
    redirect_uri: str(),
    client_id: str(),
    client_secret: str(),
    code_verifier: str(),
  },
  { additionalProperties: true },
);
const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  access_url: Type.String(),
});
const OAuthError = Type.Object({ error: Type.String(), error_description: Type.String() });

type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type';

function fail(reply: FastifyReply, error: OAuthErrorCode, description: string, basic = false) {
  const status = error === 'invalid_client' ? 401 : 400;
  if (error === 'invalid_client' && basic) reply.header('www-authenticate', 'Basic realm="oauth"');
  return reply.code(status).send({ error, error_description: description });
}

function basicCredentials(request: FastifyRequest): [string, string] | null | 'malformed' {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return 'malformed';
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return 'malformed';
  const decodePart = (s: string) => {
    try {
      return decodeURIComponent(s.replaceAll('+', ' '));
    } catch {
      return s;
    }
  };
  return [decodePart(decoded.slice(0, i)), decodePart(decoded.slice(i + 1))];
}

export async function tokenRoutes(app: PageApp, deps: Deps): Promise<void> {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.validation || (typeof err.statusCode === 'number' && err.statusCode < 500))
      return fail(reply, 'invalid_request', 'The request is malformed or has an unsupported content type.');
    request.log.error({ err, reqId: request.id }, 'token endpoint error');
    return reply.code(500).send({ error: 'server_error', error_description: `Request id: ${request.id}.` });
  });

  app.post(
    '/oauth/token',
    {
      schema: {
        hide: true,
        body: TokenBody,
        response: { 200: TokenResponse, 400: OAuthError, 401: OAuthError, 500: OAuthError },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const body = request.body ?? {};
      for (const [k, v] of Object.entries(body))
        if (typeof v !== 'string') return fail(reply, 'invalid_request', `${k} must be given once.`);
      const basic = basicCredentials(request);
      if (basic === 'malformed')
        return fail(
          reply,
          'invalid_client',
          'The Authorization header is not valid Basic credentials.',
          true,
        );
      if (basic && (body.client_secret !== undefined || (body.client_id && body.client_id !== basic[0])))
        return fail(
          reply,
          'invalid_request',
          'Send the client credentials once: in the body or in the Authorization header.',
        );
      if (!body.grant_type) return fail(reply, 'invalid_request', 'grant_type is required.');
      if (body.grant_type !== 'authorization_code')
        return fail(reply, 'unsupported_grant_type', 'grant_type must be authorization_code.');
      const [clientId, secret] = basic ?? [body.client_id, body.client_secret];
      if (!clientId || !secret)
        return fail(reply, 'invalid_client', 'client_id and client_secret are required.', !!basic);
      const client: App | undefined = await deps.db.kysely
        .selectFrom('apps')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!client || !secretMatches(deps, client, secret))
        return fail(reply, 'invalid_client', 'Unknown client or wrong client secret.', !!basic);
      if (!body.code) return fail(reply, 'invalid_request', 'code is required.');
      if (!body.redirect_uri) return fail(reply, 'invalid_request', 'redirect_uri is required.');
      if (isDisabled(client, deps.clock.now()))
        return fail(
          reply,
          'unauthorized_client',
          'The app is disabled: its development period ended before it was deployed.',
        );
      const result = await exchangeCode(
        deps,
        client,
        body.code,
        body.redirect_uri,
        body.code_verifier,
        request.ip ?? null,
      );
      if (!result.ok) return fail(reply, result.error, result.description);
      const user = await findUserById(deps, result.userId);
      return {
        access_token: result.token,
        token_type: 'bearer' as const,
        access_url: accessUrl(deps.config, user?.region ?? 'us'),
      };
    },
  );
}
