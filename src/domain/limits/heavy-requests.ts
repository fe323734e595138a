// The cap on heavy results requests (the analyze page, its downloads): an account may have at most
// `perAccount` of them running at once in this process; beyond that the page answers 429 at once
// instead of queueing more work behind the account's own. The count is per process (Deps): with
// several `serve` processes behind a load balancer an account may run that many in each, which
// still bounds what one account costs each process (docs/operations.md).
export class HeavyRequests {
  private readonly running = new Map<string, number>();

  /** `perAccount`: 0 = no cap. */
  constructor(readonly perAccount: number) {}

  /** Admits one heavy request of `accountId`: its release (call it once, when the work is done),
   * or null when the account already runs `perAccount` of them. */
  enter(accountId: string): (() => void) | null {
    const n = this.running.get(accountId) ?? 0;
    if (this.perAccount > 0 && n >= this.perAccount) return null;
    this.running.set(accountId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(accountId) ?? 1) - 1;
      if (left > 0) this.running.set(accountId, left);
      else this.running.delete(accountId);
    };
  }

  /** Heavy requests running now (all accounts). */
  get size(): number {
    let n = 0;
    for (const v of this.running.values()) n += v;
    return n;
  }
}
