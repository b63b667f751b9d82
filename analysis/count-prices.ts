import type { CellLevel, CellRequest, CellSource, CellValue } from './count-cells.js';
import { Z_95 } from '../statistics/intervals.js';
import { invertMatrix } from '../statistics/linear-solve.js';

/**
 * Prices of units bought by count, from measured games alone (no curve is fitted).
 *
 * **Equal points.** At a budget B a unit priced c fields B/c models. Whole models rarely make B
 * exactly, so a side fields the two whole counts around B/c in the proportions that average B/c:
 * at 3.6 models, 4 in 60% of games and 3 in 40%. Its expected score against another unit at equal
 * points is then exactly the bilinear interpolation of the scores measured at the four pairs of
 * whole counts around (B/cᵤ, B/cᵥ) — no model of how the score grows with count is needed, and none
 * can misfit. A unit's score against the list, Sᵤ(c), is its mean over the other units.
 *
 * **One unit against the list as published** (`balance <unit>`): the price cᵤ at which Sᵤ = ½ with
 * every other unit at its published cost — what a new unit, or one changed, should cost.
 *
 * **A price list** (`balance --all`): prices c at which every unit is even with the list *at the
 * new prices*, so that adopting the list leaves no unit above or below ½. Since every game is
 * played in both seatings, u's score against v and v's against u add up to 1, so the scores of all
 * units always average ½: only n − 1 of the n conditions are independent, and the list is fixed up
 * to one overall scale (at a fixed budget a scale changes how many models fight, so prices are
 * relative to it). The level is set so the list stays where its designer put it: the log price
 * changes of the middle half of the units average 0 (the interquartile mean) — a few units far off
 * do not drag the rest, and a list whose units are mostly right keeps their prices. Solved by Jacobi iteration (each unit's 1-dimensional root with the
 * others held, then the scale reset), first on coarse measurements, then on fine ones at the
 * counts where the answer lies.
 *
 * **Intervals** by the delta method through the equations that define the prices: every measured
 * score the prices read enters with its variance (independent runs), and the implicit function
 * theorem carries it to ln c, whose 95% interval is turned back into points.
 */

export interface CountPriceInput {
  readonly budget: number;
  /** Published costs, one per entry of the source. */
  readonly published: readonly number[];
  /** Entries whose price is sought; the rest stay at their published cost. All of them: a price list. */
  readonly free: readonly boolean[];
  /** Counts are measured from 1 up to this. */
  readonly maxCount: number;
}

export type PriceStatus = 'priced' | 'wins at 1 model' | 'loses at the maximum';

export interface CountPrice {
  readonly kappa: number;
  readonly price: number;
  readonly interval?: { readonly low: number; readonly high: number };
  readonly status: PriceStatus;
}

export interface CountPriceSolution {
  /** Average count each entry fields at its price (B / price), free or not. */
  readonly kappa: readonly number[];
  readonly prices: readonly CountPrice[];
  /** Did the iteration settle (no count moving by more than a millionth) on the fine runs? */
  readonly converged: boolean;
}

/** A unit's count as the two whole counts around it: `low` and `low + 1`, weighted 1 − frac and frac. */
export interface Corner {
  readonly low: number;
  readonly frac: number;
}

export function cornerOf(kappa: number, maxCount: number): Corner {
  const low = Math.min(Math.max(1, Math.floor(kappa)), maxCount - 1);
  return { low, frac: Math.min(1, Math.max(0, kappa - low)) };
}

/** Which score a cell gives: the mix's, or one situation's. */
export type ScorePick = (cell: CellValue) => { readonly score: number; readonly variance: number };
export const MIXED: ScorePick = (cell) => cell;
export const situationPick =
  (s: number): ScorePick =>
  (cell) =>
    cell.bySituation[s] ?? cell;

const MAX_JACOBI = 60;
/** Jacobi stops when no count moves by more than this, relative. */
const CONVERGED = 1e-6;

/** Measured cells through a source, read as scores at counts. */
class Scores {
  constructor(
    readonly source: CellSource,
    readonly maxCount: number,
  ) {}

  read(u: number, a: number, v: number, b: number, pick: ScorePick): { score: number; variance: number; key: string; sign: 1 | -1 } {
    const cell = this.source.cell(u, a, v, b);
    if (cell === undefined) throw new Error(`cell ${u}×${a} against ${v}×${b} was not measured`);
    return { ...pick(cell), key: cell.key, sign: cell.sign };
  }

  /** The cells u at whole count a against every other unit at the two counts around its κ. */
  cellsAt(u: number, a: number, kappa: readonly number[]): CellRequest[] {
    return kappa.flatMap((k, v) => {
      if (v === u) return [];
      const { low } = cornerOf(k, this.maxCount);
      return [
        { u, a, v, b: low },
        { u, a, v, b: low + 1 },
      ];
    });
  }

  /** u's score at whole count a against the list at κ (each opponent at its two counts, weighted). */
  atCount(u: number, a: number, kappa: readonly number[], pick: ScorePick, only?: number): { score: number; variance: number } {
    let score = 0;
    let variance = 0;
    const opponents = only === undefined ? kappa.length - 1 : 1;
    kappa.forEach((k, v) => {
      if (v === u || (only !== undefined && v !== only)) return;
      const { low, frac } = cornerOf(k, this.maxCount);
      for (const [b, weight] of [
        [low, 1 - frac],
        [low + 1, frac],
      ] as const) {
        if (weight === 0) continue;
        const cell = this.read(u, a, v, b, pick);
        score += (weight * cell.score) / opponents;
        variance += (weight * weight * cell.variance) / (opponents * opponents);
      }
    });
    return { score, variance };
  }

  /** Sᵤ at κ: u's own count interpolated between its two whole counts too. */
  atKappa(u: number, kappa: readonly number[], pick: ScorePick, only?: number): { score: number; variance: number } {
    const { low, frac } = cornerOf(kappa[u] as number, this.maxCount);
    const below = this.atCount(u, low, kappa, pick, only);
    if (frac === 0) return below;
    const above = this.atCount(u, low + 1, kappa, pick, only);
    return {
      score: (1 - frac) * below.score + frac * above.score,
      variance: (1 - frac) ** 2 * below.variance + frac * frac * above.variance,
    };
  }
}

/**
 * The κᵤ at which u's score against the list (others at κ) is ½: the whole counts around it found
 * by galloping out from `start` and bisecting, then interpolated between them. Clamped to [1,
 * maxCount] with its status when ½ is out of reach.
 */
async function rootFor(
  scores: Scores,
  u: number,
  kappa: readonly number[],
  level: CellLevel,
  pick: ScorePick,
  start: number,
  only?: number,
): Promise<{ kappa: number; status: PriceStatus }> {
  const { maxCount } = scores;
  const known = new Map<number, number>();
  const g = async (a: number): Promise<number> => {
    const cached = known.get(a);
    if (cached !== undefined) return cached;
    await scores.source.measure(
      only === undefined ? scores.cellsAt(u, a, kappa) : scores.cellsAt(u, a, kappa).filter((request) => request.v === only),
      level,
    );
    const value = scores.atCount(u, a, kappa, pick, only).score;
    known.set(a, value);
    return value;
  };
  // Gallop from the current count towards ½ until it is bracketed: low < ½ ≤ high.
  let low = Math.min(Math.max(1, Math.floor(start)), maxCount - 1);
  let high = low + 1;
  if ((await g(low)) >= 0.5) {
    let step = 1;
    for (;;) {
      high = low;
      if (low === 1) return { kappa: 1, status: 'wins at 1 model' };
      low = Math.max(1, low - step);
      step *= 2;
      if ((await g(low)) < 0.5) break;
    }
  } else if ((await g(high)) < 0.5) {
    let step = 1;
    for (;;) {
      low = high;
      if (high === maxCount) return { kappa: maxCount, status: 'loses at the maximum' };
      high = Math.min(maxCount, high + step);
      step *= 2;
      if ((await g(high)) >= 0.5) break;
    }
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if ((await g(middle)) < 0.5) low = middle;
    else high = middle;
  }
  const [below, above] = [await g(low), await g(high)];
  return { kappa: low + (0.5 - below) / (above - below), status: 'priced' };
}

/** The four corner cells of every pair at κ, for the interpolation and its derivatives. */
export function cornerRequests(kappa: readonly number[], free: readonly boolean[], maxCount: number): CellRequest[] {
  const requests: CellRequest[] = [];
  kappa.forEach((ku, u) => {
    if (!free[u]) return;
    const cu = cornerOf(ku, maxCount);
    kappa.forEach((kv, v) => {
      if (v === u) return;
      const cv = cornerOf(kv, maxCount);
      for (const a of [cu.low, cu.low + 1]) for (const b of [cv.low, cv.low + 1]) requests.push({ u, a, v, b });
    });
  });
  return requests;
}

/**
 * The units that set a price list's level, with their weights: the middle half of the log price
 * changes (the lowest and highest quarter left out, ⌊n/4⌋ each), averaged — the interquartile mean.
 * A few units far off do not move it, and no single unit is pinned to its published price (as the
 * median would pin the middle one). Ties are broken by entry order, so the result does not depend
 * on anything else.
 */
function levelWeights(changes: readonly number[]): number[] {
  const order = [...changes.keys()].sort((a, b) => (changes[a] as number) - (changes[b] as number) || a - b);
  const cut = Math.floor(order.length / 4);
  const kept = order.slice(cut, order.length - cut);
  const weights = changes.map(() => 0);
  for (const u of kept) weights[u] = 1 / kept.length;
  return weights;
}

/** Each unit's ln(price / published) at κ (its price B / κ). */
const logChanges = (kappa: readonly number[], input: Pick<CountPriceInput, 'budget' | 'published'>): number[] =>
  kappa.map((k, u) => Math.log(input.budget / k / (input.published[u] as number)));

/** The level reset of a price list: κ moved so the interquartile mean of ln(price / published) is 0. */
function rescaled(kappa: readonly number[], input: CountPriceInput): number[] {
  const changes = logChanges(kappa, input);
  const centre = levelWeights(changes).reduce((sum, weight, u) => sum + weight * (changes[u] as number), 0);
  return kappa.map((k) => Math.min(input.maxCount, Math.max(1, k * Math.exp(centre))));
}

async function jacobi(
  scores: Scores,
  input: CountPriceInput,
  start: readonly number[],
  level: CellLevel,
): Promise<{ kappa: number[]; status: PriceStatus[]; converged: boolean }> {
  const list = input.free.every(Boolean);
  let kappa = [...start];
  let status: PriceStatus[] = kappa.map(() => 'priced');
  for (let iteration = 1; iteration <= MAX_JACOBI; iteration++) {
    const roots = await Promise.all(
      kappa.map((k, u) =>
        input.free[u] ? rootFor(scores, u, kappa, level, MIXED, k) : Promise.resolve({ kappa: k, status: 'priced' as PriceStatus }),
      ),
    );
    let next = roots.map((root) => root.kappa);
    status = roots.map((root) => root.status);
    if (list) next = rescaled(next, input);
    const moved = Math.max(...next.map((k, u) => Math.abs(Math.log(k / (kappa[u] as number)))));
    kappa = next;
    if (moved < CONVERGED || !list) return { kappa, status, converged: true };
  }
  return { kappa, status, converged: false };
}

/** A price's interval from ± `half` on its log. */
const logInterval = (price: number, half: number): { low: number; high: number } => ({
  low: price * Math.exp(-half),
  high: price * Math.exp(half),
});

/** Solve for the prices: coarse cells first, then fine ones at the corners of the answer. */
export async function solvePrices(source: CellSource, input: CountPriceInput): Promise<CountPriceSolution> {
  const scores = new Scores(source, input.maxCount);
  const published = input.published.map((cost) => Math.min(input.maxCount, Math.max(1, input.budget / cost)));
  const coarse = await jacobi(scores, input, published, 'coarse');
  const fine = await jacobi(scores, input, coarse.kappa, 'fine');
  // The interval reads every corner of the answer, both counts around each κ, at the fine level.
  await source.measure(cornerRequests(fine.kappa, input.free, input.maxCount), 'fine');
  const covariance = priceCovariance(scores, input, fine.kappa);
  const prices = fine.kappa.map((k, u): CountPrice => {
    const price = input.budget / k;
    const variance = covariance[u];
    if (!input.free[u]) return { kappa: k, price, status: 'priced' };
    const status = fine.status[u] as PriceStatus;
    if (status !== 'priced' || variance === undefined || !Number.isFinite(variance)) return { kappa: k, price, status };
    return { kappa: k, price, interval: logInterval(price, Z_95 * Math.sqrt(Math.max(0, variance))), status };
  });
  return { kappa: fine.kappa, prices, converged: fine.converged };
}

/**
 * Var(ln price) of each free unit by the delta method. The prices solve Fᵤ(y, s) = Sᵤ − ½ = 0
 * (y = ln c), with, for a list, one of them replaced by the scale condition (their scores always
 * average ½, so the dropped one follows from the rest); dy = −J⁻¹·(∂F/∂s)·ds, and the measured
 * scores s are independent, each with its own variance.
 */
function priceCovariance(scores: Scores, input: CountPriceInput, kappa: readonly number[]): number[] {
  const n = kappa.length;
  const freeUnits = [...kappa.keys()].filter((u) => input.free[u]);
  const { maxCount } = scores;
  const corners = kappa.map((k) => cornerOf(k, maxCount));
  const weightAt = (corner: Corner, count: number) => (count === corner.low ? 1 - corner.frac : count === corner.low + 1 ? corner.frac : 0);
  const m = n - 1;
  // ∂Fᵤ/∂y_w (through κ_w = B / c_w, so ∂κ/∂y = −κ) and ∂Fᵤ/∂s for every cell read.
  const jacobian = freeUnits.map(() => new Float64Array(n));
  const sensitivity = new Map<string, { variance: number; rows: Map<number, number> }>();
  freeUnits.forEach((u, row) => {
    const cu = corners[u] as Corner;
    for (let v = 0; v < n; v++) {
      if (v === u) continue;
      const cv = corners[v] as Corner;
      for (const a of [cu.low, cu.low + 1]) {
        for (const b of [cv.low, cv.low + 1]) {
          const cell = scores.read(u, a, v, b, MIXED);
          const wa = weightAt(cu, a);
          const wb = weightAt(cv, b);
          // dS_uv/dκ_u = Σ_b w_b (s(lu+1, b) − s(lu, b)); dS_uv/dκ_v likewise.
          const dKappaU = (a === cu.low + 1 ? 1 : -1) * wb;
          const dKappaV = (b === cv.low + 1 ? 1 : -1) * wa;
          (jacobian[row] as Float64Array)[u] =
            ((jacobian[row] as Float64Array)[u] as number) + (dKappaU * cell.score * -(kappa[u] as number)) / m;
          (jacobian[row] as Float64Array)[v] =
            ((jacobian[row] as Float64Array)[v] as number) + (dKappaV * cell.score * -(kappa[v] as number)) / m;
          if (wa * wb === 0 || cell.variance === 0) continue;
          // A cell is one measurement whichever side reads it; read from the other side it is 1 − s, so its derivative flips sign.
          const entry = sensitivity.get(cell.key) ?? { variance: cell.variance, rows: new Map<number, number>() };
          entry.rows.set(row, (entry.rows.get(row) ?? 0) + (cell.sign * wa * wb) / m);
          sensitivity.set(cell.key, entry);
        }
      }
    }
  });
  const variances = new Array<number>(n).fill(0);
  if (freeUnits.length === 0) return variances;
  const list = freeUnits.length === n;
  // The system in the free units' y only (fixed units do not move).
  const size = freeUnits.length;
  const matrix = freeUnits.map((_, row) => freeUnits.map((w) => (jacobian[row] as Float64Array)[w] as number));
  if (list) {
    // The level condition replaces the last unit's equation: the middle half's mean change stays 0.
    matrix[size - 1] = levelWeights(logChanges(kappa, input));
  }
  const inverse = invertMatrix(matrix);
  if (inverse === undefined) return variances.map(() => Infinity);
  // dy = −J⁻¹·A·ds, one column of A per cell: Var(yᵤ) = Σ_cells (J⁻¹·A)[u, cell]²·σ²_cell.
  for (const { variance, rows } of sensitivity.values()) {
    freeUnits.forEach((u, i) => {
      let effect = 0;
      for (const [row, value] of rows) if (!(list && row === size - 1)) effect += ((inverse[i] as number[])[row] as number) * value;
      variances[u] = (variances[u] as number) + effect * effect * variance;
    });
  }
  return variances;
}

/** What u scores against the list at κ, by situation or mixed, and against one opponent. */
export function scoreAt(
  source: CellSource,
  maxCount: number,
  u: number,
  kappa: readonly number[],
  pick: ScorePick = MIXED,
  only?: number,
): { score: number; variance: number } {
  return new Scores(source, maxCount).atKappa(u, kappa, pick, only);
}

/** u alone (the others held at κ) in one situation, or against one opponent: its root and the interval from its own cells. */
export async function priceOneUnit(
  source: CellSource,
  input: CountPriceInput,
  kappa: readonly number[],
  u: number,
  pick: ScorePick,
  level: CellLevel,
  only?: number,
): Promise<CountPrice> {
  const scores = new Scores(source, input.maxCount);
  const root = await rootFor(scores, u, kappa, level, pick, kappa[u] as number, only);
  const at = [...kappa];
  at[u] = root.kappa;
  const price = input.budget / root.kappa;
  if (root.status !== 'priced') return { kappa: root.kappa, price, status: root.status };
  const { low } = cornerOf(root.kappa, input.maxCount);
  const cells =
    only === undefined
      ? scores.cellsAt(u, low, at).concat(scores.cellsAt(u, low + 1, at))
      : scores
          .cellsAt(u, low, at)
          .concat(scores.cellsAt(u, low + 1, at))
          .filter((request) => request.v === only);
  await source.measure(cells, level);
  const below = scores.atCount(u, low, at, pick, only);
  const above = scores.atCount(u, low + 1, at, pick, only);
  const slope = (above.score - below.score) * -root.kappa;
  const { variance } = scores.atKappa(u, at, pick, only);
  if (!(slope < 0)) return { kappa: root.kappa, price, status: 'priced' };
  return { kappa: root.kappa, price, interval: logInterval(price, (Z_95 * Math.sqrt(variance)) / Math.abs(slope)), status: 'priced' };
}

/** u's measured score at each whole count measured, against the list at κ (for the curve). */
export function measuredCurve(
  source: CellSource,
  maxCount: number,
  u: number,
  kappa: readonly number[],
): { count: number; score: number; variance: number; fine: boolean }[] {
  const scores = new Scores(source, maxCount);
  const points: { count: number; score: number; variance: number; fine: boolean }[] = [];
  for (let a = 1; a <= maxCount; a++) {
    const requests = scores.cellsAt(u, a, kappa);
    const cells = requests.map((request) => source.cell(request.u, request.a, request.v, request.b));
    if (cells.some((cell) => cell === undefined)) continue;
    const { score, variance } = scores.atCount(u, a, kappa, MIXED);
    points.push({ count: a, score, variance, fine: cells.every((cell) => cell?.level === 'fine') });
  }
  return points;
}
