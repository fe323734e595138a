// Workgroup members (reference §14.1–14.2): list, add, bulk add, read, change ownership, remove.
// The member id in paths is the member's user id.
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import { requireManage, viewerOf, workgroupFor } from '../../../domain/workgroups/access.js';
import {
  addWorkgroupMembers,
  findWorkgroupMember,
  listWorkgroupMembers,
  removeWorkgroupMember,
  setWorkgroupOwner,
} from '../../../domain/workgroups/members.js';
import { envelope, listEnvelopeSchema, pageOf, pagingQuery } from '../../../http/paging.js';
import type { Api } from '../../../http/types.js';
import {
  WorkgroupMemberParams,
  WorkgroupMemberSchema,
  WorkgroupParams,
  workgroupMemberJson,
} from './schemas.js';

const NewMember = Type.Object(
  {
    user_id: Type.String({ pattern: '^[0-9]{1,20}$', description: 'A user of the workgroup team' }),
    is_workgroup_owner: Type.Boolean(),
  },
  { additionalProperties: false },
);

export function workgroupMembersRoutes(app: Api, deps: Deps): void {
  const access = async (userId: string, workgroupId: string) =>
    workgroupFor(deps, await viewerOf(deps, userId), workgroupId);

  app.get(
    '/workgroups/:workgroup_id/members',
    {
      config: { scope: 'workgroups_members_read' },
      schema: {
        tags: ['Workgroups'],
        summary: "A workgroup's members",
        params: WorkgroupParams,
        querystring: Type.Object(pagingQuery()),
        response: { 200: listEnvelopeSchema(WorkgroupMemberSchema) },
      },
    },
    async (request) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      const page = pageOf(request.query);
      const { total, rows } = await listWorkgroupMembers(deps, a, {
        offset: page.offset,
        limit: page.perPage,
      });
      return envelope(request, page, total, rows.map(workgroupMemberJson));
    },
  );

  app.post(
    '/workgroups/:workgroup_id/members',
    {
      config: { scope: 'workgroups_members_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Add a member (a user of the workgroup team)',
        params: WorkgroupParams,
        body: NewMember,
        response: { 201: WorkgroupMemberSchema },
      },
    },
    async (request, reply) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      requireManage(a);
      const [added] = await addWorkgroupMembers(deps, a, [request.body]);
      return reply.code(201).send(workgroupMemberJson(added));
    },
  );

  app.post(
    '/workgroups/:workgroup_id/members/bulk',
    {
      config: { scope: 'workgroups_members_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Add several members at once (all or none)',
        params: WorkgroupParams,
        body: Type.Object(
          { members: Type.Array(NewMember, { minItems: 1, maxItems: 100 }) },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ members: Type.Array(WorkgroupMemberSchema) }) },
      },
    },
    async (request, reply) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      requireManage(a);
      const added = await addWorkgroupMembers(deps, a, request.body.members);
      return reply.code(201).send({ members: added.map(workgroupMemberJson) });
    },
  );

  app.get(
    '/workgroups/:workgroup_id/members/:member_id',
    {
      config: { scope: 'workgroups_members_read' },
      schema: {
        tags: ['Workgroups'],
        summary: 'A workgroup member',
        params: WorkgroupMemberParams,
        response: { 200: WorkgroupMemberSchema },
      },
    },
    async (request) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      return workgroupMemberJson(await findWorkgroupMember(deps, a, request.params.member_id));
    },
  );

  app.patch(
    '/workgroups/:workgroup_id/members/:member_id',
    {
      config: { scope: 'workgroups_members_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Make a member an owner of the workgroup, or not',
        params: WorkgroupMemberParams,
        body: Type.Object({ is_workgroup_owner: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: WorkgroupMemberSchema },
      },
    },
    async (request) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      requireManage(a);
      const m = await setWorkgroupOwner(deps, a, request.params.member_id, request.body.is_workgroup_owner);
      return workgroupMemberJson(m);
    },
  );

  app.delete(
    '/workgroups/:workgroup_id/members/:member_id',
    {
      config: { scope: 'workgroups_members_write' },
      schema: {
        tags: ['Workgroups'],
        summary: 'Remove a member (owners and team admins; a member may leave); answers the removed member',
        params: WorkgroupMemberParams,
        response: { 200: WorkgroupMemberSchema },
      },
    },
    async (request) => {
      const a = await access(request.auth.user.id, request.params.workgroup_id);
      if (request.params.member_id !== request.auth.user.id) requireManage(a);
      return workgroupMemberJson(await removeWorkgroupMember(deps, a, request.params.member_id));
    },
  );
}
