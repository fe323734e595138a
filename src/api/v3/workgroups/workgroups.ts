// Workgroups: GET/POST /workgroups, GET/PATCH/DELETE /workgroups/{id} (spec "Workgroups").
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { requireManage, viewerOf, workgroupFor } from '../../../domain/workgroups/access.js';
import {
  createWorkgroup,
  deleteWorkgroup,
  listWorkgroups,
  updateWorkgroup,
  viewsOf,
} from '../../../domain/workgroups/workgroups.js';
import { envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import { WorkgroupParams, WorkgroupSchema, workgroupJson } from './schemas.js';

const Fields = {
  name: Type.String({ minLength: 1, maxLength: 100, description: 'Workgroup name' }),
  description: Type.String({ maxLength: 1000 }),
  is_visible: Type.Boolean({ description: 'Visible to the other members of the team' }),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'Key/value data' }),
};

export function workgroupsRoutes(app: Api, deps: Deps): void {
  app.get(
    '/workgroups',
    {
      config: { scope: 'workgroups_shares_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'The workgroups the caller may see',
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(WorkgroupSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const viewer = await viewerOf(deps, request.auth.user.id);
      const { total, rows } = await listWorkgroups(deps, viewer, {
        offset: page.offset,
        limit: page.perPage,
      });
      const views = await viewsOf(deps, rows);
      return envelope(
        request,
        page,
        total,
        views.map((v) => workgroupJson(v, viewer.userId)),
      );
    },
  );

  app.post(
    '/workgroups',
    {
      config: { scope: 'workgroups_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Create a workgroup (the caller becomes its sole owner)',
        body: Type.Object(
          {
            name: Fields.name,
            is_visible: Fields.is_visible,
            metadata: Type.Optional(Fields.metadata),
            description: Type.Optional(Fields.description),
          },
          { additionalProperties: false },
        ),
        response: { 201: WorkgroupSchema },
      },
    },
    async (request, reply) => {
      const wg = await createWorkgroup(deps, request.auth.user.id, request.body);
      const [view] = await viewsOf(deps, [wg]);
      return reply.code(201).send(workgroupJson(view, request.auth.user.id));
    },
  );

  app.get(
    '/workgroups/:workgroup_id',
    {
      config: { scope: 'workgroups_shares_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'A workgroup',
        params: WorkgroupParams,
        response: { 200: WorkgroupSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(deps, request.auth.user.id);
      const access = await workgroupFor(deps, viewer, request.params.workgroup_id);
      const [view] = await viewsOf(deps, [access.workgroup]);
      return workgroupJson(view, viewer.userId);
    },
  );

  app.patch(
    '/workgroups/:workgroup_id',
    {
      config: { scope: 'workgroups_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Change a workgroup (its owners and the team admins)',
        params: WorkgroupParams,
        body: Type.Object(
          {
            name: Type.Optional(Fields.name),
            is_visible: Type.Optional(Fields.is_visible),
            metadata: Type.Optional(Fields.metadata),
            description: Type.Optional(Fields.description),
            default_role_id: Type.Optional(Type.String({ description: 'The role new members get' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: WorkgroupSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(deps, request.auth.user.id);
      const access = await workgroupFor(deps, viewer, request.params.workgroup_id);
      requireManage(access);
      const wg = await updateWorkgroup(deps, access, request.body);
      const [view] = await viewsOf(deps, [wg]);
      return workgroupJson(view, viewer.userId);
    },
  );

  app.delete(
    '/workgroups/:workgroup_id',
    {
      config: { scope: 'workgroups_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Delete a workgroup (its owners and the team admins); answers the deleted workgroup',
        params: WorkgroupParams,
        response: { 200: WorkgroupSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(deps, request.auth.user.id);
      const access = await workgroupFor(deps, viewer, request.params.workgroup_id);
      requireManage(access);
      const [view] = await viewsOf(deps, [access.workgroup]);
      await deleteWorkgroup(deps, access);
      return workgroupJson(view, viewer.userId);
    },
  );
}
