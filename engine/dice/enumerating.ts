import { POW10, POW6, type Dice } from './dice.js';
import { type OutcomeTable, UNIT_ROUNDOFF } from './outcome-table.js';

/** Draws on one path beyond which a trial is taken to loop (a re-roll on ties), not to end. */
export const MAX_DRAWS_PER_PATH = 100_000;

/** Thrown when a path draws more than the enumeration allows (the caller falls back to Monte Carlo). */
export class TooManyOutcomesError extends Error {
  constructor(readonly limit: number) {
    super(`a path of more than ${limit} draws`);
  }
}

/**
 * Exact evaluation by enumeration: the kernel runs once per path through its draws, this dice
 * answering each draw with one branch, depth first, like an odometer. After a run, `probability`
 * is the path's probability (the product of its branches'); `advance()` moves to the next path,
 * replaying the same branches up to the draw it changes. A kernel is deterministic given its
 * draws, so the paths together are every outcome of a trial, each weighted exactly.
 *
 * Outcomes drawn whole (`pick`, `chance`) branch once per outcome; a die branches six (D10: ten)
 * ways; a packed pool 6ⁿ ways, which is why kernels draw pools from tables when enumerated.
 */
export class EnumeratingDice implements Dice {
  /** Per draw on the current path: the branch taken, how many there are, and the draw's table (null: uniform). */
  private branch: number[] = [];
  private size: number[] = [];
  private table: (Float64Array | null)[] = [];
  private tableError: number[] = [];
  /** Draws of the current path made so far; draws below `replayed` repeat the previous path. */
  private depth = 0;
  private replayed = 0;
  probability = 1;
  /** Bound on the relative error of `probability` (float64 products and the tables' own errors). */
  relativeError = 0;

  /** Start a run of the kernel on the current path. */
  begin(): void {
    this.depth = 0;
    this.probability = 1;
    this.relativeError = 0;
  }

  /** Move to the next path; false when every path has been visited. */
  advance(): boolean {
    for (let d = this.depth - 1; d >= 0; d--) {
      const next = (this.branch[d] as number) + 1;
      if (next < (this.size[d] as number)) {
        this.branch[d] = next;
        this.replayed = d + 1;
        return true;
      }
    }
    return false;
  }

  /** How many draws the current path made. */
  get draws(): number {
    return this.depth;
  }

  private take(size: number, table: Float64Array | null, tableError: number): number {
    const d = this.depth++;
    // A re-roll loop (roll again on a tie) has paths of every length: not enumerable.
    if (d >= MAX_DRAWS_PER_PATH) throw new TooManyOutcomesError(MAX_DRAWS_PER_PATH);
    if (d >= this.replayed) {
      this.branch[d] = 0;
      this.size[d] = size;
      this.table[d] = table;
      this.tableError[d] = tableError;
      this.replayed = d + 1;
    } else if (this.size[d] !== size || this.table[d] !== table) {
      throw new Error('EnumeratingDice: the kernel drew differently on a replayed path (is it deterministic?)');
    }
    const b = this.branch[d] as number;
    this.probability *= table === null ? 1 / size : (table[b] as number);
    this.relativeError += tableError + UNIT_ROUNDOFF;
    return b;
  }

  d6(): number {
    return this.take(6, null, UNIT_ROUNDOFF) + 1;
  }

  d10(): number {
    return this.take(10, null, UNIT_ROUNDOFF) + 1;
  }

  d6Packed(n: number): number {
    return this.take(POW6[n] ?? 1, null, UNIT_ROUNDOFF);
  }

  d10Packed(n: number): number {
    return this.take(POW10[n] ?? 1, null, UNIT_ROUNDOFF);
  }

  chance(probability: number): boolean {
    if (probability >= 1) return true;
    if (probability <= 0) return false;
    return this.take(2, chanceTable(probability), UNIT_ROUNDOFF) === 0;
  }

  pick(table: OutcomeTable): number {
    if (table.certain) return table.values[0] as number;
    return table.values[this.take(table.values.length, table.probabilities, table.relativeError)] as number;
  }
}

/** [p, 1 − p] per probability, kept so that a replayed path meets the same array. */
const chanceTables = new Map<number, Float64Array>();
function chanceTable(probability: number): Float64Array {
  let table = chanceTables.get(probability);
  if (table === undefined) {
    table = new Float64Array([probability, 1 - probability]);
    chanceTables.set(probability, table);
  }
  return table;
}
