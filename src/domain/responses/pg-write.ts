// The hot path of POST /collectors/{id}/responses and the respondent page on PostgreSQL: group
// commit. Concurrent responses are written by one call of insert_responses() (migration 0024): one
// round trip, a few set-based statements and one commit for the whole group, as a named prepared
// statement. It writes what the Kysely path in responses.ts writes (the collector's count if it is
// open and below its limit, under its row lock, so limits stay exact; the ordinal; the row; the
// survey's count; rollup counts; events) and refuses a response whose collector is closed or full.
// If the statement fails (a constraint, a deadlock), nothing of the group is written and each
// response is retried alone on the Kysely path, which writes it or throws its own error. Nothing is
// acknowledged before the statement, and so the commit, returned.
import type pg from 'pg';
import type { Deps } from '../../context.js';
import { isDatabaseUnavailable } from '../../db/database.js';
import { statementName } from '../../db/prepared.js';
import { CollectorNotOpen } from '../collectors/collectors.js';
import type { NewEvent } from '../events.js';
import type { ResponseRow } from './responses.js';

const TEXT = 'SELECT job, ord FROM insert_responses($1::jsonb, $2)';
/** Groups in flight at once: the next one is parsed and waiting for the collector's row lock
 * while the previous one commits. */
const MAX_GROUPS = 2;
/** Responses per group at most (a statement's parameter stays a few megabytes). */
const MAX_GROUP = 200;

interface Job {
  row: ResponseRow;
  deltas: Map<string, number>;
  events: Array<{ id: string; event: NewEvent }>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Writer {
  queue: Job[];
  groups: number;
}

const writers = new WeakMap<pg.Pool, Writer>();

/** The response with its rollup counts and events, as insert_responses() reads a job. */
function jobJson(j: Job, now: string): unknown {
  const counts: Array<[string, string, number]> = [];
  for (const [k, n] of j.deltas) {
    if (n === 0) continue;
    const cut = k.indexOf('|');
    counts.push([k.slice(0, cut), k.slice(cut + 1), n]);
  }
  return {
    row: j.row,
    counts,
    events: j.events.map(({ id, event: e }) => ({
      id,
      type: e.type,
      owner_id: e.ownerId,
      actor_id: e.actorId ?? null,
      resource_type: e.resourceType ?? null,
      resource_id: e.resourceId ?? null,
      ip: e.ip ?? null,
      data: JSON.stringify(e.data ?? {}),
      created_at: now,
    })),
  };
}

/**
 * Inserts `row` (its ordinal is assigned here) with its counts and events, committed with the
 * responses other requests are inserting at the same time. `alone` writes one response by itself
 * (the retry of one that failed in a group).
 */
export function insertResponsePgGrouped(
  deps: Deps,
  row: ResponseRow,
  deltas: Map<string, number>,
  events: Array<{ id: string; event: NewEvent }>,
  alone: () => Promise<void>,
): Promise<void> {
  const pool = deps.db.pg!;
  let writer = writers.get(pool);
  if (!writer) {
    writer = { queue: [], groups: 0 };
    writers.set(pool, writer);
  }
  const w = writer;
  return new Promise<void>((resolve, reject) => {
    w.queue.push({
      row,
      deltas,
      events,
      resolve,
      reject: (err) => (err === RETRY ? alone().then(resolve, reject) : reject(err)),
    });
    if (w.groups < MAX_GROUPS) {
      w.groups++;
      setImmediate(() => void writeGroups(deps, pool, w));
    }
  });
}

/** Said to a job the group could not write: write it alone. */
const RETRY = Symbol('retry alone');

async function writeGroups(deps: Deps, pool: pg.Pool, w: Writer): Promise<void> {
  const name = statementName(TEXT);
  try {
    while (w.queue.length > 0) {
      const jobs = w.queue.splice(0, MAX_GROUP);
      const now = deps.clock.now().toISOString();
      let rows: Array<{ job: number; ord: number | null }>;
      try {
        const values = [JSON.stringify(jobs.map((j) => jobJson(j, now))), now];
        rows = (await pool.query({ name, text: TEXT, values })).rows;
      } catch (err) {
        // Unreachable: whether it committed is unknown, so say so (503) rather than write again.
        for (const j of jobs) j.reject(isDatabaseUnavailable(err) ? err : RETRY);
        continue;
      }
      for (const r of rows) {
        const j = jobs[r.job];
        if (r.ord === null) j.reject(new CollectorNotOpen(j.row.collector_id));
        else {
          j.row.ordinal = Number(r.ord);
          j.resolve();
        }
      }
    }
  } finally {
    w.groups--;
  }
}
