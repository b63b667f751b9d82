import { successChance, unsavedChance } from './odds.js';
import type { Unit } from './schema.js';

/**
 * The homebrew points formula: what one model costs, from its stats alone (no rule knobs, no
 * opponent). `crucible balance` then says how far each cost is from a fair one.
 *
 *   offence    = A × P(hit) × P(wound) × P(unsaved against a 4+ save) × D
 *                (rerolls included; critical hits are left out: they are a rule, not a stat)
 *   durability = M ÷ P(an AP 0 wound goes unsaved)   (the unsaved wounds it takes, per model, to remove it)
 *   points     = max(1, round(OFFENCE_WEIGHT × offence + DURABILITY_WEIGHT × durability))
 */
export const OFFENCE_WEIGHT = 5;
export const DURABILITY_WEIGHT = 2;
/** The save the offence is priced against: an average defender. */
export const REFERENCE_SAVE = 4;

export interface PointsBreakdown {
  readonly offence: number;
  readonly durability: number;
  readonly points: number;
}

export function pointsBreakdown(unit: Unit): PointsBreakdown {
  const offence =
    unit.attacks *
    successChance(unit.hit, unit.rerollHits) *
    successChance(unit.wound, unit.rerollWounds) *
    unsavedChance(REFERENCE_SAVE, unit.ap) *
    unit.damage;
  const durability = unit.wounds / unsavedChance(unit.save, 0);
  return { offence, durability, points: Math.max(1, Math.round(OFFENCE_WEIGHT * offence + DURABILITY_WEIGHT * durability)) };
}

/** Points of one model of `unit`. */
export const pointsPerModel = (unit: Unit): number => pointsBreakdown(unit).points;
