// Helpers for the sharing tests: surveys, workgroups and shares made through the HTTP API.
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

export const ROLES = {
  fullAccess: '03decb5be70a42428d50f52ac38df3d7',
  viewer: 'f24b9ce183b8430e811d5175831b5937',
  editor: '6965d0ee9f44481aa0ecf6530e49bebd',
  collector: '349c4b49e6634afe83fc453de2989014',
  analyzer: '2cfc26e6d4a64910a2ce927e3a2b31fc',
};

export const VIEWER_PRIVILEGES = ['design.read_only', 'collect.read_only', 'analyze.read_only'];
export const FULL_PRIVILEGES = ['design.full_access', 'collect.full_access', 'analyze.full_access'];

export function api(server: TestServer) {
  const c = server.client;
  const ok = <T>(res: { status: number; body: T }, status: number): T => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  return {
    async survey(token: string, title: string): Promise<{ id: string; title: string }> {
      return ok(await c.post('/v3/surveys', { title }, { token }), 201) as { id: string; title: string };
    },
    async workgroup(token: string, name: string, memberIds: string[] = []): Promise<{ id: string }> {
      const wg = ok(await c.post('/v3/workgroups', { name, is_visible: false }, { token }), 201) as {
        id: string;
      };
      if (memberIds.length > 0)
        ok(
          await c.post(
            `/v3/workgroups/${wg.id}/members/bulk`,
            { members: memberIds.map((user_id) => ({ user_id, is_workgroup_owner: false })) },
            { token },
          ),
          201,
        );
      return wg;
    },
    async share(token: string, workgroupId: string, surveyId: string, roleId?: string): Promise<any> {
      const body: Record<string, string> = { resource_type: 'survey', resource_id: surveyId };
      if (roleId) body.role_id = roleId;
      return ok(await c.post(`/v3/workgroups/${workgroupId}/shares`, body, { token }), 201);
    },
  };
}
