// The responses store on SQLite: the whole write (collector's count, ordinal, row and its
// response_keys row, survey count, rollup counts, events) as one synchronous better-sqlite3
// transaction of prepared statements, run while holding Kysely's one connection (so no Kysely
// transaction can be open around it). Concurrent inserts are committed together (group commit),
// and each caller is answered only after the shared COMMIT. A group first runs without savepoints
// (each costs SQLite a copy of every page the response touches): a closed collector refuses in the
// first statement, before any write; any other failure rolls the group back and reruns it with a
// savepoint per response, so one failing leaves the others intact. The rows every response of a
// group adds to (the survey's count, the rollup counts and numbers) are summed over the group's
// written responses and written once per group, after them, as insert_responses() does on
// PostgreSQL: a bench response touches ~20 rollup count rows.
import type SqliteDatabase from 'better-sqlite3';
import type { Transaction } from 'kysely';
import type { Db } from '../database.js';
import type { Database } from '../schema.js';
import { type NumberDelta, UPSERT_NUMBER_SQL } from './response-numbers.js';
import {
  CollectorRefused,
  countRows,
  EVENT_COLUMNS,
  eventRow,
  insertAlone,
  type NewResponse,
  RESPONSE_COLUMNS,
  type ResponseStore,
} from './responses.js';

type Stmt = SqliteDatabase.Statement;
interface Statements {
  seq: SqliteDatabase.Statement<[string, string], { next_ordinal: number }>;
  insert: Stmt;
  keys: Stmt;
  survey: Stmt;
  collector: Stmt;
  count: Stmt;
  number: Stmt;
  event: Stmt;
  begin: Stmt;
  commit: Stmt;
  rollback: Stmt;
  savepoint: Stmt;
  release: Stmt;
  undo: Stmt;
}

/** What a group's written responses add to shared rows, summed. */
class GroupSums {
  readonly surveys = new Map<string, number>();
  readonly collectors = new Map<
    string,
    { surveyId: string; collectorId: string; deltas: Map<string, number>; numbers: Map<string, NumberDelta> }
  >();

  add({ row, deltas, numbers }: NewResponse): void {
    this.surveys.set(row.survey_id, (this.surveys.get(row.survey_id) ?? 0) + 1);
    const key = `${row.survey_id}|${row.collector_id}`;
    const c = this.collectors.get(key);
    if (!c) {
      // The first response's maps are taken as they are (nothing else reads them afterwards).
      this.collectors.set(key, { surveyId: row.survey_id, collectorId: row.collector_id, deltas, numbers });
      return;
    }
    for (const [k, n] of deltas) c.deltas.set(k, (c.deltas.get(k) ?? 0) + n);
    for (const [k, d] of numbers) {
      const to = c.numbers.get(k);
      if (!to) c.numbers.set(k, { ...d });
      else {
        to.n += d.n;
        to.total += d.total;
        to.squares += d.squares;
      }
    }
  }
}

interface Job {
  r: NewResponse;
  now: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class SqliteResponseStore implements ResponseStore {
  private readonly sqlite: SqliteDatabase.Database;
  private statements: Statements | undefined;
  private readonly queue: Job[] = [];

  constructor(
    private readonly db: Db,
    private readonly now: () => string,
  ) {
    this.sqlite = db.sqlite!;
  }

  insert(r: NewResponse, more?: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    if (more) return insertAlone(this.db.kysely, r, this.now(), more);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ r, now: this.now(), resolve, reject });
      if (this.queue.length === 1) setImmediate(() => void this.flush());
    });
  }

  /** Prepared on first use: the tables may not exist yet when the store is made. */
  private prepared(): Statements {
    const db = this.sqlite;
    this.statements ??= {
      seq: db.prepare<[string, string], { next_ordinal: number }>(
        `INSERT INTO survey_response_seq (survey_id, owner_id, next_ordinal) VALUES (?, ?, 1)
         ON CONFLICT (survey_id) DO UPDATE SET next_ordinal = next_ordinal + 1 RETURNING next_ordinal`,
      ),
      insert: db.prepare(
        `INSERT INTO responses (${RESPONSE_COLUMNS.join(', ')}) VALUES (${RESPONSE_COLUMNS.map(() => '?').join(', ')})`,
      ),
      keys: db.prepare(
        `INSERT INTO response_keys (survey_id, ordinal, collector_id, response_status, date_created, total_time, keys, choices, sentiments)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      survey: db.prepare('UPDATE surveys SET response_count = response_count + ? WHERE id = ?'),
      // The collector's count and its openness in one statement (as insertResponseIn).
      collector: db.prepare(
        `UPDATE collectors SET response_count = response_count + 1
         WHERE id = ? AND status <> 'closed' AND (close_date IS NULL OR close_date > ?)
           AND (response_limit IS NULL OR response_count < response_limit)`,
      ),
      count: db.prepare(
        `INSERT INTO response_counts (survey_id, collector_id, question_id, akey, n) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (survey_id, collector_id, question_id, akey) DO UPDATE SET n = n + excluded.n`,
      ),
      number: db.prepare(UPSERT_NUMBER_SQL),
      event: db.prepare(
        `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
      ),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      // Prepared once rather than parsed per response (db.exec).
      savepoint: db.prepare('SAVEPOINT response'),
      release: db.prepare('RELEASE response'),
      undo: db.prepare('ROLLBACK TO response'),
    };
    return this.statements;
  }

  /** One response's rows; throws CollectorRefused before writing anything. */
  private writeJob(s: Statements, { r, now }: Job): void {
    const { row } = r;
    if (s.collector.run(row.collector_id, now).changes === 0) throw new CollectorRefused(row.collector_id);
    const seq = s.seq.get(row.survey_id, row.owner_id);
    if (!seq) throw new Error('the response sequence returned no ordinal');
    row.ordinal = Number(seq.next_ordinal);
    s.insert.run(...RESPONSE_COLUMNS.map((c) => row[c]));
    s.keys.run(
      row.survey_id,
      row.ordinal,
      row.collector_id,
      row.response_status,
      row.date_created,
      row.total_time,
      r.keys.keys,
      r.keys.choices,
      r.keys.sentiments ?? null,
    );
    for (const { id, event } of r.events) {
      const e = eventRow(id, event, now);
      s.event.run(...EVENT_COLUMNS.map((c) => e[c]));
    }
  }

  /** The group without savepoints; false (and nothing settled) when a write failed midway. */
  private runFast(s: Statements, jobs: Job[], settled: Array<() => void>): boolean {
    const written: NewResponse[] = [];
    const outcomes: Array<() => void> = [];
    for (const j of jobs) {
      try {
        this.writeJob(s, j);
      } catch (err) {
        if (!(err instanceof CollectorRefused)) return false;
        outcomes.push(() => j.reject(err));
        continue;
      }
      written.push(j.r);
      outcomes.push(j.resolve);
    }
    const group = new GroupSums();
    for (const r of written) group.add(r);
    this.writeSums(s, group);
    settled.push(...outcomes);
    return true;
  }

  /** The group with a savepoint per response: one failing leaves the others intact. */
  private runGuarded(s: Statements, jobs: Job[], settled: Array<() => void>): void {
    const group = new GroupSums();
    for (const j of jobs) {
      s.savepoint.run();
      try {
        this.writeJob(s, j);
        s.release.run();
      } catch (err) {
        s.undo.run();
        s.release.run();
        settled.push(() => j.reject(err));
        continue;
      }
      group.add(j.r);
      settled.push(j.resolve);
    }
    this.writeSums(s, group);
  }

  /** The group's sums, once per row. */
  private writeSums(s: Statements, group: GroupSums): void {
    for (const [surveyId, n] of group.surveys) s.survey.run(n, surveyId);
    for (const { surveyId, collectorId, deltas, numbers } of group.collectors.values()) {
      for (const c of countRows(surveyId, collectorId, deltas))
        s.count.run(c.survey_id, c.collector_id, c.question_id, c.akey, c.n);
      for (const d of numbers.values())
        s.number.run(
          surveyId,
          d.question_id,
          d.row_id,
          d.exact,
          d.value,
          collectorId,
          d.n,
          d.total,
          d.squares,
        );
    }
  }

  private async flush(): Promise<void> {
    const db = this.sqlite;
    const s = this.prepared();
    const queue = this.queue;
    const settled: Array<() => void> = [];
    try {
      await this.db.kysely.connection().execute(async () => {
        // Jobs that arrived while waiting for the connection join this batch.
        const jobs = queue.splice(0, queue.length);
        if (jobs.length === 0) return;
        s.begin.run();
        try {
          if (!this.runFast(s, jobs, settled)) {
            s.rollback.run();
            s.begin.run();
            this.runGuarded(s, jobs, settled);
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
}
