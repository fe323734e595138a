// Resource ids: strings of digits, unique across every table and every process. Each process
// reserves a block of ids with one UPDATE and hands them out from memory (the hi/lo pattern), so
// a bulk insert of a thousand rows needs no round trip per id. Ids are reserved outside any
// transaction: a block must never be handed out twice, even if the caller's transaction rolls back.
import type { Db } from './database.js';

const BLOCK = 1000;
/** The first block: ids start at nine digits, like the public API's. */
const FIRST_BLOCK = 100_000;

export class IdAllocator {
  private next = 0;
  private end = 0;
  private refill: Promise<void> | null = null;

  constructor(private readonly db: Db) {}

  /** Reserves `count` fresh ids for the caller. */
  async take(count: number): Promise<string[]> {
    const out: string[] = [];
    while (out.length < count) {
      if (this.next >= this.end) await this.reserve(count - out.length);
      while (out.length < count && this.next < this.end) out.push(String(this.next++));
    }
    return out;
  }

  async one(): Promise<string> {
    if (this.next < this.end) return String(this.next++);
    return (await this.take(1))[0];
  }

  private reserve(wanted: number): Promise<void> {
    if (!this.refill) {
      const blocks = Math.max(1, Math.ceil(wanted / BLOCK));
      this.refill = this.reserveBlocks(blocks).finally(() => {
        this.refill = null;
      });
    }
    return this.refill;
  }

  private async reserveBlocks(blocks: number): Promise<void> {
    const k = this.db.kysely;
    await k
      .insertInto('id_blocks')
      .values({ name: 'global', next_block: FIRST_BLOCK })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await k
      .updateTable('id_blocks')
      .set((eb) => ({ next_block: eb('next_block', '+', blocks) }))
      .where('name', '=', 'global')
      .returning('next_block')
      .executeTakeFirstOrThrow();
    const endBlock = Number(row.next_block);
    this.next = (endBlock - blocks) * BLOCK;
    this.end = endBlock * BLOCK;
  }
}
