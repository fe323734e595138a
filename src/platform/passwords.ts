// Password hashing with bounded memory: each scrypt computation holds 128 * N * r bytes (128 MiB at
// the default cost) for its whole run, and Node runs up to four at once on its thread pool, so a
// burst of sign-ins multiplied the process's memory. `Passwords` lets at most `concurrency` hashes
// run at once per process; the others wait their turn in order (each waiting costs a few bytes).
import { hashPassword, type ScryptCost, verifyPassword } from './secrets.js';

/** Runs at most `max` tasks at once; the rest wait in arrival order. */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error('the limit must be a whole number of at least 1');
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter (running stays counted), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Hashes and checks passwords at the configured cost, `concurrency` at a time (PASSWORD_HASH_CONCURRENCY). */
export class Passwords {
  private readonly limit: ConcurrencyLimit;

  constructor(
    private readonly cost: ScryptCost,
    concurrency: number,
  ) {
    this.limit = new ConcurrencyLimit(concurrency);
  }

  get load() {
    return this.limit.load;
  }

  hash(password: string): Promise<string> {
    return this.limit.run(() => hashPassword(password, this.cost));
  }

  verify(password: string, stored: string): Promise<boolean> {
    return this.limit.run(() => verifyPassword(password, stored));
  }
}
