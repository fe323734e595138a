import type { Clock } from '../../src/platform/clock.js';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private ms: number;
  constructor(start: Date | string = new Date()) {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  set(to: Date | string): void {
    this.ms = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
