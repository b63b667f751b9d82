import { CHANCE_SCALE, type Dice, drawBelow } from '../dice/index.js';

/**
 * Drawing a strike's outcome from its exact distribution instead of rolling it (the fast path of
 * issue 9): n attack dice hitting on `hitOn`+ whose hits are saved on `save`+ leave
 * Binomial(n, q) hits, q = P(hit) · P(no save), since no later rule looks at the dice themselves.
 * One draw on the 6¹² chance scale (usually one packed pool; engine/dice/chance.ts) picks the count
 * from the cumulative table of (hitOn, save, n), built the first time it is needed and kept.
 */
const MAX_DICE = 400;
const FACES = 8; // hitOn and save faces index 0..7 (7: no save)

export class StrikeTables {
  private readonly tables: (Float64Array | undefined)[] = [];

  /** Hits left after saves: a draw from Binomial(count, q). */
  sample(dice: Dice, count: number, hitOn: number, save: number): number {
    if (count === 0) return 0;
    const key = (hitOn * FACES + Math.min(save, 7)) * (MAX_DICE + 1) + Math.min(count, MAX_DICE);
    const table = this.tables[key] ?? this.build(key, Math.min(count, MAX_DICE), hitOn, Math.min(save, 7));
    return drawBelow(dice, table, 0, table.length);
  }

  /** Cumulative P(K ≤ k) of Binomial(n, q) on the 6¹² scale, the last entry the whole scale. */
  private build(key: number, n: number, hitOn: number, save: number): Float64Array {
    const hit = Math.max(0, Math.min(6, 7 - hitOn)) / 6;
    const notSaved = save >= 7 ? 1 : Math.max(0, Math.min(6, save - 1)) / 6;
    const q = hit * notSaved;
    const table = new Float64Array(n + 1);
    // P(K = k) by the recurrence p(k+1) = p(k)·(n−k)/(k+1)·q/(1−q), from p(0) = (1−q)^n.
    let probability = (1 - q) ** n;
    let cumulative = 0;
    for (let k = 0; k <= n; k++) {
      cumulative += probability;
      table[k] = Math.min(CHANCE_SCALE, Math.round(cumulative * CHANCE_SCALE));
      probability = q === 1 ? (k + 1 === n ? 1 : 0) : (probability * (n - k) * q) / ((k + 1) * (1 - q));
    }
    table[n] = CHANCE_SCALE;
    this.tables[key] = table;
    return table;
  }
}
