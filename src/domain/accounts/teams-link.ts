// The one place sign-in/OAuth asks whether two accounts share a team (a private app's users must
// belong to its owner's team). The teams work completes this against its membership tables; until
// then only the owner counts as being in the owner's team.
import type { Deps } from '../../context.js';

export async function sameTeam(_deps: Deps, ownerId: string, userId: string): Promise<boolean> {
  return ownerId === userId;
}
