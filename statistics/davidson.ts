import { type Interval, Z_95 } from './intervals.js';

/**
 * Paired comparisons with draws: the Bradley–Terry model extended by Davidson (1970), fitted by
 * maximum likelihood. Unit i has strength π = e^θ; when i sits in the first seat (side A) against
 * j, with a first-seat advantage η added to i's log-strength (π'ᵢ = πᵢe^η),
 *
 *   P(i wins) = π'ᵢ / D,   P(draw) = ν√(π'ᵢπⱼ) / D,   P(j wins) = πⱼ / D,   D = π'ᵢ + πⱼ + ν√(π'ᵢπⱼ).
 *
 * With u = θᵢ + η − θⱼ the log-probabilities are u/2, log ν and −u/2, each minus log D: the model
 * is log-linear in (θ, η, λ = log ν), so the log-likelihood is concave and Newton's method with
 * step halving climbs to its maximum from anywhere. Observed and expected information coincide
 * (the second derivatives do not involve how the games split), so the covariance is both.
 *
 * Strengths are defined up to a common shift: the fit fixes θ₀ = 0, then reports θ centred (Σθ = 0)
 * with the covariance carried through the same centring.
 */

export interface PairingCounts {
  /** Unit indices 0..units-1: `first` played in the first seat (side A), `second` in side B. */
  readonly first: number;
  readonly second: number;
  readonly firstWins: number;
  readonly draws: number;
  readonly secondWins: number;
}

export interface DavidsonOptions {
  /** Also fit a first-seat advantage η (log-odds added to the first-seated unit). Default true when
   *  some pair of units was played in both seatings, else false. */
  readonly seatAdvantage?: boolean;
  readonly maxIterations?: number; // default 200
}

export interface DavidsonFit {
  /** log-strengths θᵢ, centred (Σθ = 0): P(i beats j) = πᵢ/(πᵢ + πⱼ + ν√(πᵢπⱼ)), π = e^θ,
   *  P(draw) = ν√(πᵢπⱼ)/(…). */
  readonly strength: readonly number[];
  /** Standard errors of θᵢ under the Σθ = 0 constraint, and the full covariance (units × units). */
  readonly standardError: readonly number[];
  readonly covariance: readonly (readonly number[])[];
  /** Draw parameter ν ≥ 0 with its 95% interval (ν = 0 when no draws were seen). */
  readonly drawParameter: number;
  readonly drawInterval: Interval;
  /** First-seat advantage η (0 when not fitted) and its standard error. */
  readonly seatAdvantage: number;
  readonly seatAdvantageStandardError: number;
  /** Log-likelihood of the data (without the multinomial constant, and without the prior below). */
  readonly logLikelihood: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** True when some estimate would have been infinite and the prior (PRIOR_GAMES_PER_UNIT) was added. */
  readonly regularized?: boolean;
}

const DEFAULT_MAX_ITERATIONS = 200;
/** Newton stops when the log-likelihood it still expects to gain (half the Newton decrement) is this small. */
const CONVERGENCE_GAIN = 1e-10;
const MAX_STEP_HALVINGS = 50;
/** With no draw seen, ν's upper bound is where P(no draw in any game | fit, ν) falls to 5%. */
const NO_DRAW_TAIL = 0.05;

/**
 * When some group of units scored nothing (not even a draw) against the units outside it — one
 * unit won every game, or lost every game — maximum-likelihood strengths are infinite (Zermelo
 * 1929, Ford 1957); likewise η when a unit won every game it sat first in. Rather than fail, every
 * unit then plays this many virtual games against a virtual unit of strength 0, half won and half
 * lost, split between the seats when η is fitted: the virtual games of Coulom's Whole-History
 * Rating (2008), halved. It is symmetric (every unit is pulled alike, towards the centre of the
 * scale), makes every estimate finite and leaves ν to the data (its results are decisive). One
 * game against the hundreds a unit plays moves a finite strength far less than its standard error,
 * and it is only added when needed, so well-posed data get the plain MLE.
 */
export const PRIOR_GAMES_PER_UNIT = 1;

type Outcome = Record<'first' | 'draw' | 'second' | 'logFirst' | 'logDraw' | 'logSecond', number>;

const newOutcome = (): Outcome => ({ first: 0, draw: 0, second: 0, logFirst: 0, logDraw: 0, logSecond: 0 });

/**
 * P(first wins), P(draw), P(second wins) and their logs at u = θ_first + η − θ_second, computed
 * without overflow and written into `out` (the fit calls this for every pairing at every step).
 */
function outcomeAt(u: number, drawParameter: number, out: Outcome = newOutcome()): Outcome {
  const half = Math.abs(u) / 2;
  const small = Math.exp(-half); // D = e^{|u|/2}·(1 + small² + ν·small)
  const logNormaliser = Math.log1p(small * small + drawParameter * small);
  const likely = 1 / (1 + small * small + drawParameter * small);
  const unlikely = small * small * likely;
  out.draw = drawParameter * small * likely;
  out.logDraw = drawParameter > 0 ? Math.log(drawParameter) - half - logNormaliser : -Infinity;
  out.first = u >= 0 ? likely : unlikely;
  out.second = u >= 0 ? unlikely : likely;
  out.logFirst = u >= 0 ? -logNormaliser : -2 * half - logNormaliser;
  out.logSecond = u >= 0 ? -2 * half - logNormaliser : -logNormaliser;
  return out;
}

/** The model's P(first wins), P(draw), P(second wins) for two strengths (helper for tests/reports). */
export function davidsonProbabilities(
  thetaFirst: number,
  thetaSecond: number,
  drawParameter: number,
  seatAdvantage = 0,
): { firstWins: number; draw: number; secondWins: number } {
  if (![thetaFirst, thetaSecond, seatAdvantage].every(Number.isFinite) || !(drawParameter >= 0 && drawParameter < Infinity)) {
    throw new RangeError(
      `davidsonProbabilities needs finite strengths and seat advantage and a finite draw parameter ≥ 0, got ${thetaFirst}, ${thetaSecond}, ${seatAdvantage}, ${drawParameter}`,
    );
  }
  const p = outcomeAt(thetaFirst + seatAdvantage - thetaSecond, drawParameter);
  return { firstWins: p.first, draw: p.draw, secondWins: p.second };
}

/** Expected score (win + ½ draw) of unit i against j, averaged over both seatings. */
export function davidsonExpectedScore(fit: DavidsonFit, i: number, j: number): number {
  const units = fit.strength.length;
  if (![i, j].every((unit) => Number.isInteger(unit) && unit >= 0 && unit < units)) {
    throw new RangeError(`davidsonExpectedScore needs unit indices in 0..${units - 1}, got ${i} and ${j}`);
  }
  const [thetaI, thetaJ] = [fit.strength[i] as number, fit.strength[j] as number];
  const iFirst = davidsonProbabilities(thetaI, thetaJ, fit.drawParameter, fit.seatAdvantage);
  const jFirst = davidsonProbabilities(thetaJ, thetaI, fit.drawParameter, fit.seatAdvantage);
  return (iFirst.firstWins + iFirst.draw / 2 + jFirst.secondWins + jFirst.draw / 2) / 2;
}

const gamesIn = (pairing: PairingCounts): number => pairing.firstWins + pairing.draws + pairing.secondWins;

function checkPairings(units: number, pairings: readonly PairingCounts[]): void {
  if (!Number.isInteger(units) || units < 2) throw new RangeError(`fitDavidson needs at least 2 units, got ${units}`);
  pairings.forEach((pairing, index) => {
    for (const seat of ['first', 'second'] as const) {
      if (!(Number.isInteger(pairing[seat]) && pairing[seat] >= 0 && pairing[seat] < units))
        throw new RangeError(`pairings[${index}].${seat} must be a unit index in 0..${units - 1}, got ${pairing[seat]}`);
    }
    if (pairing.first === pairing.second)
      throw new RangeError(`pairings[${index}] sets unit ${pairing.first} against itself, which says nothing about strengths`);
    for (const count of ['firstWins', 'draws', 'secondWins'] as const) {
      if (!(pairing[count] >= 0 && pairing[count] < Infinity))
        throw new RangeError(`pairings[${index}].${count} must be a finite count ≥ 0, got ${pairing[count]}`);
    }
  });
}

/** Which units are reached from unit 0 along `edges` (adjacency lists). */
function reachedFromFirst(edges: readonly number[][]): boolean[] {
  const reached = edges.map((_, unit) => unit === 0);
  const stack = [0];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const other of edges[next] ?? []) {
      if (!reached[other]) {
        reached[other] = true;
        stack.push(other);
      }
    }
  }
  return reached;
}

/**
 * Throws when the units do not form one connected group of comparisons (no common scale exists);
 * returns whether finite MLE strengths exist: every unit reaches every other along "scored at least
 * a draw against" edges and back (Ford's condition, a draw counting both ways).
 */
function strengthsAreFinite(units: number, played: readonly PairingCounts[]): boolean {
  const lists = (): number[][] => Array.from({ length: units }, () => []);
  const [met, scoredAgainst, scoredBy] = [lists(), lists(), lists()];
  const link = (from: number, to: number, scored: number) => {
    met[from]?.push(to);
    if (scored === 0) return;
    scoredAgainst[from]?.push(to);
    scoredBy[to]?.push(from);
  };
  for (const { first, second, firstWins, draws, secondWins } of played) {
    link(first, second, firstWins + draws);
    link(second, first, secondWins + draws);
  }
  const apart = reachedFromFirst(met).flatMap((reached, unit) => (reached ? [] : [unit]));
  if (apart.length > 0) {
    throw new RangeError(
      `the units do not all meet, directly or through others: unit${apart.length > 1 ? 's' : ''} ${apart.join(', ')} never played unit 0's group, so no common scale of strength exists`,
    );
  }
  return reachedFromFirst(scoredAgainst).every(Boolean) && reachedFromFirst(scoredBy).every(Boolean);
}

/** Where each parameter sits in the Newton vector, −1 when held fixed; `theta` has the prior's virtual unit (fixed at 0) last. */
interface Layout {
  readonly theta: readonly number[];
  readonly logDraw: number;
  readonly seat: number;
  readonly size: number;
}

function layoutFor(units: number, anchoredByPrior: boolean, fitDraws: boolean, fitSeat: boolean): Layout {
  // Without the prior θ₀ = 0 fixes the common shift; with it the virtual unit does.
  let size = 0;
  const theta = Array.from({ length: units + 1 }, (_, unit) => (unit === units || (unit === 0 && !anchoredByPrior) ? -1 : size++));
  const logDraw = fitDraws ? size++ : -1;
  const seat = fitSeat ? size++ : -1;
  return { theta, logDraw, seat, size };
}

/** The log-likelihood, its gradient and the information (−Hessian, row-major size × size). */
interface Evaluation {
  readonly logLikelihood: number;
  readonly gradient: Float64Array;
  readonly information: Float64Array;
}

const valueOf = (parameters: Float64Array, index: number): number => (index < 0 ? 0 : (parameters[index] as number));

/**
 * Log-likelihood and (with `derivatives`) its gradient and information. Each pairing depends on
 * the parameters through u = θ_first − θ_second + η and λ = log ν, so its 2 × 2 derivatives in
 * (u, λ) are spread onto the parameters with the coefficients (1, −1, 1 on u; 1 on λ).
 */
function evaluate(layout: Layout, pairings: readonly PairingCounts[], parameters: Float64Array, derivatives = true): Evaluation {
  const { size } = layout;
  const gradient = new Float64Array(derivatives ? size : 0);
  const information = new Float64Array(derivatives ? size * size : 0);
  const drawParameter = layout.logDraw < 0 ? 0 : Math.exp(valueOf(parameters, layout.logDraw));
  const seat = valueOf(parameters, layout.seat);
  const p = newOutcome();
  const index = Int32Array.of(0, 0, layout.seat, layout.logDraw);
  const onU = Float64Array.of(1, -1, 1, 0);
  const onDraw = Float64Array.of(0, 0, 0, 1);
  let logLikelihood = 0;
  for (const pairing of pairings) {
    const { firstWins: wins, draws, secondWins: losses } = pairing;
    const n = wins + draws + losses;
    index[0] = layout.theta[pairing.first] as number;
    index[1] = layout.theta[pairing.second] as number;
    outcomeAt(valueOf(parameters, index[0] as number) + seat - valueOf(parameters, index[1] as number), drawParameter, p);
    logLikelihood += wins * p.logFirst + losses * p.logSecond + (draws > 0 ? draws * p.logDraw : 0);
    if (!derivatives) continue;
    const gradU = (wins - losses - n * (p.first - p.second)) / 2;
    const gradDraw = draws - n * p.draw;
    const infoUU = (n * (p.first + p.second - (p.first - p.second) ** 2)) / 4;
    const infoUDraw = (-n * (p.first - p.second) * p.draw) / 2;
    const infoDrawDraw = n * p.draw * (1 - p.draw);
    for (let a = 0; a < 4; a++) {
      const row = index[a] as number;
      if (row < 0) continue;
      const ua = onU[a] as number;
      const da = onDraw[a] as number;
      gradient[row] = (gradient[row] as number) + ua * gradU + da * gradDraw;
      for (let b = 0; b < 4; b++) {
        const column = index[b] as number;
        if (column < 0) continue;
        const cell = row * size + column;
        const ub = onU[b] as number;
        const db = onDraw[b] as number;
        information[cell] = (information[cell] as number) + ua * ub * infoUU + (ua * db + da * ub) * infoUDraw + da * db * infoDrawDraw;
      }
    }
  }
  return { logLikelihood, gradient, information };
}

/** Cov(θc) for the centred θc = (I − 11ᵀ/m)θ: V (zero for a fixed θ) minus its row and column means plus its grand mean. */
function centredCovariance(inverse: Float64Array, layout: Layout, units: number): number[][] {
  const full = Array.from({ length: units }, (_, i) => {
    const a = layout.theta[i] as number;
    return Array.from({ length: units }, (_, j) => {
      const b = layout.theta[j] as number;
      return a < 0 || b < 0 ? 0 : (inverse[a * layout.size + b] as number);
    });
  });
  const rowMeans = full.map((row) => row.reduce((sum, value) => sum + value, 0) / units);
  const grandMean = rowMeans.reduce((sum, value) => sum + value, 0) / units;
  return full.map((row, i) => row.map((value, j) => value - (rowMeans[i] as number) - (rowMeans[j] as number) + grandMean));
}

/** The prior's virtual games (PRIOR_GAMES_PER_UNIT per unit) against the virtual unit `units`. */
function priorPairings(units: number, splitSeats: boolean): PairingCounts[] {
  const share = PRIOR_GAMES_PER_UNIT / (splitSeats ? 4 : 2);
  return Array.from({ length: units }, (_, unit) => [
    { first: unit, second: units, firstWins: share, draws: 0, secondWins: share },
    ...(splitSeats ? [{ first: units, second: unit, firstWins: share, draws: 0, secondWins: share }] : []),
  ]).flat();
}

/**
 * Cholesky factor L (row-major, lower) of a symmetric positive definite n × n matrix, or undefined
 * when it is numerically singular: a pivot below 1e-10 of its diagonal means that parameter is a
 * combination of the ones before it, which the data cannot separate. Written here because no
 * dependency of the project solves dense systems; O(n³/6), tens of milliseconds at 400 units.
 */
function choleskyFactor(matrix: Float64Array, n: number): Float64Array | undefined {
  const lower = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let pivot = matrix[j * n + j] as number;
    for (let k = 0; k < j; k++) pivot -= (lower[j * n + k] as number) ** 2;
    if (!(pivot > 1e-10 * (matrix[j * n + j] as number))) return undefined;
    const root = Math.sqrt(pivot);
    lower[j * n + j] = root;
    for (let i = j + 1; i < n; i++) {
      let sum = matrix[i * n + j] as number;
      for (let k = 0; k < j; k++) sum -= (lower[i * n + k] as number) * (lower[j * n + k] as number);
      lower[i * n + j] = sum / root;
    }
  }
  return lower;
}

/** x with L·Lᵀ·x = b. */
function choleskySolve(lower: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < i; k++) x[i] = (x[i] as number) - (lower[i * n + k] as number) * (x[k] as number);
    x[i] = (x[i] as number) / (lower[i * n + i] as number);
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let k = i + 1; k < n; k++) x[i] = (x[i] as number) - (lower[k * n + i] as number) * (x[k] as number);
    x[i] = (x[i] as number) / (lower[i * n + i] as number);
  }
  return x;
}

/** (L·Lᵀ)⁻¹ = L⁻ᵀL⁻¹: L⁻¹ by forward substitution, kept transposed so every inner loop runs along a row. */
function choleskyInverse(lower: Float64Array, n: number): Float64Array {
  const inverseLowerT = new Float64Array(n * n); // row c holds column c of L⁻¹
  for (let c = 0; c < n; c++) {
    inverseLowerT[c * n + c] = 1 / (lower[c * n + c] as number);
    for (let i = c + 1; i < n; i++) {
      let sum = 0;
      for (let k = c; k < i; k++) sum += (lower[i * n + k] as number) * (inverseLowerT[c * n + k] as number);
      inverseLowerT[c * n + i] = -sum / (lower[i * n + i] as number);
    }
  }
  const inverse = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = i; k < n; k++) sum += (inverseLowerT[i * n + k] as number) * (inverseLowerT[j * n + k] as number);
      inverse[i * n + j] = sum;
      inverse[j * n + i] = sum;
    }
  }
  return inverse;
}

/**
 * ν's upper bound when no draw was seen: P(no draw in any game) = Π (1 + ν·s)^(−n), s = 1/(2cosh(u/2)),
 * falls to NO_DRAW_TAIL (the exact one-sided bound given the fitted strengths, as the "rule of three" is for a rate).
 */
function noDrawUpperBound(pairs: readonly { games: number; u: number }[]): number {
  const surprise = (nu: number) => pairs.reduce((sum, { games, u }) => sum + games * Math.log1p(nu / (2 * Math.cosh(u / 2))), 0);
  const target = -Math.log(NO_DRAW_TAIL);
  let [low, high] = [0, 1];
  while (surprise(high) < target && high < 1e12) high *= 2;
  for (let step = 0; step < 200 && high - low > 1e-12 * high; step++) {
    const middle = (low + high) / 2;
    if (surprise(middle) < target) low = middle;
    else high = middle;
  }
  return high;
}

interface Maximum {
  readonly parameters: Float64Array;
  readonly evaluation: Evaluation;
  readonly factor: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

const singular = (layout: Layout) =>
  new RangeError(
    layout.seat >= 0
      ? 'the first-seat advantage cannot be told apart from the strengths with these pairings (play some pairs in both seatings, or fit without seatAdvantage)'
      : 'the strengths cannot be told apart with these pairings (the information matrix is singular)',
  );

/**
 * Newton's method with step halving from `parameters`. Throws when the information is singular at
 * the start (a parameter the pairings cannot identify); undefined when it becomes singular on the
 * way (the likelihood keeps rising towards an infinite estimate).
 */
function maximise(
  layout: Layout,
  pairings: readonly PairingCounts[],
  parameters: Float64Array,
  maxIterations: number,
): Maximum | undefined {
  let evaluation = evaluate(layout, pairings, parameters);
  let factor = choleskyFactor(evaluation.information, layout.size);
  if (factor === undefined) throw singular(layout);
  for (let iterations = 0; ; iterations++) {
    const step = choleskySolve(factor, layout.size, evaluation.gradient);
    const expectedGain = step.reduce((sum, value, index) => sum + value * (evaluation.gradient[index] as number), 0) / 2;
    const converged = expectedGain < CONVERGENCE_GAIN;
    if (converged || iterations === maxIterations) return { parameters, evaluation, factor, iterations, converged };
    // The full Newton step unless it lowers the log-likelihood (ties at the last bits pass).
    let next: Evaluation | undefined;
    for (let halving = 0, scale = 1; halving < MAX_STEP_HALVINGS && next === undefined; halving++, scale /= 2) {
      const trial = parameters.map((value, index) => value + scale * (step[index] as number));
      const candidate = evaluate(layout, pairings, trial);
      if (candidate.logLikelihood >= evaluation.logLikelihood - 1e-13 * Math.abs(evaluation.logLikelihood)) {
        parameters.set(trial);
        next = candidate;
      }
    }
    if (next === undefined) return { parameters, evaluation, factor, iterations, converged };
    evaluation = next;
    factor = choleskyFactor(evaluation.information, layout.size);
    if (factor === undefined) return undefined;
  }
}

/** Bradley–Terry with draws (Davidson 1970) by maximum likelihood. */
export function fitDavidson(units: number, pairings: readonly PairingCounts[], options: DavidsonOptions = {}): DavidsonFit {
  checkPairings(units, pairings);
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!Number.isInteger(maxIterations) || maxIterations < 1)
    throw new RangeError(`maxIterations must be a whole number ≥ 1, got ${maxIterations}`);
  const played = pairings.filter((pairing) => gamesIn(pairing) > 0);
  const seatings = new Set(played.map((pairing) => pairing.first * units + pairing.second));
  const fitSeat = options.seatAdvantage ?? played.some((pairing) => seatings.has(pairing.second * units + pairing.first));
  const draws = played.reduce((sum, pairing) => sum + pairing.draws, 0);
  const decisive = played.reduce((sum, pairing) => sum + pairing.firstWins + pairing.secondWins, 0);
  const attempt = (withPrior: boolean) => {
    const layout = layoutFor(units, withPrior, draws > 0, fitSeat);
    // Start from equal strengths, no seat advantage, and the ν that gives equals the observed draw rate.
    const start = new Float64Array(layout.size);
    const drawRate = draws / (draws + decisive + (withPrior ? units * PRIOR_GAMES_PER_UNIT : 0));
    if (layout.logDraw >= 0) start[layout.logDraw] = Math.log((2 * drawRate) / (1 - drawRate));
    return { layout, maximum: maximise(layout, withPrior ? [...played, ...priorPairings(units, fitSeat)] : played, start, maxIterations) };
  };
  // Ford's condition, or nothing but draws (ν infinite), calls for the prior at once. The condition
  // ignores seats, so a unit that won every game in one seat can still send η off to infinity:
  // Newton then fails to settle, and the fit is done again with the prior.
  let regularized = !strengthsAreFinite(units, played) || (draws > 0 && decisive === 0);
  let { layout, maximum } = attempt(regularized);
  if (!regularized && !maximum?.converged) ({ layout, maximum } = attempt((regularized = true)));
  if (maximum === undefined)
    throw new RangeError('the strengths run off to infinity even with the prior: the pairings separate the units completely');
  const { parameters, factor, iterations, converged } = maximum;

  const inverse = choleskyInverse(factor, layout.size);
  const varianceOf = (index: number) => (index < 0 ? 0 : (inverse[index * layout.size + index] as number));
  const raw = Array.from({ length: units }, (_, unit) => valueOf(parameters, layout.theta[unit] as number));
  const meanStrength = raw.reduce((sum, value) => sum + value, 0) / units;
  const covariance = centredCovariance(inverse, layout, units);
  const seatAdvantage = valueOf(parameters, layout.seat);
  let drawInterval: Interval;
  if (layout.logDraw >= 0) {
    const halfWidth = Z_95 * Math.sqrt(varianceOf(layout.logDraw));
    drawInterval = {
      low: Math.exp(valueOf(parameters, layout.logDraw) - halfWidth),
      high: Math.exp(valueOf(parameters, layout.logDraw) + halfWidth),
    };
  } else {
    const games = played.map((pairing) => ({
      games: gamesIn(pairing),
      u: (raw[pairing.first] as number) + seatAdvantage - (raw[pairing.second] as number),
    }));
    drawInterval = { low: 0, high: noDrawUpperBound(games) };
  }
  return {
    strength: raw.map((value) => value - meanStrength),
    standardError: covariance.map((row, unit) => Math.sqrt(Math.max(0, row[unit] as number))),
    covariance,
    drawParameter: layout.logDraw < 0 ? 0 : Math.exp(valueOf(parameters, layout.logDraw)),
    drawInterval,
    seatAdvantage,
    seatAdvantageStandardError: Math.sqrt(varianceOf(layout.seat)),
    logLikelihood: regularized ? evaluate(layout, played, parameters, false).logLikelihood : maximum.evaluation.logLikelihood,
    iterations,
    converged,
    regularized,
  };
}
