// buildApp(): the whole HTTP surface, with every route registered in this one greppable place.
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { collectorsRoutes } from './api/v3/collectors/collectors.js';
import { contactsRoutes } from './api/v3/contacts/contacts.js';
import { contactFieldsRoutes } from './api/v3/contacts/fields.js';
import { contactListsRoutes } from './api/v3/contacts/lists.js';
import { exportsRoutes } from './api/v3/exports/exports.js';
import { groupActivitiesRoutes } from './api/v3/groups/activities.js';
import { groupsRoutes } from './api/v3/groups/groups.js';
import { groupMembersRoutes } from './api/v3/groups/members.js';
import { importsRoutes } from './api/v3/imports/imports.js';
import { messagesRoutes } from './api/v3/messages/messages.js';
import { recipientsRoutes } from './api/v3/messages/recipients.js';
import { errorsRoutes } from './api/v3/meta/errors.js';
import { responsesRoutes } from './api/v3/responses/responses.js';
import { rollupsRoutes } from './api/v3/responses/rollups.js';
import { rolesRoutes } from './api/v3/roles/roles.js';
import { foldersRoutes } from './api/v3/surveys/folders.js';
import { libraryRoutes } from './api/v3/surveys/library.js';
import { pagesRoutes } from './api/v3/surveys/pages.js';
import { quotasRoutes } from './api/v3/surveys/quotas.js';
import { reportScheduleRoutes } from './api/v3/surveys/report-schedule.js';
import { surveysRoutes } from './api/v3/surveys/surveys.js';
import { translationsRoutes } from './api/v3/surveys/translations.js';
import { usersMeRoutes } from './api/v3/users/me.js';
import { userSharedRoutes } from './api/v3/users/shared.js';
import { userWorkgroupsRoutes } from './api/v3/users/workgroups.js';
import { webhooksRoutes } from './api/v3/webhooks/webhooks.js';
import { workgroupMembersRoutes } from './api/v3/workgroups/members.js';
import { workgroupSharesRoutes } from './api/v3/workgroups/shares.js';
import { workgroupsRoutes } from './api/v3/workgroups/workgroups.js';
import type { Deps } from './context.js';
import { installAudit } from './http/audit.js';
import { installRequestObservers } from './http/observe.js';
import { API_PREFIX, errorSender, installHttpConventions, newRequestId } from './http/pipeline.js';
import { securityHeaders } from './http/security-headers.js';
import type { Api, Routes } from './http/types.js';
import { oauthRoutes } from './oauth/plugin.js';
import { healthRoutes } from './ops/health.js';
import { captchaOrigins } from './platform/captcha-config.js';
import { SCOPES } from './platform/scopes.js';
import { accountArea } from './web/account/plugin.js';
import { analyzePages } from './web/analyze/pages.js';
import { resultsPages } from './web/analyze/public-results.js';
import { assets } from './web/assets.js';
import { contactPages } from './web/contacts/plugin.js';
import { developerArea } from './web/developer/plugin.js';
import { docsPages } from './web/docs.js';
import { pageNotFound } from './web/home/not-found.js';
import { homeAndDesignPages } from './web/home/plugin.js';
import { importPages } from './web/import/import.js';
import { integrationsArea } from './web/integrations/plugin.js';
import { optOutPages } from './web/invitations/optout.js';
import { mailOutboxPages } from './web/mail/outbox-page.js';
import { operatorArea } from './web/operator/plugin.js';
import { respondPages } from './web/respond/pages.js';
import { responsesPages } from './web/responses/responses.js';
import { currentUser } from './web/session.js';
import { sharingPages } from './web/sharing/share.js';
import { ssoArea } from './web/sso/plugin.js';
import { surveyWebPages } from './web/surveys/preview.js';
import { teamPages } from './web/teams/accept.js';
import { teamWorkspacePages } from './web/teams/plugin.js';

/** The API's route groups, each declared in src/api/v3/<area>/. */
const apiRoutes: Routes[] = [
  usersMeRoutes,
  errorsRoutes,
  groupsRoutes,
  groupMembersRoutes,
  groupActivitiesRoutes,
  workgroupsRoutes,
  workgroupMembersRoutes,
  userWorkgroupsRoutes,
  rolesRoutes,
  surveysRoutes,
  pagesRoutes,
  foldersRoutes,
  libraryRoutes,
  translationsRoutes,
  quotasRoutes,
  reportScheduleRoutes,
  webhooksRoutes,
  contactsRoutes,
  contactListsRoutes,
  contactFieldsRoutes,
  workgroupSharesRoutes,
  userSharedRoutes,
  collectorsRoutes,
  responsesRoutes,
  rollupsRoutes,
  exportsRoutes,
  importsRoutes,
  messagesRoutes,
  recipientsRoutes,
];

export async function buildApp(deps: Deps): Promise<Api> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // Fastify's own request logs would carry URLs (with codes and answers): installRequestObservers
    // logs the route pattern instead, and only at info.
    logController: new LogController({ disableRequestLogging: true }),
    // Requests log with the server's logger (the few error logs name the request id themselves):
    // a child logger per request costs throughput for nothing.
    childLoggerFactory: (logger) => logger,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    genReqId: newRequestId,
    frameworkErrors: errorSender(config.regionUrls.us),
    requestIdHeader: false,
    // Clients build paths by joining strings: /v3//surveys and /surveys/1/responses/ are meant.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(securityHeaders, { thirdParty: captchaOrigins(config.captcha) });
  installHttpConventions(app, deps, { pageNotFound });
  installAudit(app, deps, {
    pageActor: async (request) => {
      const user = await currentUser(deps, request);
      return user ? { id: user.id, username: user.username } : null;
    },
  });
  installRequestObservers(app, deps.log, config.metrics.port === undefined ? null : deps.metrics);
  await app.register(healthRoutes(deps));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Survey Service API',
        version: '3',
        description:
          'A REST API compatible with the SurveyMonkey API v3. Every request carries `Authorization: bearer <token>`; each operation names the OAuth scope it needs.',
      },
      servers: [{ url: config.regionUrls.us }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          oauth2: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: `${config.regionUrls.us}/oauth/authorize`,
                tokenUrl: `${config.regionUrls.us}/oauth/token`,
                scopes: Object.fromEntries(SCOPES.map((s) => [s.name, s.label])),
              },
            },
          },
        },
      },
      security: [{ bearer: [] }],
    },
    // Each operation documents the scope it needs, from the same route config that enforces it.
    transform: ({ schema, url, route }) => {
      const scope = route.config?.scope;
      if (!url.startsWith(API_PREFIX) || !scope) return { schema, url };
      const description = [schema?.description, `Scope: \`${scope}\`.`].filter(Boolean).join('\n\n');
      return { schema: { ...schema, description, security: [{ oauth2: [scope] }] }, url };
    },
  });

  await app.register(
    async (v3) => {
      const api = v3.withTypeProvider<TypeBoxTypeProvider>();
      for (const routes of apiRoutes) routes(api, deps);
      api.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
    },
    { prefix: API_PREFIX },
  );

  await app.register(assets);
  await app.register(docsPages);
  await app.register(teamPages, { deps });
  await app.register(accountArea(deps));
  await app.register(ssoArea(deps));
  await app.register(developerArea(deps));
  await app.register(operatorArea(deps));
  await app.register(oauthRoutes(deps));
  await app.register(surveyWebPages(deps));
  await app.register(mailOutboxPages(deps));
  await app.register(respondPages(deps));
  await app.register(optOutPages(deps));
  await app.register(analyzePages(deps));
  await app.register(resultsPages(deps));
  await app.register(responsesPages(deps));
  await app.register(homeAndDesignPages(deps));
  await app.register(sharingPages(deps));
  await app.register(contactPages(deps));
  await app.register(teamWorkspacePages(deps));
  await app.register(importPages(deps));
  await app.register(integrationsArea(deps));
  return app;
}
