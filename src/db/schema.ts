// The whole database as Kysely sees it: one interface per area, joined here.
import type { PlatformTables } from './tables/platform.js';
import type { ReachTables } from './tables/reach.js';

export interface Database extends PlatformTables, ReachTables {}
