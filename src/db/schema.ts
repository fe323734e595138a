// The whole database as Kysely sees it: one interface per area, joined here.
import type { CollectTables } from './tables/collect.js';
import type { PlatformTables } from './tables/platform.js';
import type { SurveyTables } from './tables/surveys.js';

export interface Database extends PlatformTables, SurveyTables, CollectTables {}
