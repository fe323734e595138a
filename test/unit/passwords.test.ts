// The password-hashing queue: never more than its limit at once, every task run in arrival order,
// a failing task frees its place, and hashes made through it check as before.
import { expect, it } from 'vitest';
import { ConcurrencyLimit, Passwords } from '../../src/platform/passwords.js';

/** A task that waits until released, recording how many ran beside it. */
function gate(limit: ConcurrencyLimit, seen: number[], order: number[], i: number) {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const done = limit.run(async () => {
    order.push(i);
    seen.push(limit.load.running);
    await released;
    return i;
  });
  return { release, done };
}

it('runs at most its limit at once and the rest in arrival order', async () => {
  const limit = new ConcurrencyLimit(2);
  const seen: number[] = [];
  const order: number[] = [];
  const tasks = Array.from({ length: 8 }, (_, i) => gate(limit, seen, order, i));
  await Promise.resolve();
  expect(limit.load).toEqual({ running: 2, waiting: 6 });
  for (const t of tasks) {
    t.release();
    await t.done;
  }
  expect(await Promise.all(tasks.map((t) => t.done))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  expect(Math.max(...seen)).toBe(2);
  expect(limit.load).toEqual({ running: 0, waiting: 0 });
});

it('a failing task gives its place to the next', async () => {
  const limit = new ConcurrencyLimit(1);
  const failed = limit.run(async () => {
    throw new Error('no');
  });
  const next = limit.run(async () => 'ran');
  await expect(failed).rejects.toThrow('no');
  expect(await next).toBe('ran');
  expect(limit.load).toEqual({ running: 0, waiting: 0 });
});

it('hashes and checks passwords, eight at once through a limit of two', async () => {
  const passwords = new Passwords({ logN: 10, r: 8, p: 1 }, 2);
  const hashes = await Promise.all(Array.from({ length: 8 }, (_, i) => passwords.hash(`password ${i}`)));
  const checks = await Promise.all(hashes.map((h, i) => passwords.verify(`password ${i}`, h)));
  expect(checks).toEqual(Array(8).fill(true));
  expect(await passwords.verify('password 1', hashes[0])).toBe(false);
});

it('refuses a limit below one', () => {
  expect(() => new ConcurrencyLimit(0)).toThrow();
});
