import { type Dice, MAX_PACKED_DICE, POW6 } from './dice.js';

/**
 * Pool scoring by table look-up. A `FaceScore` gives what each face 1..6 is worth (e.g. Wounds vs a
 * DEF: 0 below it, 1 at or above, 2 on a critical six). `PoolScorer` precomputes, for n = 1..6
 * dice, the total of every packed roll, so scoring n dice costs one draw and one look-up per six.
 */
export type FaceScore = readonly [number, number, number, number, number, number];

export class PoolScorer {
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

/** Score of each face for "succeed on `target`+" with no criticals (e.g. Shield rolls on 5+). */
export function atLeast(target: number): FaceScore {
  return [1, 2, 3, 4, 5, 6].map((face) => (face >= target ? 1 : 0)) as unknown as FaceScore;
}
