// The whole database as Kysely sees it: one interface per area, joined here.
import type { AuditTables } from './tables/audit.js';
import type { CollectTables } from './tables/collect.js';
import type { ExportTables } from './tables/exports.js';
import type { ImportTables } from './tables/imports.js';
import type { InvitationTables } from './tables/invitations.js';
import type { NotifyTables } from './tables/notify.js';
import type { OauthTables } from './tables/oauth.js';
import type { PlatformTables } from './tables/platform.js';
import type { QuotaTables } from './tables/quotas.js';
import type { ReachTables } from './tables/reach.js';
import type { ReportTables } from './tables/reports.js';
import type { ResumeTables } from './tables/resume.js';
import type { ScaleTables } from './tables/scale.js';
import type { ScreeningTables } from './tables/screening.js';
import type { SharedResultsTables } from './tables/shared-results.js';
import type { SharingTables } from './tables/sharing.js';
import type { SsoTables } from './tables/sso.js';
import type { SurveyTables } from './tables/surveys.js';
import type { TeamTables } from './tables/teams.js';
import type { ThemeTables } from './tables/themes.js';
import type { TwoFactorTables } from './tables/two-factor.js';
import type { UploadTables } from './tables/uploads.js';
import type { WorkerTables } from './tables/workers.js';

export interface Database
  extends PlatformTables,
    OauthTables,
    TeamTables,
    SurveyTables,
    SharingTables,
    CollectTables,
    ReachTables,
    InvitationTables,
    ExportTables,
    ImportTables,
    UploadTables,
    NotifyTables,
    ThemeTables,
    SharedResultsTables,
    ScaleTables,
    WorkerTables,
    TwoFactorTables,
    AuditTables,
    SsoTables,
    ResumeTables,
    QuotaTables,
    ScreeningTables,
    ReportTables {}
