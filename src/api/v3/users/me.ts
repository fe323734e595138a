// GET /v3/users/me: the calling account (spec "User", reference §3.1).
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { baseUrl } from '../../../http/paging.js';
import type { Routes } from '../../../http/types.js';
import { micro, withOffset } from '../../../platform/dates.js';
import { parseAs, StringList } from '../../../platform/json.js';
import { features, QUESTION_TYPE_FLAGS, questionTypes } from '../../../platform/plans.js';

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    first_name: Type.String({ description: '"" when unknown' }),
    last_name: Type.String({ description: '"" when unknown' }),
    language: Type.String({ description: 'ISO 639-1 code of the account language' }),
    email: Type.String(),
    email_verified: Type.Boolean(),
    account_type: Type.String({ description: "The user's plan" }),
    date_created: Type.String(),
    date_last_login: Type.String({ description: 'The account creation time until the first sign-in' }),
    question_types: Type.Object(Object.fromEntries(QUESTION_TYPE_FLAGS.map((f) => [f, Type.Boolean()]))),
    scopes: Type.Object({ granted: Type.Array(Type.String()), available: Type.Array(Type.String()) }),
    sso_connections: Type.Array(Type.String()),
    features: Type.Object({
      collector_create_limit: Type.Union([Type.String(), Type.Integer()]),
      collector_email_enabled: Type.Boolean(),
      collector_thank_you_enabled: Type.Boolean(),
      create_question_limit: Type.Union([Type.String(), Type.Integer()]),
      num_free_responses: Type.Union([Type.String(), Type.Integer()]),
    }),
    href: Type.String(),
  },
  { $id: 'User' },
);

const JSON_UTF8 = 'application/json; charset=utf-8';

export const usersMeRoutes: Routes = (app, deps) => {
  /** Each token's serialized answer per host, for the remembered caller it was built from. */
  const rendered = deps.caches.usersMe;
  app.get(
    '/users/me',
    {
      config: { scope: 'users_read' },
      schema: {
        tags: ['Users and teams'],
        summary: 'The calling user',
        response: { 200: UserSchema },
      },
    },
    async (request, reply) => {
      const { user, granted, available, plan, tokenId } = request.auth;
      const base = baseUrl(request);
      const key = `${tokenId}|${base}`;
      // The answer depends only on the caller and the host, and auth.ts hands out the same caller
      // object while no token, user or app changes: serialize it once for that span.
      const known = rendered.get(key);
      // Sent as text already JSON (the typed reply only takes the object; the bytes are the same).
      const untyped = reply as FastifyReply;
      if (known?.user === user) return untyped.type(JSON_UTF8).send(known.json);
      const json = untyped.serialize({
        id: user.id,
        username: user.username,
        first_name: user.first_name ?? '',
        last_name: user.last_name ?? '',
        language: user.language,
        email: user.email,
        email_verified: user.email_verified === 1,
        account_type: user.account_type,
        date_created: withOffset(user.date_created),
        date_last_login: micro(user.date_last_login ?? user.date_created),
        question_types: questionTypes(plan),
        scopes: { granted: [...granted], available: [...available] },
        sso_connections: parseAs(StringList, user.sso_connections),
        features: features(plan),
        href: `${base}/v3/users/me`,
      }) as string;
      rendered.set(key, { user, json });
      return untyped.type(JSON_UTF8).send(json);
    },
  );
};
