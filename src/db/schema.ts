// The whole database as Kysely sees it: one interface per area, joined here.
import type { CollectTables } from './tables/collect.js';
import type { PlatformTables } from './tables/platform.js';
import type { SurveyTables } from './tables/surveys.js';
import type { TeamTables } from './tables/teams.js';

export interface Database extends PlatformTables, TeamTables, SurveyTables, CollectTables {}
