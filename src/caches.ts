// Every piece of process-wide state, in two typed registries built per Deps (so per database,
// never shared by two databases one process serves: tests do), and nowhere else (no module-level
// `let`, Map or counter: test/unit/architecture.test.ts).
// - `deps.caches`: what only saves work. Each entry says what it is keyed by, is bounded, and can be
//   cleared (`clearAll()` empties them all); tests can look inside. A cache is keyed by what makes
//   it exact (a version, an epoch), and clearing any of them changes no answer.
// - `deps.runners`: what does work of its own (background runners, chores' schedules): not caches,
//   so `clearAll()` leaves them alone.
// Pure constant tables (scopes by name, languages, templates) are neither.
//
// It imports only types, so Deps (context.ts) can name it.
import type { ValidateFunction } from 'ajv';
import type { Selectable } from 'kysely';
import type { Region } from './config.js';
import type { Checkpoints } from './db/checkpoints.js';
import type { CollectorsTable, ResponsesTable } from './db/tables/collect.js';
import type { RateCountersTable } from './db/tables/platform.js';
import type { FlaggedResponsesTable } from './db/tables/screening.js';
import type { SurveysTable } from './db/tables/surveys.js';
import type { Caller, CallerRow, ScopeList } from './domain/accounts/caller.js';
import type { DesignIndex, Seeks } from './domain/responses/types.js';

/** A Map that forgets its oldest entry when full. */
export class CacheMap<K, V> extends Map<K, V> {
  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

/** A CacheMap whose entries are valid for one `stamp` (an epoch): a new stamp empties it. */
export class StampedCache<K, V> extends CacheMap<K, V> {
  stamp: number | null = null;

  /** Empties the cache if `stamp` is not the one its entries were read at. */
  at(stamp: number): void {
    if (stamp !== this.stamp) {
      super.clear();
      this.stamp = stamp;
    }
  }

  override clear(): void {
    super.clear();
    this.stamp = null;
  }
}

/** The respondent entries a process keeps (domain/collectors/entry.ts), each version under a stamp
 * of its own. (Typed there, as analyzeResults.) */
export class EntryCache extends CacheMap<string, { stamp: number }> {
  private last = 0;

  /** A stamp no entry of this process had before. */
  stamp(): number {
    return ++this.last;
  }
}

/** One value made on first use (a runner, a prepared statement). */
export class Slot<T> {
  value: T | undefined;

  get size(): number {
    return this.value === undefined ? 0 : 1;
  }

  /** The value, made by `make` the first time. */
  get(make: () => T): T {
    this.value ??= make();
    return this.value;
  }

  clear(): void {
    this.value = undefined;
  }
}

/** Says yes once every `n` calls: a chore done now and then (forgetting passed windows). */
export class Every {
  private calls = 0;

  constructor(readonly n: number) {}

  tick(): boolean {
    this.calls = (this.calls + 1) % this.n;
    return this.calls === 0;
  }
}

type ListStatement = (...args: unknown[]) => Promise<unknown[][]>;
/** A prepared statement (db/prepared.ts) of one id → its rows. */
type RowsById<Table> = (id: string) => Promise<Selectable<Table>[]>;
/** A prepared statement of a collector id and a respondent key → its rows. */
type RowsByKey<Table> = (collectorId: string, respondentKey: string) => Promise<Selectable<Table>[]>;
/** A respondent's rows as JSON texts, with a window counter's key and window (unused when not counting). */
type RecordRead = (
  collectorId: string,
  respondentKey: string,
  key: string,
  window: string,
) => Promise<{ kind: string; row: string }[]>;

/** A page's markup cut at its holes (web/respond/page-cache.ts): text, hole, text, …, text. */
export interface KeptPage {
  texts: string[];
  holes: ('csrf' | 'shown' | 'started')[];
}

/** Work a process runs in the background (named by what stops it, so this file imports no code
 * and no module that needs Deps). */
export interface BackgroundRunner {
  stop(): Promise<void>;
}

export interface Caches {
  /** platform/auth.ts: token → its holder, valid for one caller epoch (db/caller-epoch.ts). */
  callers: StampedCache<string, Caller>;
  /** platform/auth.ts: a token's stored scopes (JSON) or a plan's name → the parsed list. */
  scopeLists: CacheMap<string, ScopeList>;
  /** platform/regions.ts: the regional hosts of the config → their region. */
  regionHosts: Slot<Map<string, Region>>;
  /** api/v3/users/me.ts: token id and host → the answer serialized for that remembered caller. */
  usersMe: CacheMap<string, { user: Caller['user']; json: string }>;
  /** domain/surveys/surveys.ts: GET /surveys' page and count statements by query shape. */
  surveyLists: CacheMap<string, { page: ListStatement; count: ListStatement }>;
  /** domain/surveys/surveys.ts: the list's first read (the owner's survey count and change stamp,
   * "in any workgroup?"), prepared once. */
  surveyListHead: Slot<(userId: string) => Promise<unknown[][]>>;
  /** domain/surveys/surveys.ts: user and request (host, URL) → a survey list's answer text, valid
   * for one value of the owner's change stamp (survey_totals.stamp, migration 0041); answers up to
   * 32 KB, so at most ~32 MB. */
  surveyAnswers: CacheMap<string, { stamp: number; text: string }>;
  /** domain/responses/design-index.ts: survey id → its indexed design and design_version. */
  designs: CacheMap<string, { version: number; index: DesignIndex }>;
  /** domain/responses/page-seek.ts: the export's seek statements. */
  pageSeeks: Slot<Seeks>;
  /** domain/responses/page-seek.ts: scope, deletion count and offset → the ordinal before it. */
  seekMarks: CacheMap<string, number>;
  /** outbox/fanout.ts: where the previous batch ended while a backlog is worked through. */
  fanoutCursor: Slot<{ created_at: string; id: string }>;
  /** http/auth.ts: the one query every /v3 request runs (token, account and app), prepared once. */
  callerLookup: Slot<(tokenHash: string) => Promise<CallerRow[]>>;
  /** domain/responses/submission-limit.ts: one count in a key's window, prepared once. */
  windowBump: Slot<(key: string, window: number) => Promise<{ count: number }[]>>;
  /** http/rate-limit.ts: the upsert that counts a request in its app's windows, prepared once. */
  rateBump: Slot<
    (
      appId: string,
      minuteWindow: number,
      dayWindow: number,
    ) => Promise<Pick<RateCountersTable, 'minute_count' | 'day_count'>[]>
  >;
  /** domain/surveys/access.ts: a survey's row by id, prepared once. */
  surveyRows: Slot<RowsById<SurveysTable>>;
  /** domain/collectors/collectors.ts: a collector's row by id, prepared once. */
  collectorRows: Slot<RowsById<CollectorsTable>>;
  /** domain/accounts/sign-in.ts: the hash an unknown username's password is checked against (so
   * timing does not tell it is unknown), made once. */
  dummyHash: Slot<Promise<string>>;
  /** web/analyze/public-results.ts: survey id → its shared results page's figures (rendered HTML)
   * and the stamp they were read at (domain/shared-results `OpenShare.stamp`, read per request). */
  sharedResults: CacheMap<string, { stamp: string; markup: string }>;
  /** domain/uploads/admission.ts: a directory → its disk's free bytes and when they were read
   * (performance.now()); read again after a few seconds. */
  diskFree: CacheMap<string, { at: number; free: number }>;
  /** domain/analysis/results.ts: survey, design version, filter and compared question → the
   * analyze page's figures (being computed, or done) and the results stamp they were read at.
   * (Typed there: naming its type here would make an import circle through Deps.) */
  analyzeResults: CacheMap<string, { stamp: string; results: Promise<object> }>;
  /** domain/accounts/oidc.ts and saml.ts: the provider's discovered configuration or parsed IdP
   * metadata, by issuer or metadata location, with when it was read (performance.now()); read
   * again after an hour, or at once after a failure. (Typed there, as analyzeResults.) */
  ssoProviders: CacheMap<string, { at: number; value: Promise<object> }>;
  /** domain/collectors/entry.ts: a collector, its survey and languages by a link's token, prepared once. */
  entryStatement: Slot<(token: string) => Promise<unknown[][]>>;
  /** domain/collectors/entry.ts: the last entry read per link token; at most 2,000. */
  respondentEntries: EntryCache;
  /** domain/collectors/entry.ts: a link token's entry read, taken by the requests that arrive during
   * it (PostgreSQL: deleted as it settles) or in the same turn of the event loop (SQLite: emptied at
   * the turn's check phase). */
  entryReads: CacheMap<string, Promise<unknown[][]>>;
  /** domain/surveys/translations.ts: a survey's enabled languages, prepared once. */
  enabledTranslations: Slot<(surveyId: string) => Promise<{ language: string }[]>>;
  /** web/respond/page-cache.ts: a new respondent's page as markup with holes for the respondent's own
   * values (CSRF token, shown stamp, start), keyed by the request's URL and host and everything of the
   * collector and survey rows it shows (design_version among them) and the page's language, so an
   * edit of any of them is a new key; at most 500 pages. */
  respondentPages: CacheMap<string, KeptPage>;
  /** web/respond/localize.ts: an entry's survey and collector as shown in the survey's own language,
   * by entry stamp and language; at most 500. (Typed there, as analyzeResults.) */
  respondentViews: CacheMap<string, object>;
  /** domain/responses/responses.ts: a respondent session's latest response in a collector, prepared once. */
  respondentResponses: Slot<RowsByKey<ResponsesTable>>;
  /** domain/screening/screen.ts: a respondent session's response kept aside in a collector, prepared once. */
  respondentFlagged: Slot<RowsByKey<FlaggedResponsesTable>>;
  /** domain/screening/screen.ts: on PostgreSQL, both of a respondent's rows (each as JSON text) in
   * one prepared read; and the same read counting the post in its submission window. */
  respondentRecord: Slot<RecordRead>;
  respondentRecordCounted: Slot<RecordRead>;
  /** http/pipeline.ts: request validators compiled from route schemas (`CompiledSchemas`). */
  validators: CompiledSchemas['validators'];
  /** http/pipeline.ts: reply serializers compiled from route schemas (`CompiledSchemas`). */
  serializers: CompiledSchemas['serializers'];
  clearAll(): void;
}

/** Route schemas compiled to request validators (by HTTP part: bodies are strict, the rest is
 * coerced) and reply serializers, keyed by the schema's JSON text: every app this code builds
 * declares the same schemas, so a process that builds several (the test suite, two instances per
 * scaled-out test server) compiles each once, on a route's first request (http/pipeline.ts): compiling
 * them all at start-up was most of a process's start. It may be shared by several Deps (`createDeps`'s `compiledSchemas`): it holds no data of a database. */
export interface CompiledSchemas {
  validators: CacheMap<string, ValidateFunction>;
  serializers: CacheMap<string, (value: unknown) => string>;
}

export function createCompiledSchemas(): CompiledSchemas {
  // An app has ~700 route schemas (validators by part, serializers by status).
  return { validators: new CacheMap(5000), serializers: new CacheMap(5000) };
}

export function createCaches(compiledSchemas: CompiledSchemas = createCompiledSchemas()): Caches {
  const caches: Omit<Caches, 'clearAll'> = {
    callers: new StampedCache(10_000),
    scopeLists: new CacheMap(1000),
    regionHosts: new Slot(),
    usersMe: new CacheMap(10_000),
    surveyLists: new CacheMap(1000),
    surveyListHead: new Slot(),
    surveyAnswers: new CacheMap(1000),
    designs: new CacheMap(500),
    pageSeeks: new Slot(),
    seekMarks: new CacheMap(100_000),
    fanoutCursor: new Slot(),
    callerLookup: new Slot(),
    rateBump: new Slot(),
    windowBump: new Slot(),
    surveyRows: new Slot(),
    collectorRows: new Slot(),
    dummyHash: new Slot(),
    sharedResults: new CacheMap(500),
    diskFree: new CacheMap(10),
    analyzeResults: new CacheMap(200),
    ssoProviders: new CacheMap(4),
    entryStatement: new Slot(),
    respondentEntries: new EntryCache(2000),
    entryReads: new CacheMap(2000),
    enabledTranslations: new Slot(),
    respondentPages: new CacheMap(500),
    respondentViews: new CacheMap(500),
    respondentResponses: new Slot(),
    respondentFlagged: new Slot(),
    respondentRecord: new Slot(),
    respondentRecordCounted: new Slot(),
    ...compiledSchemas,
  };
  return {
    ...caches,
    clearAll: () => {
      for (const cache of Object.values(caches)) cache.clear();
    },
  };
}

/** Work a process does besides answering (not caches: `clearAll()` leaves them alone). */
export interface Runners {
  /** domain/import/background.ts: the process's background imports (its ImportRunner). */
  imports: Slot<BackgroundRunner>;
  /** domain/responses/submission-limit.ts: counts window bumps; every 1000th forgets the windows
   * that have passed. */
  windowSweep: Every;
  /** db/checkpoints.ts: `serve`'s and `worker`'s SQLite checkpoint thread (none on PostgreSQL or in memory). */
  checkpoints: Slot<Checkpoints>;
}

export function createRunners(): Runners {
  return { imports: new Slot(), windowSweep: new Every(1000), checkpoints: new Slot() };
}
