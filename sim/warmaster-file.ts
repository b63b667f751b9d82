import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type Scenario, scenarioSchema } from '../engine/warmaster/schema.js';
import { armyFileSchema, type WarmasterUnit } from '../engine/warmaster/units.js';
import { validateWarmaster } from '../engine/warmaster/validate.js';
import { formatPath, InputError, type InputProblem } from './errors.js';
import { parseWith, readDataFile } from './data-file.js';

/**
 * Loading a Warmaster scenario: the scenario file, then the army files its units name
 * (`<army>/<unit>` → `<armies>/<army>.yaml`), each checked against the army file format, then the
 * scenario's references and rules (engine/warmaster/validate.ts).
 */
export interface LoadedWarmasterScenario {
  readonly ruleset: 'warmaster';
  readonly file: string;
  /** The scenario file and the army files it uses. */
  readonly inputs: readonly string[];
  readonly scenario: Scenario;
  /** The army-list entries the scenario names, keyed `<army>/<unit id>`. */
  readonly units: ReadonlyMap<string, WarmasterUnit>;
}

const armyOf = (reference: string): string => reference.split('/')[0] ?? '';

/** Army names available in `directory` (its .yaml files), or undefined if it cannot be read. */
async function availableArmies(directory: string): Promise<string[] | undefined> {
  try {
    return (await readdir(directory)).filter((name) => name.endsWith('.yaml')).map((name) => name.slice(0, -'.yaml'.length)).sort();
  } catch {
    return undefined;
  }
}

export async function loadWarmasterScenario(file: string, data: unknown): Promise<LoadedWarmasterScenario> {
  const { value: scenario, problems } = parseWith(scenarioSchema, file, data);
  if (scenario === undefined) throw new InputError(problems);
  const directory = path.isAbsolute(scenario.armies) ? scenario.armies : path.join(path.dirname(file), scenario.armies);
  const armies = await availableArmies(directory);
  if (armies === undefined) throw new InputError([{ file, path: 'armies', message: `army files directory not found: ${directory}` }]);

  const references = scenario.sides.flatMap((side) => side.units.flatMap((unit) => [unit.unit, ...unit.characters]));
  const wanted = [...new Set(references.map(armyOf))].filter((army) => armies.includes(army)).sort();
  const units = new Map<string, WarmasterUnit>();
  const inputs = [file];
  for (const army of wanted) {
    const armyFile = path.join(directory, `${army}.yaml`);
    inputs.push(armyFile);
    const parsed = await readDataFile(armyFile);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const { value, problems: armyProblems } = parseWith(armyFileSchema, armyFile, parsed.data);
    problems.push(...armyProblems);
    for (const unit of value?.units ?? []) units.set(`${army}/${unit.id}`, unit);
  }
  if (problems.length > 0) throw new InputError(problems);
  const issues: InputProblem[] = validateWarmaster(scenario, units, armies).map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }));
  if (issues.length > 0) throw new InputError(issues);
  // Keep only what the scenario uses: the spec sent to workers (and hashed for checkpoints) stays small.
  const used = new Map(references.map((reference) => [reference, units.get(reference) as WarmasterUnit] as const));
  return { ruleset: 'warmaster', file, inputs, scenario, units: used };
}
