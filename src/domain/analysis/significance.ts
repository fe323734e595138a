// Significance of a compare table (choices × groups of responses): the chi-square test of
// independence for the whole table and a two-proportion z-test per pair of groups on each row, with
// the column-letters convention (each group is a letter A, B, C…; a cell lists the letters of the
// groups whose share it is significantly higher than). Pure functions; the p-values come from a
// regularized upper incomplete gamma (chi-square: Q(df/2, x/2); normal tail: Q(1/2, z²/2)/2),
// checked against SciPy (scripts/significance-reference.py, test/domain/significance.test.ts).

export const CONFIDENCE_LEVELS = [90, 95, 99] as const;
export type Confidence = (typeof CONFIDENCE_LEVELS)[number];
export const DEFAULT_CONFIDENCE: Confidence = 95;

/** The confidence a query asks for (`'90'`, `'95'`, `'99'`), else the default. */
export function confidenceOf(value: unknown): Confidence {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return CONFIDENCE_LEVELS.find((c) => c === n) ?? DEFAULT_CONFIDENCE;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(a), a > 0: exact sums of logs for the integers and half-integers the tests need
 * (a ≤ 1000), Lanczos (g = 7) otherwise. */
export function logGamma(a: number): number {
  if (Number.isInteger(2 * a) && a <= 1000) {
    let x = a;
    let sum = 0;
    while (x > 1) {
      x -= 1;
      sum += Math.log(x);
    }
    return x === 1 ? sum : sum + 0.5 * Math.log(Math.PI); // Γ(1) = 1, Γ(1/2) = √π
  }
  if (a < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * a)) - logGamma(1 - a);
  const x = a - 1;
  let s = LANCZOS[0];
  for (let i = 1; i < 9; i++) s += LANCZOS[i] / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
}

const EPS = 1e-17;
const TINY = 1e-300;

/** The regularized upper incomplete gamma Q(a, x) = Γ(a, x)/Γ(a), a > 0, x ≥ 0. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    // series for P(a, x)
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return 1 - sum * front;
  }
  // continued fraction for Q(a, x) (modified Lentz)
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return front * h;
}

/** P(χ²_df ≥ x). */
export function chiSquareSf(x: number, df: number): number {
  return gammaQ(df / 2, x / 2);
}

/** P(Z ≥ z) for a standard normal Z. */
export function normalSf(z: number): number {
  const tail = 0.5 * gammaQ(0.5, (z * z) / 2);
  return z >= 0 ? tail : 1 - tail;
}

export interface ChiSquare {
  statistic: number;
  df: number;
  p: number;
  /** Expected counts under independence break the test's rule of thumb (more than 20% below 5,
   * or any below 1). */
  small: boolean;
}

/** The chi-square test of independence (no continuity correction) of a table of counts, rows and
 * columns with no count left out; null when fewer than two of either remain. */
export function chiSquareTest(table: number[][]): ChiSquare | null {
  const rowSums = table.map((r) => r.reduce((a, b) => a + b, 0));
  const cols = table[0]?.length ?? 0;
  const colSums = Array.from({ length: cols }, (_, j) => table.reduce((a, r) => a + r[j], 0));
  const rows = table.map((_, i) => i).filter((i) => rowSums[i] > 0);
  const keep = colSums.map((_, j) => j).filter((j) => colSums[j] > 0);
  if (rows.length < 2 || keep.length < 2) return null;
  const total = rows.reduce((a, i) => a + rowSums[i], 0);
  let statistic = 0;
  let below5 = 0;
  let below1 = 0;
  for (const i of rows)
    for (const j of keep) {
      const e = (rowSums[i] * colSums[j]) / total;
      statistic += (table[i][j] - e) ** 2 / e;
      if (e < 5) below5++;
      if (e < 1) below1++;
    }
  const df = (rows.length - 1) * (keep.length - 1);
  return {
    statistic,
    df,
    p: chiSquareSf(statistic, df),
    small: below1 > 0 || below5 > 0.2 * rows.length * keep.length,
  };
}

export interface ProportionTest {
  z: number;
  /** two-sided */
  p: number;
  /** n·p or n·(1−p) below 5 in either group: the normal approximation does not hold. */
  small: boolean;
}

/** The two-proportion z-test (pooled) of x1 of n1 against x2 of n2; null when it is undefined
 * (an empty group, or a pooled share of 0 or 1). */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number): ProportionTest | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  if (pooled <= 0 || pooled >= 1) return null;
  const z = (x1 / n1 - x2 / n2) / Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const small = [
    [x1, n1],
    [x2, n2],
  ].some(([x, n]) => x < 5 || n - x < 5);
  return { z, p: 2 * normalSf(Math.abs(z)), small };
}

/** A group's column letter: A…Z, then AA, AB… */
export function columnLetter(i: number): string {
  return i < 26 ? String.fromCharCode(65 + i) : columnLetter(Math.floor(i / 26) - 1) + columnLetter(i % 26);
}

export interface TableSignificance {
  confidence: Confidence;
  chi: ChiSquare | null;
  /** Per row, per column: the letters of the columns that cell is significantly higher than. */
  higherThan: string[][][];
  /** Pairs of cells too small for the z-test (not marked either way). */
  smallPairs: number;
}

/** The significance marks of a table: `counts[row][col]` of `bases[col]` answers in each group. */
export function tableSignificance(
  counts: number[][],
  bases: number[],
  confidence: Confidence = DEFAULT_CONFIDENCE,
): TableSignificance {
  const alpha = 1 - confidence / 100;
  let smallPairs = 0;
  const higherThan = counts.map((row) =>
    row.map((x, i) => {
      const letters: string[] = [];
      row.forEach((y, j) => {
        if (j === i) return;
        const t = twoProportionTest(x, bases[i], y, bases[j]);
        if (!t) return;
        if (t.small) {
          if (i < j) smallPairs++;
          return;
        }
        if (t.z > 0 && t.p < alpha) letters.push(columnLetter(j));
      });
      return letters;
    }),
  );
  return { confidence, chi: chiSquareTest(counts), higherThan, smallPairs };
}
