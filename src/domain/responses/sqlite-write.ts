// The hot path of POST /collectors/{id}/responses and the respondent page on SQLite: the whole
// write (ordinal, response row, survey and collector counters, rollup counts, events) as one
// synchronous better-sqlite3 transaction of prepared statements, run while holding Kysely's one
// connection (so no Kysely transaction can be open around it). Same rows as the Kysely path in
// responses.ts, which PostgreSQL uses; the events rows match domain/events.ts recordEvent.
import type SqliteDatabase from 'better-sqlite3';
import type { Deps } from '../../context.js';
import { CollectorNotOpen } from '../collectors/collectors.js';
import type { NewEvent } from '../events.js';
import type { ResponseRow } from './responses.js';

type Stmt = SqliteDatabase.Statement;
interface Statements {
  seq: Stmt;
  insert: Stmt;
  survey: Stmt;
  collector: Stmt;
  count: Stmt;
  event: Stmt;
  begin: Stmt;
  commit: Stmt;
  rollback: Stmt;
}

const prepared = new WeakMap<SqliteDatabase.Database, Statements>();

const COLUMNS = [
  'id',
  'survey_id',
  'collector_id',
  'owner_id',
  'ordinal',
  'recipient_id',
  'response_status',
  'collection_mode',
  'custom_value',
  'custom_variables',
  'ip_address',
  'first_name',
  'last_name',
  'email_address',
  'total_time',
  'date_created',
  'date_modified',
  'pages',
  'page_path',
  'logic_path',
  'metadata',
  'current_page_id',
  'edit_token',
  'respondent_key',
] as const satisfies ReadonlyArray<keyof ResponseRow>;

function statements(db: SqliteDatabase.Database): Statements {
  let s = prepared.get(db);
  if (!s) {
    s = {
      seq: db.prepare(
        `INSERT INTO survey_response_seq (survey_id, owner_id, next_ordinal) VALUES (?, ?, 1)
         ON CONFLICT (survey_id) DO UPDATE SET next_ordinal = next_ordinal + 1 RETURNING next_ordinal`,
      ),
      insert: db.prepare(
        `INSERT INTO responses (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      ),
      survey: db.prepare('UPDATE surveys SET response_count = response_count + 1 WHERE id = ?'),
      // The collector's count and its openness in one statement (see openCollectorUpdate).
      collector: db.prepare(
        `UPDATE collectors SET response_count = response_count + 1
         WHERE id = ? AND status <> 'closed' AND (close_date IS NULL OR close_date > ?)
           AND (response_limit IS NULL OR response_count < response_limit)`,
      ),
      count: db.prepare(
        `INSERT INTO response_counts (survey_id, collector_id, question_id, akey, n) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (survey_id, collector_id, question_id, akey) DO UPDATE SET n = n + excluded.n`,
      ),
      event: db.prepare(
        `INSERT INTO events (id, type, owner_id, actor_id, resource_type, resource_id, ip, data, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    prepared.set(db, s);
  }
  return s;
}

interface Job {
  row: ResponseRow;
  deltas: Map<string, number>;
  events: Array<{ id: string; event: NewEvent }>;
  now: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const queues = new WeakMap<SqliteDatabase.Database, Job[]>();

function runJob(s: Statements, db: SqliteDatabase.Database, j: Job): void {
  const { row } = j;
  db.exec('SAVEPOINT response');
  try {
    if (s.collector.run(row.collector_id, j.now).changes === 0) throw new CollectorNotOpen(row.collector_id);
    const seq = s.seq.get(row.survey_id, row.owner_id) as { next_ordinal: number };
    row.ordinal = Number(seq.next_ordinal);
    s.insert.run(...COLUMNS.map((c) => row[c]));
    s.survey.run(row.survey_id);
    for (const [k, n] of j.deltas) {
      if (n === 0) continue;
      const cut = k.indexOf('|');
      s.count.run(row.survey_id, row.collector_id, k.slice(0, cut), k.slice(cut + 1), n);
    }
    for (const { id, event: e } of j.events)
      s.event.run(
        id,
        e.type,
        e.ownerId,
        e.actorId ?? null,
        e.resourceType ?? null,
        e.resourceId ?? null,
        e.ip ?? null,
        JSON.stringify(e.data ?? {}),
        j.now,
      );
    db.exec('RELEASE response');
  } catch (err) {
    db.exec('ROLLBACK TO response');
    db.exec('RELEASE response');
    throw err;
  }
}

/**
 * Inserts `row` (its ordinal is assigned here) with its counts and events. Concurrent inserts are
 * committed together (group commit): each runs in its own savepoint, so one failing leaves the
 * others intact, and each caller is answered only after the shared COMMIT returned.
 */
export function insertResponseSqlite(
  deps: Deps,
  row: ResponseRow,
  deltas: Map<string, number>,
  events: Array<{ id: string; event: NewEvent }>,
): Promise<void> {
  const db = deps.db.sqlite!;
  let queue = queues.get(db);
  if (!queue) {
    queue = [];
    queues.set(db, queue);
  }
  return new Promise<void>((resolve, reject) => {
    queue.push({ row, deltas, events, now: deps.clock.now().toISOString(), resolve, reject });
    if (queue.length === 1) setImmediate(() => void flush(deps, db));
  });
}

async function flush(deps: Deps, db: SqliteDatabase.Database): Promise<void> {
  const s = statements(db);
  const queue = queues.get(db)!;
  const settled: Array<() => void> = [];
  try {
    await deps.db.kysely.connection().execute(async () => {
      // Jobs that arrived while waiting for the connection join this batch.
      const jobs = queue.splice(0, queue.length);
      if (jobs.length === 0) return;
      s.begin.run();
      try {
        for (const j of jobs) {
          try {
            runJob(s, db, j);
            settled.push(j.resolve);
          } catch (err) {
            settled.push(() => j.reject(err));
          }
        }
        s.commit.run();
      } catch (err) {
        if (db.inTransaction) s.rollback.run();
        settled.length = 0;
        for (const j of jobs) settled.push(() => j.reject(err));
      }
    });
  } catch (err) {
    for (const j of queue.splice(0, queue.length)) settled.push(() => j.reject(err));
  }
  for (const settle of settled) settle();
}
