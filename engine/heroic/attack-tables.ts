import { binomialTable, OutcomeTable, sumOfDiceTable, UNIT_ROUNDOFF } from '../dice/index.js';
import { shieldFaceScore, woundFaceScore } from './compile.js';
import type { Rules } from './schema.js';

/**
 * Method `tables`: an Attack Action's Wounds after Weakness and the Shield roll, drawn in one pick
 * (issue 9's one draw per attack). Rulings §1–4 in order: the ATK dice's Wounds R (the n-fold
 * convolution of one die's Wounds against DEF); Weakness adds `bonus` when R ≥ 1 (before the
 * Shield, or after it with option `order: shield-then-weakness`); the Shield rolls `shieldDice`
 * dice when ≥ 1 Wound is left, each success cancelling rules.shieldWounds. Every number comes from
 * the compiled rules (the same face scores the dice path rolls), so the methods cannot disagree.
 * Resistance and allocation come after, in the kernel, which reads only this total. Tables are
 * built on first use and kept.
 */
const MAX_DICE = 2 ** 20;
const MAX_MODELS = 1024;

export class AttackTables {
  /**
   * Tables by shape (DEF, Weakness bonus, Shield dice), then by dice count: two small-integer
   * look-ups, so a draw allocates nothing (one key of all five would exceed V8's small integers
   * and box a number on every look-up).
   */
  private readonly tables = new Map<number, (OutcomeTable | undefined)[]>();
  private readonly saves: (OutcomeTable | undefined)[] = [];
  private lastShape = -1;
  private lastByDice: (OutcomeTable | undefined)[] = [];
  private previousShape = -1;
  private previousByDice: (OutcomeTable | undefined)[] = [];

  /** P(one Shield die succeeds): its succeeding faces of 6 (2/6 = 1/3 at the printed 5+). */
  private readonly saveChance: number;
  /** Wounds one successful Shield die ignores. */
  private readonly saveWounds: number;

  constructor(
    private readonly weaknessFirst: boolean,
    private readonly rules: Rules,
  ) {
    const shieldFaces = shieldFaceScore(rules);
    this.saveChance = shieldFaces.filter((score) => score > 0).length / 6;
    this.saveWounds = rules.shieldWounds;
  }

  /** Can this attack be drawn whole? (Pools beyond the key's range are rolled as two picks instead.) */
  fits(dice: number, shieldDice: number, bonus: number): boolean {
    return dice < MAX_DICE && shieldDice < MAX_MODELS && bonus < MAX_MODELS;
  }

  /** The table of `dice` ATK dice against `def`, with Weakness `bonus` (0: none) and `shieldDice` Shield dice. */
  table(def: number, dice: number, shieldDice: number, bonus: number): OutcomeTable {
    const shape = (def * MAX_MODELS + bonus) * MAX_MODELS + shieldDice;
    // A trial's attacks mostly repeat one of the last two shapes (an attack and the answer, two
    // spells): a compare instead of a Map look-up, which cost more than the dice of a small pool
    // (bench/profile.ts --scenarios).
    if (shape !== this.lastShape) {
      const byDice = shape === this.previousShape ? this.previousByDice : this.byShape(shape);
      this.previousShape = this.lastShape;
      this.previousByDice = this.lastByDice;
      this.lastShape = shape;
      this.lastByDice = byDice;
    }
    return (this.lastByDice[dice] ??= this.build(def, dice, shieldDice, bonus));
  }

  /** The tables of one shape, by dice count (an empty list the first time the shape is met). */
  private byShape(shape: number): (OutcomeTable | undefined)[] {
    let byDice = this.tables.get(shape);
    if (byDice === undefined) {
      byDice = [];
      this.tables.set(shape, byDice);
    }
    return byDice;
  }

  private build(def: number, dice: number, shieldDice: number, bonus: number): OutcomeTable {
    const rolled = sumOfDiceTable(woundFaceScore(def, this.rules), dice);
    const saves = shieldDice > 0 ? (this.saves[shieldDice] ??= binomialTable(shieldDice, this.saveChance)) : null;
    const saveWounds = this.saveWounds;
    const final = new Float64Array((rolled.values[rolled.values.length - 1] as number) + bonus + 1);
    const weaknessFirst = this.weaknessFirst;
    for (let i = 0; i < rolled.values.length; i++) {
      const r = rolled.values[i] as number;
      const p = rolled.probabilities[i] as number;
      const afterWeakness = weaknessFirst && r > 0 ? r + bonus : r;
      const outcomes = saves === null || afterWeakness === 0 ? 1 : saves.values.length;
      for (let j = 0; j < outcomes; j++) {
        const saved = saves === null || afterWeakness === 0 ? 0 : (saves.values[j] as number) * saveWounds;
        const q = saves === null || afterWeakness === 0 ? p : p * (saves.probabilities[j] as number);
        const w = afterWeakness > saved ? afterWeakness - saved : 0;
        const wounds = !weaknessFirst && w > 0 ? w + bonus : w;
        final[wounds] = (final[wounds] as number) + q;
      }
    }
    // Each final probability sums products of a rolled and a saves probability: their errors, and the sum's.
    const relativeError = rolled.relativeError + (saves?.relativeError ?? 0) + (shieldDice + 2) * UNIT_ROUNDOFF;
    return new OutcomeTable(
      Array.from(final, (_, w) => w),
      final,
      relativeError,
    );
  }
}
