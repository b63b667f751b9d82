import { OutcomeTable, UNIT_ROUNDOFF } from '../../engine/dice/index.js';
import type { DrawMethod } from '../../engine/kernel.js';
import { convolve, dieDistribution, hitsOfCritical, saveNeeded } from './odds.js';
import type { Reroll, Rules, Scenario, Unit } from './schema.js';

/**
 * A validated scenario as flat numbers the kernel reads in its loop: per side, the unit's stats,
 * each D6 face's meaning as a small lookup array, and (method `tables`) one exact table of unsaved
 * wounds per number of attacking models. Built once per kernel; nothing here runs per trial.
 */

/** What a hit die's face is, in `hitFace`. */
export const MISS = 0;
export const HIT = 1;
export const CRITICAL = 2;

export interface CompiledSide {
  readonly name: string;
  readonly unitName: string;
  readonly models: number;
  /** M: wounds per model. */
  readonly wounds: number;
  readonly attacks: number;
  readonly hit: number;
  readonly wound: number;
  readonly damage: number;
  readonly rerollHits: Reroll;
  readonly rerollWounds: Reroll;
  /** The save roll the other side needs against this side's attacks (its save + this side's AP); 0: no save. */
  readonly saveOn: number;
  /** Per face 1..6 (index 0 unused): MISS, HIT or CRITICAL. */
  readonly hitFace: Int32Array;
  /** Per face 1..6: 1 if a hit die showing it is rerolled. */
  readonly hitReroll: Int32Array;
  /** Per face 1..6: 1 if a wound die showing it is rerolled. */
  readonly woundReroll: Int32Array;
  /** The most unsaved wounds one attack of all its models can cause. */
  readonly maxUnsaved: number;
  /** Method `tables`: per attacking models m (index m, 1..models), the exact distribution of unsaved wounds; index 0 is null. */
  readonly tables: readonly (OutcomeTable | null)[];
}

export interface CompiledScenario {
  readonly name: string;
  readonly fight: boolean;
  /** Rounds a trial can last (1 for an attack). */
  readonly rounds: number;
  readonly rules: Rules;
  /** Hits a critical hit makes with the extra-hits effect (1 with auto-wound: it is not rolled to wound). */
  readonly criticalHits: number;
  readonly sides: readonly [CompiledSide, CompiledSide];
  readonly method: DrawMethod;
}

const REROLL_NONE = 'none';

/** Per face 1..6: 1 where a die of this reroll policy is picked up again (misses only). */
function rerollFaces(reroll: Reroll, isMiss: (face: number) => boolean): Int32Array {
  const faces = new Int32Array(7);
  for (let face = 1; face <= 6; face++)
    faces[face] = reroll === REROLL_NONE ? 0 : reroll === 'ones' ? (face === 1 ? 1 : 0) : isMiss(face) ? 1 : 0;
  return faces;
}

/**
 * The exact tables of one side's attack, for 1..models attacking models: the per-die distribution
 * convolved once per die. Relative error: each die's probabilities come from ≤ 20 float operations,
 * and each convolution step adds ≤ (outcomes per die) rounded sums, so ≤ dice · (outcomes + 21) · u.
 */
function attackTables(attacker: Unit, models: number, defenderSave: number, rules: Rules): OutcomeTable[] {
  const die = dieDistribution(attacker, defenderSave, rules);
  const tables: OutcomeTable[] = [];
  let total: Float64Array = new Float64Array([1]);
  for (let m = 1; m <= models; m++) {
    for (let a = 0; a < attacker.attacks; a++) total = convolve(total, die);
    const dice = m * attacker.attacks;
    tables.push(
      new OutcomeTable(
        Array.from(total, (_, k) => k),
        total,
        dice * (die.length + 21) * UNIT_ROUNDOFF,
      ),
    );
  }
  return tables;
}

function compileSide(scenario: Scenario, unit: Unit, other: Unit, side: 0 | 1, method: DrawMethod): CompiledSide {
  const rules = scenario.rules;
  const models = scenario.sides[side].models;
  const hitFace = new Int32Array(7);
  for (let face = 1; face <= 6; face++) hitFace[face] = face >= rules.criticalFace ? CRITICAL : face >= unit.hit ? HIT : MISS;
  const save = saveNeeded(other.save, unit.ap);
  return {
    name: scenario.sides[side].name,
    unitName: unit.name,
    models,
    wounds: unit.wounds,
    attacks: unit.attacks,
    hit: unit.hit,
    wound: unit.wound,
    damage: unit.damage,
    rerollHits: unit.rerollHits,
    rerollWounds: unit.rerollWounds,
    saveOn: save ?? 0,
    hitFace,
    hitReroll: rerollFaces(unit.rerollHits, (face) => hitFace[face] === MISS),
    woundReroll: rerollFaces(unit.rerollWounds, (face) => face < unit.wound),
    maxUnsaved: models * unit.attacks * (rules.criticalFace <= 6 ? hitsOfCritical(rules.criticalEffect, rules.extraHits) : 1),
    tables: method === 'tables' ? [null, ...attackTables(unit, models, other.save, rules)] : [],
  };
}

/** `units`: the two sides' profiles, in side order (load.ts has checked them and merged `units:`). */
export function compileScenario(scenario: Scenario, units: readonly [Unit, Unit], method: DrawMethod): CompiledScenario {
  const fight = scenario.mode === 'fight';
  const rules = scenario.rules;
  return {
    name: scenario.name,
    fight,
    rounds: fight ? scenario.rounds : 1,
    rules,
    criticalHits: hitsOfCritical(rules.criticalEffect, rules.extraHits),
    sides: [compileSide(scenario, units[0], units[1], 0, method), compileSide(scenario, units[1], units[0], 1, method)],
    method,
  };
}
