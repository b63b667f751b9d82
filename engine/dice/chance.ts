import type { Dice } from './dice.js';

/**
 * Probabilities that are not dice (a scenario's "a blocked retreat 30% of the time", a distribution
 * of Blast markers): a uniform integer below 6¹² from two packed pools of six D6, compared with the
 * probability scaled by 6¹². Exact for probabilities that are multiples of 6⁻¹², within 2·10⁻¹⁰
 * otherwise; a scripted test sets the outcome with the twelve faces.
 */
export const CHANCE_SCALE = 46656 * 46656;

/** A uniform integer in [0, 6¹²). */
export function chanceDraw(dice: Dice): number {
  return dice.d6Packed(6) * 46656 + dice.d6Packed(6);
}

/** True with probability `probability`; draws only when it is strictly between 0 and 1. */
export function happens(dice: Dice, probability: number): boolean {
  if (probability >= 1) return true;
  if (probability <= 0) return false;
  return chanceDraw(dice) < probability * CHANCE_SCALE;
}
