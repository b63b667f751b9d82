import { binomial, convolve, convolvePower, type Distribution, mixture, pointMass, transform } from '../helpers/distribution.js';

/**
 * Exact outcome distributions of one heroic Attack Action — the test oracle for engine/heroic.
 *
 * Written from the rule texts (Attack Action, Dynamic Formations) and rulings §1–11
 * (docs/rulings.md) only, never from the engine's code, so agreement between the two is
 * evidence and not an echo. Everything is enumeration and convolution; see helpers/distribution.ts
 * for the rounding bound (every probability within 1e-12 of the exact rational).
 */

const SHIELD_SAVE = 1 / 3; // Shield roll: a D6 on 5+ (Attack Action, "Shield Roll")

export type WeakAndShieldOrder = 'weakness-then-shield' | 'shield-then-weakness';

/** Wounds of one ATK die against `def`: [P(0), P(1), P(2)] (rulings §1). */
export function dieWounds(def: number): Distribution {
  // Faces 1..5 succeed when ≥ DEF (all of them when DEF ≤ 1, none when DEF ≥ 6); a natural 6 always
  // succeeds and is a critical: 2 Wounds.
  const plainSuccesses = Math.min(5, Math.max(0, 6 - Math.max(def, 1)));
  return Float64Array.of((5 - plainSuccesses) / 6, plainSuccesses / 6, 1 / 6);
}

/** Wounds rolled by `dice` ATK dice against `def`, before any reduction. */
export function rolledWounds(dice: number, def: number): Distribution {
  return convolvePower(dieWounds(def), dice);
}

/** Weakness: +`bonus` Wounds when at least one Wound is there (rulings §3). */
export function addWeakness(wounds: Distribution, bonus: number): Distribution {
  return transform(wounds, (w) => (w >= 1 ? w + bonus : 0));
}

/**
 * Weakness against a formation attack with the `per-successful-figure` option: each figure whose
 * own dice scored adds 1 (rulings §3), so the attack is the sum of independent figures.
 */
export function perSuccessfulFigureWounds(figures: number, atkPerFigure: number, def: number): Distribution {
  const figureWounds = addWeakness(rolledWounds(atkPerFigure, def), 1);
  return convolvePower(figureWounds, figures);
}

/** One Shield die when ≥ 1 Wound: on 5+ one Wound is ignored (rulings §2). */
export function singleShield(wounds: Distribution): Distribution {
  return transform(wounds, (w) => (w >= 1 ? Float64Array.from({ length: w + 1 }, (_, v) => shieldStep(w, v)) : 0));
}

function shieldStep(w: number, v: number): number {
  if (v === w - 1) return SHIELD_SAVE;
  if (v === w) return 1 - SHIELD_SAVE;
  return 0;
}

/** Resistance on a single model: 1 Wound less per Attack Action, never below 0 (rulings §3). */
export function resist(wounds: Distribution): Distribution {
  return transform(wounds, (w) => Math.max(0, w - 1));
}

export function capAt(wounds: Distribution, cap: number): Distribution {
  return transform(wounds, (w) => Math.min(w, cap));
}

/** The defensive profile of one target model (or of every model of a formation). */
export interface TargetProfile {
  readonly might: number;
  /** Wounds the model already carries before the attack. */
  readonly woundsTaken: number;
  /** DEF (S) and no Broken Shield token. */
  readonly shield: boolean;
  readonly resistant: boolean;
  readonly invulnerable: boolean;
}

/**
 * Wounds a single model actually takes from an attack whose rolled Wounds are `rolled`
 * (rulings §3–5): Invulnerable → 0; Weakness (+`weaknessBonus` if ≥ 1) and Shield (if ≥ 1) in the
 * given order; Resistance −1 (floor 0); the excess over the model's remaining MIGHT is lost.
 * Each step acts on the count it receives (rulings §4 leaves this open): with `shield-then-weakness`
 * a saved single Wound leaves nothing for Weakness to trigger on, which is why the order matters.
 */
export function singleTargetWounds(
  rolled: Distribution,
  target: TargetProfile,
  weaknessBonus: number,
  order: WeakAndShieldOrder = 'weakness-then-shield',
): Distribution {
  if (target.invulnerable) return pointMass(0);
  const weaken = (d: Distribution): Distribution => (weaknessBonus > 0 ? addWeakness(d, weaknessBonus) : d);
  const shield = (d: Distribution): Distribution => (target.shield ? singleShield(d) : d);
  const afterBoth = order === 'weakness-then-shield' ? shield(weaken(rolled)) : weaken(shield(rolled));
  return finishSingle(afterBoth, target);
}

/** Resistance and the MIGHT cap, once Weakness and Shield are applied. */
export function finishSingle(afterWeaknessAndShield: Distribution, target: TargetProfile): Distribution {
  const afterResistance = target.resistant ? resist(afterWeaknessAndShield) : afterWeaknessAndShield;
  return capAt(afterResistance, target.might - target.woundsTaken);
}

/** Joint outcome of an attack on a formation: probability by (Wounds inflicted, models lost). */
export class FormationOutcome {
  private readonly entries = new Map<string, { wounds: number; modelsLost: number; probability: number }>();

  add(wounds: number, modelsLost: number, probability: number): void {
    const key = `${wounds}/${modelsLost}`;
    const entry = this.entries.get(key);
    if (entry === undefined) this.entries.set(key, { wounds, modelsLost, probability });
    else entry.probability += probability;
  }

  /** Distribution of a function of the outcome (e.g. models lost, or a 0/1 flag). */
  marginal(of: (wounds: number, modelsLost: number) => number): Distribution {
    let length = 1;
    for (const { wounds, modelsLost } of this.entries.values()) length = Math.max(length, of(wounds, modelsLost) + 1);
    const out = new Float64Array(length);
    for (const { wounds, modelsLost, probability } of this.entries.values()) {
      const value = of(wounds, modelsLost);
      out[value] = (out[value] as number) + probability;
    }
    return out;
  }

  get wounds(): Distribution {
    return this.marginal((wounds) => wounds);
  }

  get modelsLost(): Distribution {
    return this.marginal((_, modelsLost) => modelsLost);
  }
}

export type FormationShieldRule = 'every-model' | 'allocated-models';

export interface FormationTarget extends TargetProfile {
  readonly models: number;
  readonly shieldRolls: FormationShieldRule;
}

/** Formation broken flag: fewer than 3 models left (Dynamic Formations, "Formation Requirements"). */
export function formationBroken(outcome: FormationOutcome, models: number): Distribution {
  return outcome.marginal((_, modelsLost) => (models - modelsLost < 3 ? 1 : 0));
}

/**
 * An attack on a formation whose Wounds after Weakness are `afterWeakness` (rulings §2, §3, §5).
 * Shield `every-model`: if ≥ 1 Wound, one die per living model, each 5+ cancels one Wound of the pool.
 * Then allocation: the defender keeps allocating to one model until it is vanquished, then the
 * next (spill-over); with Resistance each model ignores the first Wound allocated to it; with
 * Shield `allocated-models` a model rolls its die when first allocated a Wound, and a 5+ ignores
 * that Wound. The models start equally damaged, so which one the defender picks first does not
 * change the distribution.
 */
export function formationTargetOutcome(afterWeakness: Distribution, target: FormationTarget): FormationOutcome {
  const outcome = new FormationOutcome();
  for (let pool = 0; pool < afterWeakness.length; pool++) {
    const probability = afterWeakness[pool] as number;
    if (probability === 0) continue;
    if (target.invulnerable) {
      outcome.add(0, 0, probability);
    } else if (target.shield && target.shieldRolls === 'every-model' && pool >= 1) {
      const saves = binomial(target.models, SHIELD_SAVE);
      for (let s = 0; s < saves.length; s++) {
        allocate(Math.max(0, pool - s), target, probability * (saves[s] as number), outcome);
      }
    } else {
      allocate(pool, target, probability, outcome);
    }
  }
  return outcome;
}

function allocate(pool: number, target: FormationTarget, probability: number, outcome: FormationOutcome): void {
  const capacity = target.might - target.woundsTaken;
  const shieldOnAllocation = target.shield && target.shieldRolls === 'allocated-models';
  const ignoredByResistance = target.resistant ? 1 : 0;

  const nextModel = (index: number, left: number, lost: number, inflicted: number, p: number): void => {
    if (index === target.models || left === 0) {
      outcome.add(inflicted, lost, p);
      return;
    }
    if (shieldOnAllocation) {
      // The model is allocated a Wound: its Shield die; on 5+ that Wound is ignored.
      woundModel(index, left - 1, lost, inflicted, p * SHIELD_SAVE);
      woundModel(index, left, lost, inflicted, p * (1 - SHIELD_SAVE));
    } else {
      woundModel(index, left, lost, inflicted, p);
    }
  };

  const woundModel = (index: number, left: number, lost: number, inflicted: number, p: number): void => {
    const needed = capacity + ignoredByResistance;
    if (left >= needed) {
      nextModel(index + 1, left - needed, lost + 1, inflicted + capacity, p);
    } else {
      outcome.add(inflicted + Math.max(0, left - ignoredByResistance), lost, p);
    }
  };

  nextModel(0, pool, 0, 0, probability);
}

/**
 * AoE on `models` identical models (Attack Action, "AoE Attacks Dice"; rulings §10): each rolls its
 * own `atk` dice and is resolved as a single target, independently, so nothing spills over.
 */
export interface AoeOutcome {
  /** Wounds one model takes. */
  readonly perModel: Distribution;
  /** Total Wounds on all the models in the area. */
  readonly wounds: Distribution;
  readonly modelsLost: Distribution;
  /** Probability that one model is vanquished. */
  readonly pKill: number;
}

export function aoeOutcome(models: number, atk: number, def: number, target: TargetProfile, weaknessBonus: number): AoeOutcome {
  const perModel = singleTargetWounds(rolledWounds(atk, def), target, weaknessBonus);
  const pKill = perModel[target.might - target.woundsTaken] ?? 0;
  const modelsLost = binomial(models, pKill);
  return { perModel, wounds: convolvePower(perModel, models), modelsLost, pKill };
}

export type ChargeTestRule = 'at-least-will' | 'exceeds-will';

/**
 * Probability a single model fails the WILL test to charge a formation of `formationModels`
 * (Dynamic Formations, "Single Model vs Formation"; rulings §6–7): the test is needed when the
 * count is ≥ WILL (or > WILL with `exceeds-will`) and passes on D6 ≤ WILL.
 */
export function chargeRefusalProbability(will: number, formationModels: number, rule: ChargeTestRule): number {
  const testNeeded = rule === 'at-least-will' ? formationModels >= will : formationModels > will;
  if (!testNeeded) return 0;
  return 1 - Math.min(6, Math.max(0, will)) / 6;
}

/** Wounds of an attack that only happens if the charge is not refused (a refusal inflicts 0). */
export function afterChargeTest(pRefused: number, attack: Distribution): Distribution {
  return mixture(pRefused, pointMass(0), attack);
}

/** Total of independent parts, e.g. the targets of a split attack (rulings §5). */
export function sumOfIndependent(parts: readonly Distribution[]): Distribution {
  return parts.reduce((sum, part) => convolve(sum, part), pointMass(0));
}
