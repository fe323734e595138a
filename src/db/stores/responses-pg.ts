// The responses store on PostgreSQL: group commit. Concurrent responses are written by one call of
// insert_responses() (migration 0024): one round trip, a few set-based statements and one commit
// for the whole group, as a named prepared statement. It writes what insertResponseIn writes (the
// collector's count if it is open and below its limit, under its row lock, so limits stay exact;
// the ordinal; the row and its response_keys row (migration 0045); the survey's count; rollup
// counts and numbers; events) and refuses a response whose
// collector is closed or full. If the statement fails (a constraint, a deadlock), nothing of the
// group is written and each response is retried alone (insertResponseIn), which writes it or
// throws its own error. Nothing is acknowledged before the statement, and so the commit, returned.
import type { Transaction } from 'kysely';
import type pg from 'pg';
import { type Db, isDatabaseUnavailable } from '../database.js';
import { queryNamed, statementName } from '../prepared.js';
import type { Database } from '../schema.js';
import { changedNumbers } from './response-numbers.js';
import {
  CollectorRefused,
  countRows,
  eventRow,
  insertAlone,
  type NewResponse,
  type ResponseStore,
} from './responses.js';

const TEXT = 'SELECT job, ord FROM insert_responses($1::jsonb, $2)';
/** Groups in flight at once: the next one is parsed and waiting for the collector's row lock
 * while the previous one commits. */
const MAX_GROUPS = 2;
/** Responses per group at most (a statement's parameter stays a few megabytes). */
const MAX_GROUP = 200;

interface Job {
  r: NewResponse;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The response with its rollup counts and events, as insert_responses() reads a job. */
function jobJson({ row, deltas, numbers, keys, events }: NewResponse, now: string): unknown {
  return {
    row,
    keys,
    counts: countRows(row.survey_id, row.collector_id, deltas).map((c) => [c.question_id, c.akey, c.n]),
    numbers: changedNumbers(numbers).map((d) => [
      d.question_id,
      d.row_id,
      d.exact,
      d.value,
      d.n,
      d.total,
      d.squares,
    ]),
    events: events.map(({ id, event }) => eventRow(id, event, now)),
  };
}

/** Said to a job the group could not write: write it alone. */
const RETRY = Symbol('retry alone');

export class PgResponseStore implements ResponseStore {
  private readonly pool: pg.Pool;
  private readonly queue: Job[] = [];
  private groups = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => string,
  ) {
    this.pool = db.pg!;
  }

  insert(r: NewResponse, more?: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    if (more) return insertAlone(this.db.kysely, r, this.now(), more);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({
        r,
        resolve,
        reject: (err) =>
          err === RETRY ? insertAlone(this.db.kysely, r, this.now()).then(resolve, reject) : reject(err),
      });
      if (this.groups < MAX_GROUPS) {
        this.groups++;
        setImmediate(() => void this.writeGroups());
      }
    });
  }

  private async writeGroups(): Promise<void> {
    const name = statementName(TEXT);
    try {
      while (this.queue.length > 0) {
        const jobs = this.queue.splice(0, MAX_GROUP);
        const now = this.now();
        let rows: Array<{ job: number; ord: number | null }>;
        try {
          const values = [JSON.stringify(jobs.map((j) => jobJson(j.r, now))), now];
          rows = (
            await queryNamed<{ job: number; ord: number | null }>(this.pool, { name, text: TEXT, values })
          ).rows;
        } catch (err) {
          // Unreachable: whether it committed is unknown, so say so (503) rather than write again.
          for (const j of jobs) j.reject(isDatabaseUnavailable(err) ? err : RETRY);
          continue;
        }
        for (const r of rows) {
          const j = jobs[r.job];
          if (r.ord === null) j.reject(new CollectorRefused(j.r.row.collector_id));
          else {
            j.r.row.ordinal = Number(r.ord);
            j.resolve();
          }
        }
      }
    } finally {
      this.groups--;
    }
  }
}
