// The Team pages (/team): members, invitations and roles, workgroups, and the team's activity.
import type { Deps } from '../../context.js';
import { pageArea } from '../page-area.js';
import { activityRoutes } from './activity.js';
import { memberRoutes } from './members.js';
import { workgroupRoutes } from './workgroups.js';

export function teamWorkspacePages(deps: Deps) {
  return pageArea('team-workspace-pages', deps, [memberRoutes, workgroupRoutes, activityRoutes]);
}
