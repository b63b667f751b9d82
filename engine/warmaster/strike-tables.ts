import { binomialTable, type Dice, type OutcomeTable } from '../dice/index.js';
import { NO_SAVE } from './compile.js';

/**
 * Drawing a strike's outcome from its exact distribution instead of rolling it (method `tables`,
 * issue 9): n attack dice hitting on `hitOn`+ whose hits are saved on `save`+ leave
 * Binomial(n, q) hits, q = P(hit) · P(no save), since no later rule looks at the dice themselves.
 * Faces are read as the dice path reads them (kernel.ts `strike`): a target below 1 is 1, above 6
 * is 6, and a save of 7 or more is no save. One `pick` per strike; each (hitOn, save, n) table is
 * built the first time it is needed and kept.
 */
export class StrikeTables {
  /**
   * By (hit face, save face) — 8 × 8 slots — then by dice count: two array look-ups, cheaper than
   * a Map's hash, which cost a small strike more than rolling its dice (bench/profile.ts --scenarios).
   */
  private readonly tables: (OutcomeTable | undefined)[][] = Array.from({ length: 64 }, () => []);

  /** Hits left after saves: a draw from Binomial(count, q). */
  sample(dice: Dice, count: number, hitOn: number, save: number): number {
    if (count === 0) return 0;
    const hitFace = Math.min(6, Math.max(1, hitOn));
    const saveFace = save >= NO_SAVE ? NO_SAVE : Math.min(6, Math.max(1, save));
    const byCount = this.tables[hitFace * 8 + saveFace] as (OutcomeTable | undefined)[];
    let table = byCount[count];
    if (table === undefined) {
      const q = ((7 - hitFace) / 6) * (saveFace === NO_SAVE ? 1 : (saveFace - 1) / 6);
      table = binomialTable(count, q);
      byCount[count] = table;
    }
    return dice.pick(table);
  }
}
