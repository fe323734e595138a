// The operator's pages: app reviews and erasure of a person's data.
import type { Deps } from '../../context.js';
import { pageArea } from '../page-area.js';
import { operatorPages } from './apps.js';

export function operatorArea(deps: Deps) {
  return pageArea('operator-pages', deps, [operatorPages]);
}
