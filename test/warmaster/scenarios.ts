import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { armyFileSchema, type WarmasterUnit } from '../../engine/warmaster/units.js';
import { ScriptedDice } from '../../engine/dice/index.js';
import { compileWarmaster } from '../../engine/warmaster/index.js';
import { type Scenario, type ScenarioInput, scenarioSchema } from '../../engine/warmaster/schema.js';
import { REPOSITORY } from '../helpers/repository.js';

/** Every unit of data/warmaster/armies, keyed `<army>/<unit id>` (read once per test file). */
let armies: Map<string, WarmasterUnit> | undefined;
export function armyUnits(): ReadonlyMap<string, WarmasterUnit> {
  if (armies !== undefined) return armies;
  const directory = path.join(REPOSITORY, 'data/warmaster/armies');
  armies = new Map();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.yaml'))) {
    const army = armyFileSchema.parse(parse(readFileSync(path.join(directory, file), 'utf8')));
    for (const unit of army.units) armies.set(`${army.army}/${unit.id}`, unit);
  }
  return armies;
}

/** A scenario from its input form, defaults applied (throws on a schema error: tests write valid ones). */
export function warmasterScenario(input: Omit<ScenarioInput, 'ruleset' | 'name'> & { name?: string }): Scenario {
  return scenarioSchema.parse({ ruleset: 'warmaster', name: 'test', ...input });
}

/** One trial of `scenario` with forced dice: its metrics by name, and how many faces were left unused. */
export interface ScriptedWarmasterTrial {
  metric(name: string): number;
  readonly remaining: number;
}

export function scriptedWarmasterTrial(scenario: Scenario, faces: readonly number[]): ScriptedWarmasterTrial {
  const kernel = compileWarmaster(scenario, armyUnits(), 'dice');
  const dice = new ScriptedDice(faces);
  const row = new Int32Array(kernel.metrics.length);
  kernel.trial(dice, row);
  const names = kernel.metrics.map((metric) => metric.name);
  return {
    metric(name: string): number {
      const index = names.indexOf(name);
      if (index < 0) throw new Error(`no metric ${name}; metrics: ${names.join(', ')}`);
      return row[index] ?? 0;
    },
    remaining: dice.remaining,
  };
}

/** Faces 1..6 repeated: `faces(4, 1)` is four 1s. */
export const faces = (count: number, face: number): number[] => Array.from({ length: count }, () => face);
