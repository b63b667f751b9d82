import { ScriptedDice } from '../../engine/dice/index.js';
import {
  compileHeroic,
  type Scenario,
  type ScenarioInput,
  scenarioSchema,
  type Unit,
  type UnitInput,
  unitSchema,
} from '../../engine/heroic/index.js';

/** Inline heroic units and scenarios for tests, validated by the real schemas (never data files). */
export type GroupInput = ScenarioInput['sides'][number]['groups'][number];
export type OptionsInput = NonNullable<ScenarioInput['options']>;
/** The rule texts' constants (`rules:`); every one left out keeps its printed value. */
export type RulesInput = NonNullable<ScenarioInput['rules']>;
type WeaponInput = UnitInput['weapons'][number];

export const SIDE_NAMES = ['Attackers', 'Defenders'] as const;

export function weapon(type: 'melee' | 'ranged' | 'aoe', atk: number, damage: string[] = []): WeaponInput {
  return { name: `${type}-${atk}`, type, atk, damage };
}

export type ModelProfile = Omit<UnitInput, 'id' | 'name' | 'weapons'> & { readonly weapons?: UnitInput['weapons'] };

/** A unit whose id is also its name; without weapons it gets a 1-die melee weapon it never uses. */
export function model(id: string, profile: ModelProfile): Unit {
  return unitSchema.parse({ id, name: id, weapons: [weapon('melee', 1)], ...profile });
}

/** `mode: attack`: side 1's groups each make their Attack Action once, nothing else happens. */
export function attackScenario(
  name: string,
  attackers: GroupInput[],
  defenders: GroupInput[],
  options: OptionsInput = {},
  rules: RulesInput = {},
): Scenario {
  return scenarioSchema.parse({
    ruleset: 'heroic',
    name,
    mode: 'attack',
    options,
    rules,
    sides: [
      { name: SIDE_NAMES[0], groups: attackers },
      { name: SIDE_NAMES[1], groups: defenders },
    ],
  });
}

/** `mode: engagement`: the sides activate in turn for up to `rounds` rounds. */
export function engagementScenario(
  name: string,
  rounds: number,
  first: GroupInput[],
  second: GroupInput[],
  options: OptionsInput = {},
  rules: RulesInput = {},
): Scenario {
  return scenarioSchema.parse({
    ruleset: 'heroic',
    name,
    mode: 'engagement',
    rounds,
    options,
    rules,
    sides: [
      { name: SIDE_NAMES[0], groups: first },
      { name: SIDE_NAMES[1], groups: second },
    ],
  });
}

export interface ScriptedTrial {
  /** The value the trial wrote for the metric called `name`. */
  metric(name: string): number;
  /** Scripted faces left unused. */
  readonly remaining: number;
  /** Label of the `winner` category. */
  readonly winner: string | undefined;
}

/**
 * Run one trial with forced dice (ScriptedDice throws if the kernel asks for an unscripted roll).
 * Method dice, whatever the default: scripted faces are single dice, not totals drawn from tables.
 */
export function scriptedTrial(scenario: Scenario, units: readonly Unit[], faces: readonly number[]): ScriptedTrial {
  const kernel = compileHeroic(scenario, units, 'dice');
  const dice = new ScriptedDice(faces);
  const row = new Int32Array(kernel.metrics.length);
  kernel.trial(dice, row);
  const metric = (name: string): number => {
    const index = kernel.metrics.findIndex((spec) => spec.name === name);
    if (index < 0) throw new Error(`no metric named ${name}; metrics: ${kernel.metrics.map((spec) => spec.name).join(', ')}`);
    return row[index] as number;
  };
  const winnerSpec = kernel.metrics.find((spec) => spec.name === 'winner');
  return { metric, remaining: dice.remaining, winner: winnerSpec?.labels?.[metric('winner')] };
}
