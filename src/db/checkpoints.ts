// SQLite's checkpoints in a thread of their own, for `serve` and `worker` on a database file
// (deps.runners.checkpoints).
//
// In WAL mode a commit appends its pages to the -wal file and a checkpoint copies them back into
// the database file, then syncs it. By default SQLite checkpoints inside the commit that takes the
// log past 1,000 pages: the request whose write lands there waits for those copies and two syncs,
// and a page written again and again (an index's leaf, a counter's row) is copied once per 1,000.
// Here a worker thread with a connection of its own checkpoints every INTERVAL_MS, off the event
// loop, so a page rewritten within that time is copied once. The log starts over from its
// beginning only after a checkpoint that no commit overlapped; while commits keep landing the
// thread rarely finishes one, so the process's own connection still checkpoints at NET_PAGES (the
// few pages left since the thread's last pass), which lets the next write start the log over.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import type { Logger } from 'pino';

const INTERVAL_MS = 250;
/** The connection's own checkpoint, as a net: 10,000 pages (40 MB of log). */
const NET_PAGES = 10_000;
/** SQLite's default, restored when the thread stops. */
const DEFAULT_PAGES = 1000;

// CommonJS, evaluated as the thread's script: the bundle has no file of its own for it.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
// Below the event loop's thread: on Linux a thread's niceness is its own (elsewhere it would be the
// whole process's, so it is left alone there).
if (process.platform === 'linux') require('node:os').setPriority(0, 10);
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let failed = '';
const timer = setInterval(() => {
  try {
    checkpoint.get();
    failed = '';
  } catch (err) {
    // Said once per new failure (a checkpoint of another process holding the lock is SQLITE_BUSY).
    if (err.code !== 'SQLITE_BUSY' && err.message !== failed) parentPort.postMessage((failed = err.message));
  }
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class Checkpoints {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;

  constructor(
    private readonly sqlite: SqliteDatabase.Database,
    log: Logger,
  ) {
    this.thread = new Worker(THREAD, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: sqlite.name,
        intervalMs: INTERVAL_MS,
      },
    });
    // The thread never keeps the process alive on its own (a serve whose listen failed must exit).
    this.thread.unref();
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.on('message', (message: string) => log.warn({ err: message }, 'SQLite checkpoint failed'));
    // A thread that could not start (or died): the connection checkpoints as SQLite does by default.
    this.thread.on('error', (err) => {
      log.warn({ err }, 'SQLite checkpoint thread stopped; the connection checkpoints instead');
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
    });
    sqlite.pragma(`wal_autocheckpoint = ${NET_PAGES}`);
  }

  /** Closes the thread's connection and waits for the thread to end. */
  async stop(): Promise<void> {
    this.thread.ref(); // the process waits for the thread's close
    this.thread.postMessage('stop');
    await this.exited;
    if (this.sqlite.open) this.sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
  }
}

/** The thread, for a database in a file (an in-memory database has no log to copy back). */
export function startCheckpoints(
  sqlite: SqliteDatabase.Database | undefined,
  log: Logger,
): Checkpoints | undefined {
  return sqlite && !sqlite.memory ? new Checkpoints(sqlite, log) : undefined;
}
