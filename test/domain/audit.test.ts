// The audit log's guarantee (domain/audit, db/commit-hook.ts): in an audit scope, the first commit
// that writes carries the scope's row, so a change and its row commit together or not at all; a
// write outside any transaction is given one; bookkeeping writes carry none; sign-ins write their
// own rows; the worker prunes past RETAIN_AUDIT_DAYS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/domain/accounts/sessions.js';
import { signIn } from '../../src/domain/accounts/sign-in.js';
import { type AuditScope, newScope } from '../../src/domain/audit/context.js';
import { listAudit } from '../../src/domain/audit/log.js';
import { pruneOnce } from '../../src/outbox/retention.js';
import { type DomainTest, openDomain } from './setup.js';

let t: DomainTest;
beforeAll(async () => {
  t = await openDomain();
});
afterAll(() => t?.close());

const scope = (action: string, actor?: { id: string; username: string }): AuditScope =>
  newScope({
    actorId: actor?.id ?? null,
    actorName: actor?.username ?? null,
    via: 'session',
    appId: null,
    address: '192.0.2.7',
    action,
    targetType: 'user',
    targetId: actor?.id ?? null,
  });

const rowsOf = async (action: string) => (await listAudit(t.deps, { action }, { limit: 50, offset: 0 })).rows;
const nameOf = async (id: string) =>
  (
    await t.deps.db.kysely
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).first_name;

describe('the row commits with its change', () => {
  it('a committed transaction in a scope writes exactly one row, on its first commit', async () => {
    const a = await t.account();
    const s = scope('test commit', a.user);
    await t.deps.audit.run(s, async () => {
      await t.deps.db.kysely
        .transaction()
        .execute((trx) =>
          trx.updateTable('users').set({ first_name: 'One' }).where('id', '=', a.user.id).execute(),
        );
      await t.deps.db.kysely
        .transaction()
        .execute((trx) =>
          trx.updateTable('users').set({ first_name: 'Two' }).where('id', '=', a.user.id).execute(),
        );
    });
    expect(s.state).toBe('written');
    const rows = await rowsOf('test commit');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: a.user.id,
      outcome: 'ok',
      via: 'session',
      address: '192.0.2.7',
    });
  });

  it('a failed transaction leaves neither the change nor its row', async () => {
    const a = await t.account();
    const s = scope('test rollback', a.user);
    await expect(
      t.deps.audit.run(s, () =>
        t.deps.db.kysely.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ first_name: 'Changed' }).where('id', '=', a.user.id).execute();
          throw new Error('the change fails after its write');
        }),
      ),
    ).rejects.toThrow('the change fails');
    expect(s.state).toBe('pending');
    expect(await rowsOf('test rollback')).toHaveLength(0);
    expect(await nameOf(a.user.id)).not.toBe('Changed');
  });

  it('a row that cannot be written fails the commit: the change is rolled back', async () => {
    const a = await t.account();
    await t.deps.db.kysely
      .updateTable('users')
      .set({ first_name: 'Before' })
      .where('id', '=', a.user.id)
      .execute();
    // A NOT NULL column left null makes the row's insert fail inside the commit.
    const s = scope('test refused row', a.user);
    Reflect.set(s, 'via', null);
    await expect(
      t.deps.audit.run(s, () =>
        t.deps.db.kysely
          .transaction()
          .execute((trx) =>
            trx.updateTable('users').set({ first_name: 'Lost' }).where('id', '=', a.user.id).execute(),
          ),
      ),
    ).rejects.toThrow();
    expect(await nameOf(a.user.id)).toBe('Before');
    expect(await rowsOf('test refused row')).toHaveLength(0);
  });

  it('a write outside a transaction gets one with its row; bookkeeping writes get none', async () => {
    const a = await t.account();
    const s = scope('test autocommit', a.user);
    await t.deps.audit.run(s, async () => {
      await t.deps.ids.take(1);
      await t.deps.db.kysely
        .insertInto('window_counters')
        .values({ key: `test:${a.user.id}`, window_start: 0, count: 1 })
        .execute();
      expect(s.state).toBe('pending');
      await t.deps.db.kysely
        .updateTable('users')
        .set({ first_name: 'Auto' })
        .where('id', '=', a.user.id)
        .execute();
    });
    expect(await rowsOf('test autocommit')).toHaveLength(1);
    expect(await nameOf(a.user.id)).toBe('Auto');
  });

  it('writes outside any scope write no row', async () => {
    const before = (await listAudit(t.deps, {}, { limit: 1, offset: 0 })).total;
    const a = await t.account();
    await t.deps.db.kysely
      .updateTable('users')
      .set({ first_name: 'Free' })
      .where('id', '=', a.user.id)
      .execute();
    expect((await listAudit(t.deps, {}, { limit: 1, offset: 0 })).total).toBe(before);
  });
});

describe('sign-ins', () => {
  it('a session started writes a sign_in row; a wrong password writes a failed one, without the password', async () => {
    const a = await t.account();
    await startSession(t.deps, a.user, '192.0.2.9', { method: 'oidc' });
    expect(await signIn(t.deps, a.user.username, 'not-the-password-123', '192.0.2.9')).toMatchObject({
      ok: false,
    });
    const rows = (
      await listAudit(t.deps, { actor: a.user.username, action: 'sign_in' }, { limit: 10, offset: 0 })
    ).rows;
    expect(rows.map((r) => [r.via, r.outcome]).sort()).toEqual([
      ['oidc', 'ok'],
      ['session', 'failed'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('not-the-password-123');
    expect(JSON.stringify(rows)).not.toContain(a.password);
  });
});

describe('retention', () => {
  it('the worker prunes rows past RETAIN_AUDIT_DAYS', async () => {
    const a = await t.account();
    await t.deps.audit.run(scope('test old', a.user), () =>
      t.deps.db.kysely.updateTable('users').set({ first_name: 'Old' }).where('id', '=', a.user.id).execute(),
    );
    expect(await rowsOf('test old')).toHaveLength(1);
    t.clock.advance(366 * 86_400_000);
    const pruned = await pruneOnce(t.deps);
    expect(pruned.audit).toBeGreaterThanOrEqual(1);
    expect(await rowsOf('test old')).toHaveLength(0);
  });
});
