import type { Dice } from './dice.js';

/**
 * Probabilities that are not dice (a scenario's "a blocked retreat 30% of the time", a distribution
 * of Blast markers): a uniform integer below 6¹² made of two packed pools of six D6, compared with
 * the probability scaled by 6¹². The second pool is drawn only when the first leaves the comparison
 * open (once in 46,656 draws per threshold), so a chance costs one draw and is exact for
 * probabilities that are multiples of 6⁻¹² (within 2·10⁻¹⁰ otherwise). A scripted test sets the
 * outcome with the first six faces (and the next six when they tie the threshold).
 */
export const CHANCE_SCALE = 46656 * 46656;
const POOL = 46656;

/** A uniform integer in [0, 6¹²) (always two draws; `happens` and `drawBelow` draw lazily). */
export function chanceDraw(dice: Dice): number {
  return dice.d6Packed(6) * POOL + dice.d6Packed(6);
}

/** True with probability `probability`; draws only when it is strictly between 0 and 1. */
export function happens(dice: Dice, probability: number): boolean {
  return dice.chance(probability);
}

/** `Dice.chance` for dice that draw: the comparison on the 6¹² scale above, from packed pools. */
export function chanceFromPools(dice: Dice, probability: number): boolean {
  if (probability >= 1) return true;
  if (probability <= 0) return false;
  return isBelow(dice, dice.d6Packed(6), probability * CHANCE_SCALE);
}

/** Is the 6¹²-scale draw whose first pool is `high` below `threshold`? Draws the second pool only on a tie. */
function isBelow(dice: Dice, high: number, threshold: number): boolean {
  const thresholdHigh = Math.floor(threshold / POOL);
  if (high !== thresholdHigh) return high < thresholdHigh;
  return dice.d6Packed(6) < threshold - thresholdHigh * POOL;
}

/**
 * Index k in [start, end) of the first cumulative threshold (on the 6¹² scale, increasing, the last
 * ≥ 6¹²) that a uniform draw is below: sampling a discrete distribution with usually one draw.
 */
export function drawBelow(dice: Dice, thresholds: Float64Array, start: number, end: number): number {
  const high = dice.d6Packed(6);
  let low = -1;
  for (let k = start; k < end - 1; k++) {
    const threshold = thresholds[k]!;
    const thresholdHigh = Math.floor(threshold / POOL);
    if (high < thresholdHigh) return k;
    if (high > thresholdHigh) continue;
    if (low < 0) low = dice.d6Packed(6);
    if (low < threshold - thresholdHigh * POOL) return k;
  }
  return end - 1;
}
