// Workgroup shares (reference §14.1, §14.3): GET/POST /workgroups/{id}/shares, POST .../bulk,
// GET/PATCH/DELETE /workgroups/{id}/shares/{share_id}. A share carries a role (role_id, default
// the workgroup's default role); PATCH changes it. Who may do what: src/domain/sharing/shares.ts.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  changeShareRole,
  createShares,
  findShare,
  listShares,
  removeShare,
} from '../../../domain/sharing/shares.js';
import { viewerOf, workgroupFor } from '../../../domain/workgroups/access.js';
import { envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { WorkgroupParams } from './schemas.js';
import {
  IncludeQuery,
  parseInclude,
  ShareParams,
  ShareSchema,
  SURVEY_ID,
  sharesJson,
} from './share-schemas.js';

const RoleId = Type.String({
  pattern: '^[0-9a-f]{32}$',
  description: 'The role whose privileges the share gives (GET /roles); default: the workgroup default role',
});

const NewShare = Type.Object(
  {
    resource_type: Type.Literal('survey'),
    resource_id: Type.String({ pattern: SURVEY_ID, description: 'The survey to share' }),
    role_id: Type.Optional(RoleId),
  },
  { additionalProperties: false },
);

export function workgroupSharesRoutes(app: Api, deps: Deps): void {
  const access = async (userId: string, workgroupId: string) =>
    workgroupFor(deps, await viewerOf(deps, userId), workgroupId);

  app.get(
    '/workgroups/:workgroup_id/shares',
    {
      config: { scope: 'workgroups_shares_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'The resources shared with a workgroup',
        params: WorkgroupParams,
        querystring: Type.Object({ ...pagingQuery(), include: IncludeQuery }),
        response: { 200: listEnvelopeSchema(ShareSchema) },
      },
    },
    async (request) => {
      const include = parseInclude(request.query.include);
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const page = pageOf(request.query);
      const { total, rows } = await listShares(deps, a, { offset: page.offset, limit: page.perPage });
      return envelope(request, page, total, await sharesJson(deps, request, rows, include));
    },
  );

  app.post(
    '/workgroups/:workgroup_id/shares',
    {
      config: { scope: 'workgroups_shares_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Share a survey with the workgroup (its owner or a user with full access to it)',
        params: WorkgroupParams,
        body: NewShare,
        response: { 201: ShareSchema },
      },
    },
    async (request, reply) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const actor = { userId: request.auth.user.id, ip: request.ip };
      const [share] = await createShares(deps, actor, a, [request.body]);
      const [json] = await sharesJson(deps, request, [share], new Set(['permissions']));
      return reply.code(201).send(json);
    },
  );

  app.post(
    '/workgroups/:workgroup_id/shares/bulk',
    {
      config: { scope: 'workgroups_shares_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Share several surveys with the workgroup at once (all or none)',
        params: WorkgroupParams,
        body: Type.Object(
          { shares: Type.Array(NewShare, { minItems: 1, maxItems: 100 }) },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ shares: Type.Array(ShareSchema) }) },
      },
    },
    async (request, reply) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const actor = { userId: request.auth.user.id, ip: request.ip };
      const shares = await createShares(deps, actor, a, request.body.shares);
      return reply
        .code(201)
        .send({ shares: await sharesJson(deps, request, shares, new Set(['permissions'])) });
    },
  );

  app.get(
    '/workgroups/:workgroup_id/shares/:share_id',
    {
      config: { scope: 'workgroups_shares_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'A share of the workgroup',
        params: ShareParams,
        querystring: Type.Object({ include: IncludeQuery }),
        response: { 200: ShareSchema },
      },
    },
    async (request) => {
      const include = parseInclude(request.query.include);
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const share = await findShare(deps, a, request.params.share_id);
      const [json] = await sharesJson(deps, request, [share], include);
      return json;
    },
  );

  app.patch(
    '/workgroups/:workgroup_id/shares/:share_id',
    {
      config: { scope: 'workgroups_shares_write' },
      schema: {
        tags: ['Workgroups'],
        summary: "Change a share's privileges by giving it another role (the survey's owner or full access)",
        params: ShareParams,
        body: Type.Object({ role_id: RoleId }, { additionalProperties: false }),
        response: { 200: ShareSchema },
      },
    },
    async (request) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const actor = { userId: request.auth.user.id, ip: request.ip };
      const share = await changeShareRole(deps, actor, a, request.params.share_id, request.body.role_id);
      const [json] = await sharesJson(deps, request, [share], new Set(['permissions']));
      return json;
    },
  );

  app.delete(
    '/workgroups/:workgroup_id/shares/:share_id',
    {
      config: { scope: 'workgroups_shares_write' },
      schema: {
        tags: ['Workgroups'],
        summary:
          'Stop sharing (the survey’s owner, a user with full access, or a workgroup manager); answers the removed share',
        params: ShareParams,
        response: { 200: ShareSchema },
      },
    },
    async (request) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const actor = { userId: request.auth.user.id, ip: request.ip };
      const share = await removeShare(deps, actor, a, request.params.share_id);
      const [json] = await sharesJson(deps, request, [share]);
      return json;
    },
  );
}
