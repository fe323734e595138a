// The app lifecycle (spec "App lifecycle"): a draft becomes private when its owner deploys it
// within the 90-day window, public after the operator reviews and approves it; an undeployed draft
// is disabled after 90 days; the operator may extend a draft's window or deploy a disabled app.
// Public apps use surveys_write and responses_write only once the operator approves them. A public
// app's change of name, redirect URIs or scopes is a revision (`app_revisions`) that waits for the
// operator's review: until it is approved, users see and grant the approved version in `apps`.
import type { Deps } from '../../context.js';
import type { AppReviewsTable, AppRevisionsTable } from '../../db/tables/oauth.js';
import { ApiError } from '../../platform/errors.js';
import { OPERATOR_APPROVED_SCOPES, SCOPE_NAMES, type Scope } from '../../platform/scopes.js';
import {
  type App,
  checkRedirectUris,
  DRAFT_WINDOW_DAYS,
  findAppById,
  isDisabled,
  type ScopeRequirement,
} from './apps.js';

export type AppReview = AppReviewsTable;
export type AppRevision = AppRevisionsTable;

/** The state people see: draft, disabled (a draft past its window), private or public. */
export function effectiveStatus(app: App, now: Date): string {
  return isDisabled(app, now) ? 'disabled' : app.status;
}

export function scopeMap(app: Pick<App, 'scopes'>): Record<Scope, ScopeRequirement> {
  const map = JSON.parse(app.scopes) as Record<string, ScopeRequirement>;
  return Object.fromEntries(SCOPE_NAMES.map((s) => [s, map[s] ?? 'not_required'])) as Record<
    Scope,
    ScopeRequirement
  >;
}

export function findReview(deps: Deps, appId: string): Promise<AppReview | undefined> {
  return deps.db.kysely.selectFrom('app_reviews').selectAll().where('app_id', '=', appId).executeTakeFirst();
}

/** Scopes the app may be granted now: a public app's write scopes need the operator's approval. */
export function usableScopes(app: App, review: AppReview | undefined): Set<Scope> {
  const writeApproved = review?.write_scopes_approved === 1;
  return new Set(
    SCOPE_NAMES.filter(
      (s) => app.status !== 'public' || writeApproved || !OPERATOR_APPROVED_SCOPES.includes(s),
    ),
  );
}

export async function requireApp(deps: Deps, id: string): Promise<App> {
  const app = /^\d{1,30}$/.test(id) ? await findAppById(deps, id) : undefined;
  if (!app) throw new ApiError(1020, `no app with id ${id}`);
  return app;
}

export interface AppSettings {
  name: string;
  redirectUris: string[];
  scopes: Partial<Record<Scope, ScopeRequirement>>;
}

export function validateSettings(input: AppSettings): void {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new ApiError(1002, 'The name must be 1-100 characters.');
  checkRedirectUris(input.redirectUris);
  for (const [scope, req] of Object.entries(input.scopes))
    if (!SCOPE_NAMES.includes(scope as Scope) || !['required', 'optional', 'not_required'].includes(req!))
      throw new ApiError(1002, `Unknown scope setting ${scope}=${req}.`);
}

export function findRevision(deps: Deps, appId: string): Promise<AppRevision | undefined> {
  return deps.db.kysely
    .selectFrom('app_revisions')
    .selectAll()
    .where('app_id', '=', appId)
    .executeTakeFirst();
}

/**
 * Saves the owner's settings. A draft or private app changes at once; a public app's change is
 * kept as its pending revision and sent to review ('pending_review'), unless it restores the
 * approved settings, which withdraws the revision.
 */
export async function updateSettings(
  deps: Deps,
  app: App,
  input: AppSettings,
): Promise<'saved' | 'pending_review'> {
  validateSettings(input);
  const set = {
    name: input.name.trim(),
    redirect_uris: JSON.stringify(input.redirectUris),
    scopes: JSON.stringify(input.scopes),
  };
  const k = deps.db.kysely;
  const unchanged =
    set.name === app.name &&
    sameItems(input.redirectUris, JSON.parse(app.redirect_uris)) &&
    sameScopes(input.scopes, scopeMap(app));
  if (app.status !== 'public' || unchanged) {
    await k.transaction().execute(async (trx) => {
      if (!unchanged) await trx.updateTable('apps').set(set).where('id', '=', app.id).execute();
      const withdrawn = await trx.deleteFrom('app_revisions').where('app_id', '=', app.id).executeTakeFirst();
      // A public app whose revision is withdrawn is back to its approved state.
      if (app.status === 'public' && Number(withdrawn.numDeletedRows) > 0)
        await trx
          .updateTable('app_reviews')
          .set({ review_status: 'approved' })
          .where('app_id', '=', app.id)
          .where('review_status', '=', 'pending')
          .execute();
    });
    return 'saved';
  }
  const now = deps.clock.now().toISOString();
  await k.transaction().execute(async (trx) => {
    await trx
      .insertInto('app_revisions')
      .values({ app_id: app.id, ...set, requested_at: now })
      .onConflict((oc) => oc.column('app_id').doUpdateSet({ ...set, requested_at: now }))
      .execute();
    await trx
      .updateTable('app_reviews')
      .set({ review_status: 'pending', requested_at: now, decided_at: null, decided_by: null, note: null })
      .where('app_id', '=', app.id)
      .execute();
  });
  return 'pending_review';
}

function sameItems(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

function sameScopes(
  a: Partial<Record<Scope, ScopeRequirement>>,
  b: Partial<Record<Scope, ScopeRequirement>>,
): boolean {
  return SCOPE_NAMES.every((s) => (a[s] ?? 'not_required') === (b[s] ?? 'not_required'));
}

/** Regenerates the client secret (the old one stops working); returns the app with its new version. */
export async function regenerateSecret(deps: Deps, app: App): Promise<App> {
  await deps.db.kysely
    .updateTable('apps')
    .set({ secret_version: app.secret_version + 1 })
    .where('id', '=', app.id)
    .execute();
  return { ...app, secret_version: app.secret_version + 1 };
}

/** The owner deploys a draft: private at once, public by asking the operator for a review. */
export async function ownerDeploy(deps: Deps, app: App, target: 'private' | 'public'): Promise<string> {
  const now = deps.clock.now();
  if (isDisabled(app, now))
    throw new ApiError(
      1012,
      'The app is disabled: its 90-day development window has ended. Ask the operator to extend it or deploy it.',
    );
  if (app.status !== 'draft') throw new ApiError(1002, `The app is already deployed (${app.status}).`);
  if (target === 'private') {
    await deps.db.kysely.updateTable('apps').set({ status: 'private' }).where('id', '=', app.id).execute();
    return 'private';
  }
  await deps.db.kysely
    .insertInto('app_reviews')
    .values({
      app_id: app.id,
      review_status: 'pending',
      write_scopes_approved: 0,
      requested_at: now.toISOString(),
      decided_at: null,
      decided_by: null,
      note: null,
    })
    .onConflict((oc) =>
      oc
        .column('app_id')
        .doUpdateSet({ review_status: 'pending', requested_at: now.toISOString(), decided_at: null }),
    )
    .execute();
  return 'pending_review';
}

/** Removes the write scopes the operator has not approved from a public app's existing tokens. */
async function stripUnapprovedScopes(deps: Deps, appId: string): Promise<void> {
  const tokens = await deps.db.kysely
    .selectFrom('tokens')
    .select(['id', 'scopes'])
    .where('app_id', '=', appId)
    .where('status', '=', 'active')
    .execute();
  for (const t of tokens) {
    const scopes = (JSON.parse(t.scopes) as Scope[]).filter((s) => !OPERATOR_APPROVED_SCOPES.includes(s));
    await deps.db.kysely
      .updateTable('tokens')
      .set({ scopes: JSON.stringify(scopes) })
      .where('id', '=', t.id)
      .execute();
  }
}

/** The operator's review: approve (publish, optionally with the write scopes) or reject. */
export async function reviewApp(
  deps: Deps,
  appId: string,
  decision: { approve: boolean; approveWriteScopes?: boolean; operatorId?: string | null; note?: string },
): Promise<{ app: App; review: AppReview }> {
  const app = await requireApp(deps, appId);
  const revision = await findRevision(deps, app.id);
  const now = deps.clock.now().toISOString();
  const review: AppReview = {
    app_id: app.id,
    review_status: decision.approve ? 'approved' : 'rejected',
    write_scopes_approved: decision.approve && decision.approveWriteScopes ? 1 : 0,
    requested_at: (await findReview(deps, app.id))?.requested_at ?? now,
    decided_at: now,
    decided_by: decision.operatorId ?? null,
    note: decision.note ?? null,
  };
  // Approving publishes the app with its pending revision; rejecting drops the revision and keeps
  // what was approved before.
  const approved = decision.approve
    ? {
        status: 'public',
        ...(revision
          ? { name: revision.name, redirect_uris: revision.redirect_uris, scopes: revision.scopes }
          : {}),
      }
    : null;
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('app_reviews')
      .values(review)
      .onConflict((oc) =>
        oc.column('app_id').doUpdateSet({
          review_status: review.review_status,
          write_scopes_approved: review.write_scopes_approved,
          decided_at: review.decided_at,
          decided_by: review.decided_by,
          note: review.note,
        }),
      )
      .execute();
    if (approved) await trx.updateTable('apps').set(approved).where('id', '=', app.id).execute();
    // Only the revision decided on: one the owner saved meanwhile stays pending.
    if (revision)
      await trx
        .deleteFrom('app_revisions')
        .where('app_id', '=', app.id)
        .where('requested_at', '=', revision.requested_at)
        .execute();
  });
  if (approved && !review.write_scopes_approved) await stripUnapprovedScopes(deps, app.id);
  return { app: { ...app, ...approved }, review };
}

/** The operator extends a draft's development window (re-enabling a disabled draft). */
export async function extendDraft(deps: Deps, appId: string, days = DRAFT_WINDOW_DAYS): Promise<App> {
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new ApiError(1002, 'days must be a whole number from 1 to 3650');
  const app = await requireApp(deps, appId);
  if (app.status === 'public' || app.status === 'private')
    throw new ApiError(1002, `The app is already deployed (${app.status}).`);
  const now = deps.clock.now().getTime();
  const from = Math.max(now, Date.parse(app.draft_expires_at));
  const set = { status: 'draft', draft_expires_at: new Date(from + days * 86_400_000).toISOString() };
  await deps.db.kysely.updateTable('apps').set(set).where('id', '=', app.id).execute();
  return { ...app, ...set };
}

/** The operator deploys an app directly, also a disabled one (public counts as reviewed and approved). */
export async function operatorDeploy(
  deps: Deps,
  appId: string,
  target: 'private' | 'public',
  operatorId: string | null = null,
): Promise<App> {
  if (target === 'public') {
    const review = await findReview(deps, appId);
    return (
      await reviewApp(deps, appId, {
        approve: true,
        approveWriteScopes: review?.write_scopes_approved === 1,
        operatorId,
      })
    ).app;
  }
  const app = await requireApp(deps, appId);
  await deps.db.kysely.updateTable('apps').set({ status: 'private' }).where('id', '=', app.id).execute();
  return { ...app, status: 'private' };
}

export function appsOwnedBy(deps: Deps, ownerId: string): Promise<App[]> {
  return deps.db.kysely
    .selectFrom('apps')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function publicApps(deps: Deps): Promise<App[]> {
  return deps.db.kysely
    .selectFrom('apps')
    .selectAll()
    .where('status', '=', 'public')
    .orderBy('name')
    .execute();
}

export async function allAppsWithReviews(deps: Deps) {
  return deps.db.kysely
    .selectFrom('apps as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .leftJoin('app_reviews as r', 'r.app_id', 'a.id')
    .leftJoin('app_revisions as v', 'v.app_id', 'a.id')
    .selectAll('a')
    .select([
      'u.username as owner_username',
      'r.review_status',
      'r.write_scopes_approved',
      'v.name as pending_name',
      'v.redirect_uris as pending_redirect_uris',
      'v.scopes as pending_scopes',
    ])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
}
