/**
 * Pearson's χ² goodness-of-fit test against a uniform distribution, with its critical value computed
 * here (regularized incomplete gamma, Numerical Recipes §6.2: series below a + 1, Lentz's continued
 * fraction above) so a test can state any α. Checked in test/dice/dice.test.ts against published tables.
 */

/** Pearson's statistic for counts expected to be equal. */
export function uniformChiSquare(counts: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i] as number;
  const expected = total / counts.length;
  let statistic = 0;
  for (let i = 0; i < counts.length; i++) statistic += ((counts[i] as number) - expected) ** 2 / expected;
  return statistic;
}

/** P(χ²_df > x). */
export function chiSquareSurvival(x: number, df: number): number {
  return regularizedGammaQ(df / 2, x / 2);
}

/** The x with P(χ²_df > x) = alpha, by bisection (the survival function is decreasing). */
export function chiSquareCritical(alpha: number, df: number): number {
  let low = 0;
  let high = df + 10 * Math.sqrt(2 * df) + 100;
  while (chiSquareSurvival(high, df) > alpha) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-10 * high; i++) {
    const middle = (low + high) / 2;
    if (chiSquareSurvival(middle, df) > alpha) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

const MAX_ITERATIONS = 1_000_000;
const EPSILON = 1e-15;
const TINY = 1e-300;

/** Q(a, x) = Γ(a, x) / Γ(a). */
function regularizedGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefactor = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    // P(a, x) = e^{-x} x^a / Γ(a) · Σ x^n / (a (a+1) … (a+n))
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_ITERATIONS; n++) {
      term *= x / (a + n);
      sum += term;
      if (term < sum * EPSILON) break;
    }
    return 1 - sum * Math.exp(logPrefactor);
  }
  // Q(a, x) = e^{-x} x^a / Γ(a) · 1 / (x + 1 − a − 1·(1 − a) / (x + 3 − a − …)), modified Lentz.
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return Math.exp(logPrefactor) * fraction;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(z) for z > 0 (Lanczos, g = 7, n = 9: relative error below 1e-15). */
function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const shifted = z - 1;
  let series = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) series += (LANCZOS[i] as number) / (shifted + i);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(series);
}

/** Pearson χ² of observed counts against exact probabilities, bins pooled to ≥ 5 expected. */
export function chiSquareFit(counts: ArrayLike<number>, exact: ArrayLike<number>, n: number): { statistic: number; df: number } {
  const bins: { observed: number; expected: number }[] = [];
  let observed = 0;
  let expected = 0;
  for (let v = 0; v < Math.max(counts.length, exact.length); v++) {
    observed += counts[v] ?? 0;
    expected += n * (exact[v] ?? 0);
    if (expected >= 5) {
      bins.push({ observed, expected });
      observed = 0;
      expected = 0;
    }
  }
  const last = bins[bins.length - 1];
  if (last !== undefined) {
    last.observed += observed;
    last.expected += expected;
  }
  return { statistic: bins.reduce((sum, bin) => sum + (bin.observed - bin.expected) ** 2 / bin.expected, 0), df: bins.length - 1 };
}
