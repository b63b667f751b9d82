import { type Dice, MAX_PACKED_D10, MAX_PACKED_DICE, POW6 } from './dice.js';
import { binomialTable, type OutcomeTable, sumOfDiceTable } from './outcome-table.js';

/**
 * Pool scoring by table look-up. A `FaceScore` gives what each face 1..6 is worth (e.g. Wounds vs a
 * DEF: 0 below it, 1 at or above, 2 on a critical six). `PoolScorer` precomputes, for n = 1..6
 * dice, the total of every packed roll, so scoring n dice costs one draw and one look-up per six.
 */
export type FaceScore = readonly [number, number, number, number, number, number];

/** The total score of n dice: rolled die by die (`PoolScorer`) or drawn whole (`PoolTables`). */
export interface PoolRoller {
  roll(dice: Dice, count: number): number;
}

export class PoolScorer implements PoolRoller {
  /** tables[n][packed] = total score of the n dice packed in `packed`. */
  private readonly tables: Uint8Array[] = [];

  constructor(readonly faceScore: FaceScore) {
    for (let n = 0; n <= MAX_PACKED_DICE; n++) {
      const size = POW6[n] ?? 1;
      const table = new Uint8Array(size);
      for (let packed = 0; packed < size; packed++) {
        let total = 0;
        let rest = packed;
        for (let i = 0; i < n; i++) {
          total += faceScore[rest % 6] ?? 0;
          rest = Math.floor(rest / 6);
        }
        table[packed] = total;
      }
      this.tables.push(table);
    }
  }

  /** Total score of `count` dice rolled now. */
  roll(dice: Dice, count: number): number {
    let total = 0;
    let left = count;
    const full = this.tables[MAX_PACKED_DICE] as Uint8Array;
    while (left >= MAX_PACKED_DICE) {
      total += full[dice.d6Packed(MAX_PACKED_DICE)] ?? 0;
      left -= MAX_PACKED_DICE;
    }
    if (left > 0) total += (this.tables[left] as Uint8Array)[dice.d6Packed(left)] ?? 0;
    return total;
  }
}

/**
 * The fast path of `PoolScorer` (issue 9): the total of n dice drawn in one `pick` from its exact
 * distribution (the n-fold convolution of the face scores), built the first time n dice are rolled
 * and kept, so a compiled scenario builds each pool size once for all its trials.
 */
export class PoolTables implements PoolRoller {
  private readonly tables: (OutcomeTable | undefined)[] = [];

  constructor(readonly faceScore: FaceScore) {}

  roll(dice: Dice, count: number): number {
    return dice.pick(this.tables[count] ?? this.build(count));
  }

  /** The table of `count` dice (built now if it was not yet). */
  table(count: number): OutcomeTable {
    return this.tables[count] ?? this.build(count);
  }

  private build(count: number): OutcomeTable {
    const table = sumOfDiceTable(this.faceScore, count);
    this.tables[count] = table;
    return table;
  }
}

/**
 * Scorers are immutable once built (a PoolTables only adds tables it has not built yet), so one
 * per face score serves every kernel of the thread: an analysis compiles a kernel per run (a
 * matchup matrix, thousands), and building a PoolScorer's 55,987 totals took most of a Warmaster
 * compile (bench/README.md, issue 20).
 */
const scorers = new Map<string, PoolScorer>();
const poolTables = new Map<string, PoolTables>();
/** Face scores are six small integers: a handful per rule system; the bound only guards a hostile input. */
const MAX_SHARED_SCORERS = 256;

function shared<Roller>(cache: Map<string, Roller>, faceScore: FaceScore, make: () => Roller): Roller {
  const key = faceScore.join(',');
  let roller = cache.get(key);
  if (roller === undefined) {
    roller = make();
    if (cache.size >= MAX_SHARED_SCORERS) cache.clear();
    cache.set(key, roller);
  }
  return roller;
}

/** The thread's PoolScorer for `faceScore` (built once). */
export const poolScorer = (faceScore: FaceScore): PoolScorer => shared(scorers, faceScore, () => new PoolScorer(faceScore));

/** A pool scorer of either kind for `faceScore`: die by die, or drawn from tables (each shared by the thread's kernels). */
export function poolRoller(faceScore: FaceScore, method: 'dice' | 'tables'): PoolRoller {
  return method === 'tables' ? shared(poolTables, faceScore, () => new PoolTables(faceScore)) : poolScorer(faceScore);
}

/** Score of each face for "succeed on `target`+" with no criticals (e.g. Shield rolls on 5+). */
export function atLeast(target: number): FaceScore {
  return [1, 2, 3, 4, 5, 6].map((face) => (face >= target ? 1 : 0)) as unknown as FaceScore;
}

/**
 * Counting D10 tests by table look-up: `count(dice, n, target)` is how many of n D10 pass a test on
 * `target` (rulings §19: ≤ target, a 1 always passes, a 10 always fails, so only targets 1..9
 * differ). Dice are drawn nine at a time (`d10Packed(9)`), scored three digits per look-up.
 */
export interface D10Counter {
  count(dice: Dice, n: number, target: number): number;
}

export class D10Tests implements D10Counter {
  /** tables[t][x] = dice of the three-digit pool x (digits = faces − 1) at or under t (clamped to 1..9). */
  private readonly tables: Uint8Array[] = [];

  constructor() {
    for (let target = 0; target <= 10; target++) {
      const limit = Math.min(9, Math.max(1, target));
      const table = new Uint8Array(1000);
      for (let x = 0; x < 1000; x++) {
        let passed = 0;
        for (let i = 0, rest = x; i < 3; i++, rest = Math.floor(rest / 10)) if ((rest % 10) + 1 <= limit) passed++;
        table[x] = passed;
      }
      this.tables.push(table);
    }
  }

  count(dice: Dice, n: number, target: number): number {
    // Up to three dice (most tests are one die): one draw, one chunk, as the loop below reads it.
    if (n === 1) return dice.d10Packed(1) < (target < 1 ? 1 : Math.min(target, 9)) ? 1 : 0;
    const table = this.tables[target < 1 ? 1 : Math.min(target, 9)] as Uint8Array;
    if (n === 3) return table[dice.d10Packed(3)] as number;
    if (n === 2) return this.partial(dice.d10Packed(2), 2, target);
    let passed = 0;
    let left = n;
    while (left > 0) {
      const take = Math.min(left, MAX_PACKED_D10);
      let packed = dice.d10Packed(take);
      // Three digits per look-up; digits beyond `take` are 0 (a face of 1), so mask them off below.
      for (let done = 0; done < take; done += 3) {
        const chunk = packed % 1000;
        packed = (packed - chunk) / 1000;
        const inChunk = Math.min(take - done, 3);
        passed += inChunk === 3 ? (table[chunk] as number) : this.partial(chunk, inChunk, target);
      }
      left -= take;
    }
    return passed;
  }

  /** The first `dice` digits of `chunk` (1 or 2 dice). */
  private partial(chunk: number, dice: number, target: number): number {
    const limit = target < 1 ? 1 : Math.min(target, 9);
    let passed = (chunk % 10) + 1 <= limit ? 1 : 0;
    if (dice === 2 && (Math.floor(chunk / 10) % 10) + 1 <= limit) passed++;
    return passed;
  }
}

/**
 * The fast path of `D10Tests`: how many of n D10 pass a test on `target` (1 always passes, 10 always
 * fails) drawn in one `pick` from Binomial(n, clamp(target, 1, 9) / 10), tables built on first use.
 */
export class D10TestTables implements D10Counter {
  private readonly tables: (OutcomeTable | undefined)[] = [];

  count(dice: Dice, n: number, target: number): number {
    const limit = target < 1 ? 1 : Math.min(target, 9);
    const key = n * 10 + limit;
    return dice.pick(this.tables[key] ?? this.build(key, n, limit));
  }

  private build(key: number, n: number, limit: number): OutcomeTable {
    const table = binomialTable(n, limit / 10);
    this.tables[key] = table;
    return table;
  }
}
