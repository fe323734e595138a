// The developer pages: a user's own API apps (/developer/apps) and the directory of public apps (/apps).
import type { Deps } from '../../context.js';
import { pageArea } from '../page-area.js';
import { developerPages } from './apps.js';
import { directoryPages } from './directory.js';

export function developerArea(deps: Deps) {
  return pageArea('developer-pages', deps, [developerPages, directoryPages]);
}
