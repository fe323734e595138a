// A Kysely driver that lets a caller add one statement to the commit of a change: before the COMMIT
// of a transaction that wrote to a table outside `ignored`, it asks the hook for a statement and
// runs it on the same connection, so the change and that row commit together or not at all (the
// audit log, domain/audit). A write made outside any transaction is wrapped in one for it. Queries
// that bypass Kysely (the prepared hot paths of db/prepared.ts, the response store) are not seen:
// they write only bookkeeping and respondents' answers.
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

export interface CommitRow {
  query: CompiledQuery;
  /** Called once the transaction ended: whether it committed (with the row). */
  settle(committed: boolean): void;
}

export interface CommitHook {
  /** Whether a write now could need a row (cheap: read before any SQL is looked at). */
  active(): boolean;
  /** The statement to run before this write's COMMIT, or undefined (none, or already written). */
  rowFor(): CommitRow | undefined;
  /** Tables whose writes are bookkeeping (counters, throttles, id blocks) and never need a row. */
  ignored: ReadonlySet<string>;
}

/** The table a statement writes, from its SQL text; undefined for a read. */
export function writtenTable(sql: string): string | undefined {
  const m =
    /\b(?:insert\s+(?:or\s+\w+\s+)?into|(?<!for\s+(?:no\s+key\s+)?)update|delete\s+from)\s+"?([A-Za-z_][\w]*)/i.exec(
      sql,
    );
  return m ? m[1].toLowerCase() : undefined;
}

class HookedConnection implements DatabaseConnection {
  inTransaction = false;
  wrote = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly hook: CommitHook,
  ) {}

  private writes(query: CompiledQuery): boolean {
    if (query.query.kind === 'SelectQueryNode') return false;
    const table = writtenTable(query.sql);
    return table !== undefined && !this.hook.ignored.has(table);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.hook.active() || !this.writes(query)) return this.inner.executeQuery<R>(query);
    if (this.inTransaction) {
      this.wrote = true;
      return this.inner.executeQuery<R>(query);
    }
    // A write on its own (autocommit): made a transaction of its own with the row.
    const row = this.hook.rowFor();
    if (!row) return this.inner.executeQuery<R>(query);
    let committed = false;
    try {
      await this.inner.executeQuery(CompiledQuery.raw('begin'));
      try {
        const result = await this.inner.executeQuery<R>(query);
        await this.inner.executeQuery(row.query);
        await this.inner.executeQuery(CompiledQuery.raw('commit'));
        committed = true;
        return result;
      } catch (err) {
        await this.inner.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
        throw err;
      }
    } finally {
      row.settle(committed);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Wraps a dialect's driver; the connections it hands out watch their writes. */
export class HookedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, HookedConnection>();
  constructor(
    private readonly inner: Driver,
    private readonly hook: CommitHook,
  ) {}

  private own(connection: DatabaseConnection): HookedConnection {
    if (connection instanceof HookedConnection) return connection;
    throw new Error('a connection this driver did not hand out');
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.inner.acquireConnection();
    let c = this.wrapped.get(inner);
    if (!c) {
      c = new HookedConnection(inner, this.hook);
      this.wrapped.set(inner, c);
    }
    return c;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = this.own(connection);
    await this.inner.beginTransaction(c.inner, settings);
    c.inTransaction = true;
    c.wrote = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = this.own(connection);
    const row = c.wrote ? this.hook.rowFor() : undefined;
    c.inTransaction = false;
    c.wrote = false;
    if (!row) return this.inner.commitTransaction(c.inner);
    let committed = false;
    try {
      // The row fails the commit with it: Kysely rolls the transaction back on this error.
      await c.inner.executeQuery(row.query);
      await this.inner.commitTransaction(c.inner);
      committed = true;
    } finally {
      row.settle(committed);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = this.own(connection);
    c.inTransaction = false;
    c.wrote = false;
    await this.inner.rollbackTransaction(c.inner);
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.savepoint?.(this.own(connection).inner, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint?.(this.own(connection).inner, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.releaseSavepoint?.(this.own(connection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.own(connection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
