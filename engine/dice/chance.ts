import type { Dice } from './dice.js';

/**
 * `Dice.chance` for probabilities that are not dice (a scenario's "a blocked retreat 30% of the
 * time", an Epic formation off the table half the time), on dice that draw (stream, scripted,
 * recording): a uniform integer below 6¹² made of two packed pools of six D6, compared with
 * the probability scaled by 6¹². The second pool is drawn only when the first leaves the comparison
 * open (once in 46,656 draws per threshold), so a chance costs one draw and is exact for
 * probabilities that are multiples of 6⁻¹² (within 2·10⁻¹⁰ otherwise). A scripted test sets the
 * outcome with the first six faces (and the next six when they tie the threshold).
 */
const CHANCE_SCALE = 46656 * 46656;
const POOL = 46656;

/** True with probability `probability`, drawing only when it is strictly between 0 and 1. */
export function chanceFromPools(dice: Dice, probability: number): boolean {
  if (probability >= 1) return true;
  if (probability <= 0) return false;
  // The draw's first pool against the threshold's; the second pool only on a tie.
  const threshold = probability * CHANCE_SCALE;
  const thresholdHigh = Math.floor(threshold / POOL);
  const high = dice.d6Packed(6);
  if (high !== thresholdHigh) return high < thresholdHigh;
  return dice.d6Packed(6) < threshold - thresholdHigh * POOL;
}
