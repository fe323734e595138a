// The integrations pages: the account's webhooks (/integrations).
import type { Deps } from '../../context.js';
import { pageArea } from '../page-area.js';
import { integrationPages } from './integrations.js';

export function integrationsArea(deps: Deps) {
  return pageArea('integrations-pages', deps, [integrationPages]);
}
