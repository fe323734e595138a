// The compare table's significance figures (domain/analysis/significance.ts) against SciPy's:
// chi2_contingency (no continuity correction) and the pooled two-proportion z-test, to 1e-9
// relative, on the tables of scripts/significance-reference.py (its output is the fixture).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chiSquareTest,
  columnLetter,
  confidenceOf,
  tableSignificance,
  twoProportionTest,
} from '../../src/domain/analysis/significance.js';

interface Reference {
  tables: Array<{
    counts: number[][];
    bases: number[];
    chi2: { statistic: number; df: number; p: number };
    pairs: Array<{ row: number; i: number; j: number; z: number; p: number }>;
  }>;
}
const reference: Reference = JSON.parse(
  readFileSync(new URL('./fixtures/significance-reference.json', import.meta.url), 'utf8'),
);

/** Relative difference below 1e-9 (absolute for a reference of exactly 0, e.g. z of equal shares). */
const close = (got: number | undefined, want: number) =>
  expect(
    Math.abs((got ?? Number.NaN) - want) / (want === 0 ? 1 : Math.abs(want)),
    `${got} vs ${want}`,
  ).toBeLessThan(1e-9);

describe('significance against SciPy', () => {
  it('matches chi2_contingency and the two-proportion z-tests to 1e-9', () => {
    expect(reference.tables.length).toBeGreaterThan(4);
    for (const t of reference.tables) {
      const chi = chiSquareTest(t.counts);
      close(chi?.statistic, t.chi2.statistic);
      expect(chi?.df).toBe(t.chi2.df);
      close(chi?.p, t.chi2.p);
      for (const pair of t.pairs) {
        const row = t.counts[pair.row];
        const z = twoProportionTest(row[pair.i], t.bases[pair.i], row[pair.j], t.bases[pair.j]);
        close(z?.z, pair.z);
        close(z?.p, pair.p);
      }
    }
  });

  it('marks the columns a cell is higher than, and says when counts are too small', () => {
    // 60% against 20%: A is higher than B at any level; the second row the other way round.
    const marks = tableSignificance(
      [
        [30, 10],
        [20, 40],
      ],
      [50, 50],
    );
    expect(marks.higherThan).toEqual([
      [['B'], []],
      [[], ['A']],
    ]);
    expect(marks.chi?.small).toBe(false);
    expect(marks.smallPairs).toBe(0);
    // p ≈ 0.021 for the pair: significant at 95%, not at 99%
    const mid = [
      [30, 18],
      [20, 32],
    ];
    expect(twoProportionTest(30, 50, 18, 50)!.p).toBeGreaterThan(0.01);
    expect(tableSignificance(mid, [50, 50], 95).higherThan[0][0]).toEqual(['B']);
    expect(tableSignificance(mid, [50, 50], 99).higherThan[0][0]).toEqual([]);
    // expected counts below 5: the chi-square says so; the small pairs are left unmarked
    const tiny = tableSignificance(
      [
        [1, 0, 2],
        [4, 6, 3],
      ],
      [5, 6, 5],
    );
    expect(tiny.chi?.small).toBe(true);
    expect(tiny.smallPairs).toBe(6); // three pairs on each row
    expect(tiny.higherThan.flat(2)).toEqual([]);
    expect(chiSquareTest([[3, 4]])).toBeNull(); // one row: no test
    expect([0, 25, 26, 27].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AB']);
    expect([confidenceOf('99'), confidenceOf('80'), confidenceOf(undefined)]).toEqual([99, 95, 95]);
  });
});
