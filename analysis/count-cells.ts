import type { ShardExecutor } from '../sim/shard-task.js';
import { runSeed } from '../sim/run-seed.js';
import { combineOutcomes, mixOutcomes, type Outcome, scoreVarianceOfMean } from '../statistics/outcome.js';
import type { LoadedRoster, RosterEntry } from '../input/roster.js';
import { inLanes, LeftOutTally, playSeated } from './seated.js';

/**
 * The measured games behind prices of units bought by count: a cell is entry u fielding a models
 * against entry v fielding b models, played in both seatings and every situation of the roster,
 * and read as u's expected score (win + ½ draw) — each situation's, and their mix by share. Cells
 * are measured on demand, at two precisions (a coarse one while searching, the fine one where the
 * answer lies), and kept: analysis/count-prices.ts asks for what it needs and reads them back.
 *
 * A cell is a game between two units at two counts, whichever entries field them: it is stored once,
 * under the side that comes first by unit and count, and v's score at (b, a) against u is 1 − u's at
 * (a, b), exactly (both seatings are played, so the two are one set of games seen from either
 * side). So entries of the same unit — identical copies — share their games and are priced exactly
 * alike, and a unit against itself at the same count is a mirror: exactly ½, measured by no game.
 */

export type CellLevel = 'coarse' | 'fine';

export interface CellValue {
  /** u's expected score over the mix of situations, and the variance of that estimate (of the mean). */
  readonly score: number;
  readonly variance: number;
  /** Each situation's, in the roster's order. */
  readonly bySituation: readonly { readonly score: number; readonly variance: number }[];
  readonly trials: number;
  readonly level: CellLevel;
  /** The game it is (one key for both sides), and +1 read as stored, −1 read from the other side (score 1 − stored). */
  readonly key: string;
  readonly sign: 1 | -1;
}

export interface CellRequest {
  readonly u: number;
  readonly a: number;
  readonly v: number;
  readonly b: number;
}

/** What the price solver reads: cells by entry index and count, measured when asked. */
export interface CellSource {
  readonly entries: number;
  readonly situations: number;
  /** Measure these cells (at least) at this level; resolves when all are. */
  measure(requests: readonly CellRequest[], level: CellLevel): Promise<void>;
  /** u's score at a models against v at b, if measured. */
  cell(u: number, a: number, v: number, b: number): CellValue | undefined;
}

export const flipped = (value: CellValue): CellValue => ({
  ...value,
  sign: -1,
  score: 1 - value.score,
  bySituation: value.bySituation.map((entry) => ({ score: 1 - entry.score, variance: entry.variance })),
});

/** A unit against itself at the same count, over both seatings: exactly ½ (a source builds it once). */
export const exactHalf = (situations: number): CellValue => ({
  score: 0.5,
  variance: 0,
  bySituation: Array.from({ length: situations }, () => ({ score: 0.5, variance: 0 })),
  trials: 0,
  level: 'fine',
  key: '',
  sign: 1,
});

/** The cells of one roster's games, measured on an executor. */
export class RosterCells implements CellSource {
  readonly entries: number;
  readonly situations: number;
  private readonly stored = new Map<string, CellValue>();
  private readonly pending = new Map<string, Promise<void>>();
  readonly leftOut = new LeftOutTally();
  trialsInAll = 0;
  runs = 0;
  /** Runs at each level (each seating of each situation of a cell is a run). */
  readonly runsAt: Record<CellLevel, number> = { coarse: 0, fine: 0 };
  provenance: { ruleset: string; engineVersion: string } | undefined;
  private readonly half: CellValue;

  /**
   * `seed` is the analysis's: each run's own is derived from it and the game (analysis/seated.ts);
   * `trials` gives each seating's trials at each level.
   */
  constructor(
    private readonly roster: LoadedRoster,
    private readonly units: readonly RosterEntry[],
    private readonly seed: number,
    private readonly trialsAt: Readonly<Record<CellLevel, number>>,
    private readonly executor: ShardExecutor | undefined,
    private readonly onRun?: (runs: number) => void,
  ) {
    this.entries = units.length;
    this.situations = roster.situations.length;
    this.half = exactHalf(this.situations);
  }

  private unitOf(u: number): string {
    const entry = this.units[u] as RosterEntry;
    return entry.unit ?? entry.id;
  }

  /** Does (u, a) come before (v, b), by unit then count? The cell is stored that way round. */
  private first(u: number, a: number, v: number, b: number): boolean {
    const [left, right] = [this.unitOf(u), this.unitOf(v)];
    return left < right || (left === right && a < b);
  }

  private key(u: number, a: number, v: number, b: number): string {
    return `${this.unitOf(u)}\u0000${a}\u0000${this.unitOf(v)}\u0000${b}`;
  }

  cell(u: number, a: number, v: number, b: number): CellValue | undefined {
    if (this.unitOf(u) === this.unitOf(v) && a === b) return this.half;
    if (!this.first(u, a, v, b)) {
      const stored = this.stored.get(this.key(v, b, u, a));
      return stored === undefined ? undefined : flipped(stored);
    }
    return this.stored.get(this.key(u, a, v, b));
  }

  async measure(requests: readonly CellRequest[], level: CellLevel): Promise<void> {
    const work = new Map<string, CellRequest>();
    for (const request of requests) {
      const { u, a, v, b } = this.first(request.u, request.a, request.v, request.b)
        ? request
        : { u: request.v, a: request.b, v: request.u, b: request.a };
      if (this.unitOf(u) === this.unitOf(v) && a === b) continue;
      const known = this.stored.get(this.key(u, a, v, b));
      if (known !== undefined && (known.level === 'fine' || level === 'coarse')) continue;
      work.set(`${this.key(u, a, v, b)}\u0000${level}`, { u, a, v, b });
    }
    const queue = [...work.entries()];
    await inLanes(queue.length, this.executor, async (index) => {
      const [key, request] = queue[index] as (typeof queue)[number];
      let running = this.pending.get(key);
      if (running === undefined) {
        running = this.play(request, level);
        this.pending.set(key, running);
      }
      await running;
    });
  }

  /** Both seatings of u × a against v × b in every situation, mixed by share. */
  private async play({ u, a, v, b }: CellRequest, level: CellLevel): Promise<void> {
    const unit = this.units[u] as RosterEntry;
    const opponent = this.units[v] as RosterEntry;
    const counts = { unit: a, opponent: b };
    const run = { trials: this.trialsAt[level], seed: this.seed, ...(this.executor === undefined ? {} : { executor: this.executor }) };
    const seated: Outcome[] = [];
    for (const situation of this.roster.situations) {
      const play = async (seat: 0 | 1): Promise<Outcome> => {
        const played = await playSeated(this.roster, { unit, opponent, seat, situation, counts }, run);
        this.trialsInAll += played.outcome.trials;
        this.runs += 1;
        this.runsAt[level] += 1;
        this.provenance ??= { ruleset: played.loaded.system.id, engineVersion: played.loaded.system.version };
        this.leftOut.add(this.roster, situation, played);
        this.onRun?.(this.runs);
        return played.outcome;
      };
      seated.push(combineOutcomes([await play(0), await play(1)]));
    }
    const shares = this.roster.situations.map((situation) => situation.share);
    const mixed = mixOutcomes(seated, shares);
    // A coarse run that ends after the fine one of the same cell must not replace it.
    if (level === 'coarse' && this.stored.get(this.key(u, a, v, b))?.level === 'fine') return;
    this.stored.set(this.key(u, a, v, b), {
      score: mixed.score.value,
      variance: scoreVarianceOfMean(mixed),
      bySituation: seated.map((outcome) => ({ score: outcome.score.value, variance: scoreVarianceOfMean(outcome) })),
      trials: mixed.trials,
      level,
      key: this.key(u, a, v, b),
      sign: 1,
    });
  }
}

/** The seed of a replay: the analysis's, moved to streams no fit read (the check plays fresh games). */
export const checkSeed = (seed: number): number => runSeed(seed, ['price-check']);
