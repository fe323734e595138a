// Long computations in slices: a request whose CPU grows with the data (a results page over
// thousands of long answers) gives the event loop back every SLICE_MS, so other requests (and
// /healthz) are answered between its slices instead of after it.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Milliseconds of work between two turns of the event loop. */
export const SLICE_MS = 10;

/** A budget of one slice: `due()` is cheap to call per item; `yield()` lets the loop turn. */
export class Slices {
  private start = performance.now();

  constructor(private readonly ms = SLICE_MS) {}

  /** Whether this slice's time is up. */
  due(): boolean {
    return performance.now() - this.start >= this.ms;
  }

  /** Lets the event loop turn once, then starts a new slice. */
  async yield(): Promise<void> {
    await nextTurn();
    this.start = performance.now();
  }

  /** Yields when the slice's time is up. */
  async pause(): Promise<void> {
    if (this.due()) await this.yield();
  }
}
