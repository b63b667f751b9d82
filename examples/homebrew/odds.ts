import type { CriticalEffect, Reroll, Rules, Unit } from './schema.js';

/**
 * The chances of one die, and the exact distribution of one attack's unsaved wounds, from the rule
 * text: what the `tables` draw method samples and exact enumeration walks, and what the points
 * formula weighs. Plain numbers only (no zod): the kernel module imports it.
 *
 * Every attack die is independent of the others — its rerolls are its own, and a critical hit's
 * extra hits roll their own wound and save dice — so one attack of n dice is the n-fold convolution
 * of one die's distribution of unsaved wounds. That is why a whole attack can be drawn in one pick.
 */

/** Faces of a D6 at or above `target` (1..7), as a probability. */
export const atLeast = (target: number): number => Math.max(0, Math.min(6, 7 - target)) / 6;

/** P(a die needing `target`+ succeeds), rerolled once per `reroll` (a natural 1 is always a failure). */
export function successChance(target: number, reroll: Reroll): number {
  const p = atLeast(target);
  const rerolled = reroll === 'ones' ? 1 / 6 : reroll === 'failed' ? 1 - p : 0;
  return p + rerolled * p;
}

/** One hit die after its reroll: P(critical hit), P(ordinary hit). Rerolls only ever pick up misses. */
export function hitChances(unit: Pick<Unit, 'hit' | 'rerollHits'>, criticalFace: number): { critical: number; hit: number } {
  // A critical face below the hit roll still hits (criticals always hit).
  const critical0 = atLeast(criticalFace);
  const hit0 = atLeast(Math.min(unit.hit, criticalFace)) - critical0;
  const miss0 = 1 - critical0 - hit0;
  const rerolled = unit.rerollHits === 'ones' ? 1 / 6 : unit.rerollHits === 'failed' ? miss0 : 0;
  return { critical: critical0 * (1 + rerolled), hit: hit0 * (1 + rerolled) };
}

/** The save roll needed against `ap`: null when none can be made (a 7+ save is no save). */
export const saveNeeded = (save: number, ap: number): number | null => (save + ap >= 7 ? null : save + ap);

/** P(a wound goes unsaved) against a defender with `save`, from a weapon with `ap`. */
export const unsavedChance = (save: number, ap: number): number => {
  const needed = saveNeeded(save, ap);
  return needed === null ? 1 : 1 - atLeast(needed);
};

/** The hits a critical hit makes: 1, or 1 + extraHits with the extra-hits effect. */
export const hitsOfCritical = (effect: CriticalEffect, extraHits: number): number => (effect === 'extra-hits' ? 1 + extraHits : 1);

/**
 * One attack die's unsaved wounds: P(0), P(1), …, P(hitsOfCritical). An ordinary hit is one
 * wound roll then one save; a critical auto-wound skips the wound roll; a critical with extra hits
 * is 1 + extraHits independent ordinary hits.
 */
export function dieDistribution(attacker: Unit, defenderSave: number, rules: Rules): Float64Array {
  const { critical, hit } = hitChances(attacker, rules.criticalFace);
  const unsaved = unsavedChance(defenderSave, attacker.ap);
  const perHit = successChance(attacker.wound, attacker.rerollWounds) * unsaved;
  const top = hitsOfCritical(rules.criticalEffect, rules.extraHits);
  const distribution = new Float64Array(top + 1);
  distribution[0] = 1 - critical - hit;
  distribution[0] += hit * (1 - perHit);
  distribution[1] = (distribution[1] as number) + hit * perHit;
  if (rules.criticalEffect === 'auto-wound') {
    distribution[0] += critical * (1 - unsaved);
    distribution[1] = (distribution[1] as number) + critical * unsaved;
  } else {
    // Binomial(top, perHit), weighted by the chance of the critical.
    for (let k = 0; k <= top; k++)
      distribution[k] = (distribution[k] as number) + critical * binomial(top, k) * perHit ** k * (1 - perHit) ** (top - k);
  }
  return distribution;
}

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** The distribution of the sum of two independent counts. */
export function convolve(left: Float64Array, right: Float64Array): Float64Array {
  const result = new Float64Array(left.length + right.length - 1);
  for (let i = 0; i < left.length; i++) {
    const p = left[i] as number;
    if (p === 0) continue;
    for (let j = 0; j < right.length; j++) result[i + j] = (result[i + j] as number) + p * (right[j] as number);
  }
  return result;
}
