/**
 * Discrete distributions over the non-negative integers, for the exact oracles.
 *
 * A `Distribution` is a Float64Array `p` with p[v] = P(value = v). Every operation here only adds and
 * multiplies non-negative numbers, so each result carries a relative rounding error of at most
 * (number of operations on the path) · 2⁻⁵³. The largest computation in the heroic oracle (a dozen
 * dice, a few hundred allocation branches) stays far below 10⁴ operations per probability, so every
 * probability is within 10⁻¹² of the exact rational value — eight orders of magnitude below the
 * sampling tolerances the tests use. `total(d)` lets a test check the mass is 1 within that bound.
 */
export type Distribution = Float64Array;

export function pointMass(value: number): Distribution {
  const distribution = new Float64Array(value + 1);
  distribution[value] = 1;
  return distribution;
}

/** 1 with probability p, else 0. */
export function bernoulli(p: number): Distribution {
  return Float64Array.of(1 - p, p);
}

/** Number of successes in n independent trials of probability p. */
export function binomial(n: number, p: number): Distribution {
  let distribution = pointMass(0);
  for (let i = 0; i < n; i++) distribution = convolve(distribution, bernoulli(p));
  return distribution;
}

/** Distribution of X + Y for independent X ~ a, Y ~ b. */
export function convolve(a: Distribution, b: Distribution): Distribution {
  const sum = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const pa = a[i] as number;
    if (pa === 0) continue;
    for (let j = 0; j < b.length; j++) sum[i + j] = (sum[i + j] as number) + pa * (b[j] as number);
  }
  return sum;
}

/** Distribution of the sum of n independent copies of `d`. */
export function convolvePower(d: Distribution, n: number): Distribution {
  let sum = pointMass(0);
  for (let i = 0; i < n; i++) sum = convolve(sum, d);
  return sum;
}

/**
 * Push `d` through a random step: value v becomes a draw from `step(v)` (a number means a certain
 * result). This is how every post-roll stage (Weakness, Shield, caps) is applied exactly.
 */
export function transform(d: Distribution, step: (value: number) => Distribution | number): Distribution {
  const parts: { readonly weight: number; readonly result: Distribution }[] = [];
  let length = 1;
  for (let v = 0; v < d.length; v++) {
    const weight = d[v] as number;
    if (weight === 0) continue;
    const outcome = step(v);
    const result = typeof outcome === 'number' ? pointMass(outcome) : outcome;
    parts.push({ weight, result });
    length = Math.max(length, result.length);
  }
  const out = new Float64Array(length);
  for (const { weight, result } of parts) {
    for (let w = 0; w < result.length; w++) out[w] = (out[w] as number) + weight * (result[w] as number);
  }
  return trimZeros(out);
}

/** With probability `pFirst` a draw from `first`, otherwise from `second`. */
export function mixture(pFirst: number, first: Distribution, second: Distribution): Distribution {
  const out = new Float64Array(Math.max(first.length, second.length));
  for (let v = 0; v < out.length; v++) out[v] = pFirst * (first[v] ?? 0) + (1 - pFirst) * (second[v] ?? 0);
  return out;
}

/** Sum of all probabilities (1 up to rounding). */
export function total(d: Distribution): number {
  let sum = 0;
  for (const p of d) sum += p;
  return sum;
}

export function mean(d: Distribution): number {
  let sum = 0;
  for (let v = 0; v < d.length; v++) sum += v * (d[v] as number);
  return sum;
}

export function variance(d: Distribution): number {
  const mu = mean(d);
  let sum = 0;
  for (let v = 0; v < d.length; v++) sum += (v - mu) * (v - mu) * (d[v] as number);
  return sum;
}

/** Drop trailing impossible values, keeping at least value 0. */
function trimZeros(d: Distribution): Distribution {
  let end = d.length;
  while (end > 1 && d[end - 1] === 0) end--;
  return end === d.length ? d : d.slice(0, end);
}
