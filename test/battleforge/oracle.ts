import type { ModelProfile, UnitProfile } from '../../engine/battleforge/profile.js';
import type { Scenario, ScenarioUnit } from '../../engine/battleforge/schema.js';
import { binomial, type Distribution } from '../helpers/distribution.js';

/**
 * The exact outcome of one Battle Forge attack (`mode: attack`: side A's first unit attacks side B's
 * first unit once, no reactions), written from the core rules text, rulings §19–22 and
 * engine/battleforge/README.md — not from the engine's code.
 *
 * - Tests (§19): D10 ≤ target; a 1 always passes, a 10 always fails: P = clamp(target, 1, 9) / 10.
 * - Hits (§20): every model with characteristics rolls attacks × copies dice per weapon: ranged
 *   weapons that reach the target when shooting (−1 Accuracy beyond the short band), melee weapons
 *   when fighting (Strength, −1 across the target's intervening terrain); −1 per Shock on the
 *   attacker, +1 Focus, −1 when the target spends its Evade. A Fight when the units share a place.
 * - Saves (§20): each hit goes to a model, which saves on D10 ≤ Save − AP + cover (Soft +1, Hard
 *   +2, Fortified +3, Negative −1; none when fighting or at 3" or less); may exceed 10, 10 still
 *   fails. Each unsaved hit removes a Wound; a model at 0 Wounds is removed.
 * - Allocation `finish-damaged`: a hit goes to the damaged model if there is one, else to a fresh
 *   model of the first type (in allocation order: the most numerous first) that has models left.
 *   So the Wounds lost so far, L, decide which model takes the next hit: the DP state is L alone.
 *   `best-save-first` is supported only for one-Wound models (the best Save type first).
 * - Order: hits are given out weapon by weapon, attacker model types most numerous first, weapons
 *   in profile order (only matters when the target's types have different Saves and the weapons
 *   different AP).
 * - Shock (§21): the target gains 1 when the attack scores at least one hit.
 */

const COVER: Readonly<Record<ScenarioUnit['cover'], number>> = { none: 0, soft: 1, hard: 2, fortified: 3, negative: -1 };

/** P(D10 ≤ target) with a 1 always passing and a 10 always failing (rulings §19). */
export function testChance(target: number): number {
  return Math.min(9, Math.max(1, target)) / 10;
}

export interface AttackExact {
  /** A Fight (the units share a place) rather than a Shoot. */
  readonly fight: boolean;
  readonly distance: number;
  /** P(at least one hit) = P(the target gains a Shock). */
  readonly pHit: number;
  /** Distribution of the target's Wounds lost and models lost. */
  readonly woundsLost: Distribution;
  readonly modelsLost: Distribution;
  /** Hit dice per weapon, with their chance to hit and AP (for known-answer checks). */
  readonly pools: readonly { readonly dice: number; readonly pHit: number; readonly ap: number }[];
}

interface Typed {
  readonly model: ModelProfile;
  readonly count: number;
  readonly index: number;
}

/** Model types present in a scenario unit, with characteristics, sorted most numerous first. */
function presentTypes(unit: ScenarioUnit, profile: UnitProfile, bestSaveFirst: boolean): Typed[] {
  const counts = profile.models.map((model, m) => {
    if (unit.models === undefined) return model.count;
    if (typeof unit.models === 'number') return m === 0 ? unit.models : 0;
    return unit.models[model.name] ?? 0;
  });
  return profile.models
    .map((model, index) => ({ model, count: counts[index] ?? 0, index }))
    .filter((entry) => entry.count > 0 && entry.model.hasCharacteristics)
    .sort((a, b) => (bestSaveFirst ? b.model.save - a.model.save : 0) || b.count - a.count || a.index - b.index);
}

function profileOf(unit: ScenarioUnit, profiles: ReadonlyMap<string, UnitProfile>): UnitProfile {
  const profile = profiles.get(unit.unit);
  if (profile === undefined) throw new Error(`oracle: no profile ${unit.unit}`);
  return profile;
}

export function exactAttack(scenario: Scenario, profiles: ReadonlyMap<string, UnitProfile>): AttackExact {
  const attacker = scenario.sides[0]?.units[0];
  const target = scenario.sides[1]?.units[0];
  if (attacker === undefined || target === undefined) throw new Error('oracle: each side needs a unit');
  const bestSaveFirst = scenario.options.allocation === 'best-save-first';
  const shooters = presentTypes(attacker, profileOf(attacker, profiles), false);
  const defenders = presentTypes(target, profileOf(target, profiles), bestSaveFirst);
  if (bestSaveFirst && defenders.some((d) => d.model.wounds !== 1)) throw new Error('oracle: best-save-first only for one-Wound models');

  // The line (README): A's unit `position` in front of 0, B's in front of `distance`.
  const distance = Math.abs(scenario.distance - target.position - attacker.position);
  const fight = distance === 0;
  // Modifiers common to every weapon (§20, §21, §24).
  const common = -attacker.shock + (attacker.focus ? 1 : 0) - (target.evade ? 1 : 0) - (fight && target.terrain ? 1 : 0);
  const cover = fight || distance <= 3 ? 0 : COVER[target.cover];

  const pools: { dice: number; pHit: number; ap: number }[] = [];
  for (const { model, count } of shooters) {
    for (const weapon of model.weapons) {
      if (fight !== weapon.melee) continue;
      if (!fight && distance > weapon.long) continue;
      const longRange = !fight && distance > weapon.short ? 1 : 0;
      const stat = fight ? model.strength : model.accuracy;
      pools.push({ dice: count * weapon.attacks * weapon.copies, pHit: testChance(stat + common - longRange), ap: weapon.ap });
    }
  }

  // The Save of the model that takes the next hit when L Wounds are already lost (finish-damaged).
  const slotSave: number[] = [];
  for (const { model, count } of defenders) for (let i = 0; i < count * model.wounds; i++) slotSave.push(model.save);
  const totalWounds = slotSave.length;

  let state: Distribution = new Float64Array(totalWounds + 1);
  state[0] = 1;
  let pNoHit = 1;
  for (const pool of pools) {
    pNoHit *= (1 - pool.pHit) ** pool.dice;
    const hits = binomial(pool.dice, pool.pHit);
    // One hit: from L < total, lose a Wound unless saved; at total nothing is left to hit.
    const fail = slotSave.map((save) => 1 - testChance(save - pool.ap + cover));
    const step = (d: Distribution): Distribution => {
      const next = new Float64Array(totalWounds + 1);
      for (let l = 0; l <= totalWounds; l++) {
        const p = d[l] as number;
        if (p === 0) continue;
        if (l === totalWounds) {
          next[l] = (next[l] as number) + p;
          continue;
        }
        const f = fail[l] as number;
        next[l] = (next[l] as number) + p * (1 - f);
        next[l + 1] = (next[l + 1] as number) + p * f;
      }
      return next;
    };
    const after = new Float64Array(totalWounds + 1);
    let current = state;
    for (let h = 0; h < hits.length; h++) {
      const w = hits[h] as number;
      for (let l = 0; l <= totalWounds; l++) after[l] = (after[l] as number) + w * (current[l] as number);
      if (h + 1 < hits.length) current = step(current);
    }
    state = after;
  }

  // Models lost when L Wounds are lost: types fill in allocation order, model by model.
  const modelsAt = (lost: number): number => {
    let left = lost;
    let models = 0;
    for (const { model, count } of defenders) {
      const taken = Math.min(left, count * model.wounds);
      models += Math.floor(taken / model.wounds);
      left -= taken;
    }
    return models;
  };
  const totalModels = defenders.reduce((sum, d) => sum + d.count, 0);
  const modelsLost = new Float64Array(totalModels + 1);
  for (let l = 0; l <= totalWounds; l++) modelsLost[modelsAt(l)] = (modelsLost[modelsAt(l)] as number) + (state[l] as number);

  return { fight, distance, pHit: 1 - pNoHit, woundsLost: state, modelsLost, pools };
}
