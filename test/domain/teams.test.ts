// A team invitation's accept link (src/web/teams/accept.ts) and what a workgroup share lets a
// member do on a survey's pages (every page decides with requireSurvey): the page tests
// (teams/accept.e2e, collect-page.e2e's Viewer) show the same through the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../src/domain/accounts/sign-in.js';
import { createShares } from '../../src/domain/sharing/shares.js';
import { mayAccess, requireSurvey } from '../../src/domain/surveys/access.js';
import { createSurvey } from '../../src/domain/surveys/surveys.js';
import { INVITATION_DAYS, invitationByToken, invitationToken } from '../../src/domain/teams/invitations.js';
import { addMember, createTeam, joinTeam } from '../../src/domain/teams/teams.js';
import { viewerOf, workgroupFor } from '../../src/domain/workgroups/access.js';
import { addWorkgroupMembers } from '../../src/domain/workgroups/members.js';
import { SYSTEM_ROLE_IDS } from '../../src/domain/workgroups/roles.js';
import { createWorkgroup } from '../../src/domain/workgroups/workgroups.js';
import { type DomainTest, openDomain, refused } from './setup.js';

let t: DomainTest;

beforeAll(async () => {
  t = await openDomain();
});
afterAll(() => t?.close());

async function invited() {
  const owner = await t.account();
  const guest = await t.account();
  const team = await createTeam(t.deps, owner.user, { name: 'Crew' });
  const member = await addMember(
    t.deps,
    team.id,
    { username: guest.user.username, pending: true },
    {
      userId: owner.user.id,
    },
  );
  return { owner, guest, team, member, token: invitationToken(t.deps, member) };
}

describe('a team invitation link', () => {
  it('names the pending invitation; a forged, malformed or expired one names nothing', async () => {
    const { member, token } = await invited();
    expect((await invitationByToken(t.deps, token))?.id).toBe(member.id);
    const forged = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expect(await invitationByToken(t.deps, forged)).toBeNull();
    expect(await invitationByToken(t.deps, '')).toBeNull();
    expect(await invitationByToken(t.deps, `${member.id}.short`)).toBeNull();
    const now = t.clock.now();
    try {
      t.clock.advance(INVITATION_DAYS * 86_400_000 + 1000);
      expect(await invitationByToken(t.deps, token)).toBeNull();
    } finally {
      t.clock.set(now);
    }
  });

  it('is accepted with the invited user’s password only, and once', async () => {
    const { guest, token } = await invited();
    // the page checks the password as sign-in does before joining
    expect((await signIn(t.deps, guest.user.username, 'not the password', '192.0.2.9')).ok).toBe(false);
    expect((await signIn(t.deps, guest.user.username, guest.password, '192.0.2.9')).ok).toBe(true);
    const member = (await invitationByToken(t.deps, token))!;
    await joinTeam(t.deps, member, '192.0.2.9');
    expect(await invitationByToken(t.deps, token)).toBeNull();
    await refused(joinTeam(t.deps, member, '192.0.2.9'), 1025, 'the invitation was already accepted');
  });
});

describe('a survey shared with a workgroup', () => {
  it('gives a Viewer read access to every area and no write access; others see no survey', async () => {
    const owner = await t.account();
    const viewer = await t.account();
    const stranger = await t.account();
    const team = await createTeam(t.deps, owner.user, { name: 'Readers' });
    await addMember(t.deps, team.id, { username: viewer.user.username }, { userId: owner.user.id });
    const wg = await createWorkgroup(t.deps, owner.user.id, { name: 'Readers', is_visible: false });
    const access = await workgroupFor(t.deps, await viewerOf(t.deps, owner.user.id), wg.id);
    await addWorkgroupMembers(t.deps, access, [{ user_id: viewer.user.id, is_workgroup_owner: false }]);
    const survey = await createSurvey(t.deps, owner.actor, { title: 'Shared' });
    await createShares(t.deps, { userId: owner.user.id }, access, [
      { resource_type: 'survey', resource_id: survey.id, role_id: SYSTEM_ROLE_IDS.Viewer },
    ]);
    for (const area of ['design', 'collect', 'analyze'] as const) {
      expect((await requireSurvey(t.deps, viewer.actor, survey.id, area, 'read')).id).toBe(survey.id);
      await refused(requireSurvey(t.deps, viewer.actor, survey.id, area, 'write'), 1016);
      expect(await mayAccess(t.deps, viewer.actor, survey.id, area, 'write')).toBe(false);
      await refused(requireSurvey(t.deps, stranger.actor, survey.id, area, 'read'), 1020);
    }
    expect(await mayAccess(t.deps, owner.actor, survey.id, 'collect', 'write')).toBe(true);
  });
});
