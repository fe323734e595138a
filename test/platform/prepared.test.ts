// Prepared queries (src/db/prepared.ts) give the same rows whether the connection is free or another
// request's transaction holds it (SQLite then queues the query behind that transaction).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { prepareQuery } from '../../src/db/prepared.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url);
  await migrateToLatest(db);
  await db.kysely
    .insertInto('settings')
    .values([
      { key: 'a', value: 'one' },
      { key: 'b', value: 'two' },
    ])
    .execute();
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('prepareQuery with rows as arrays', () => {
  it('reads the same arrays inside and outside a transaction', async () => {
    // Two columns of one name: each row is both values, in the select's order.
    const pair = prepareQuery(
      db,
      2,
      (x, y) =>
        db.kysely
          .selectFrom('settings as s')
          .innerJoin('settings as t', (j) => j.onTrue())
          .select(['s.value', 't.value'])
          .where('s.key', '=', x)
          .where('t.key', '=', y),
      { arrays: true },
    );
    const idle = await pair('a', 'b');
    expect(idle).toEqual([['one', 'two']]);
    let queued: Promise<unknown[][]> | undefined;
    await db.kysely.transaction().execute(async (trx) => {
      // Another request's query, while this transaction holds the connection.
      queued = pair('a', 'b');
      await trx.selectFrom('settings').selectAll().execute();
    });
    expect(await queued).toEqual(idle);
  });
});
