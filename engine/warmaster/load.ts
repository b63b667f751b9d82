import { z } from 'zod';
import { type DataLocation, folderExists, locateData } from '../data-location.js';
import { applyOverrides } from '../overrides.js';
import { parsedRefs } from '../refs-check.js';
import type { ValidationIssue } from '../validation.js';
import type { DataFiles, LoadResult, Problem } from '../rule-system.js';
import { type Scenario, scenarioSchema } from './schema.js';
import { armyFileSchema, type WarmasterUnit, warmasterUnitSchema } from './units.js';
import { validateWarmaster } from './validate.js';

/** The army-list entries a Warmaster scenario fields, keyed `<army>/<unit id>` (plain JSON: sent to workers). */
export interface WarmasterRefs {
  readonly units: Readonly<Record<string, WarmasterUnit>>;
}

const armyOf = (reference: string): string => reference.split('/')[0] ?? '';

const DEFAULT_ARMIES = scenarioSchema.shape.armies.parse(undefined);

/** The scenario's army files directory (`armies`, or the bundled army lists: engine/data-location.ts). */
export function armiesDirectory(scenario: Scenario, file: string, files: DataFiles): Promise<DataLocation> {
  return locateData(
    files,
    file,
    'warmaster',
    { name: 'armies', value: scenario.armies, defaultValue: DEFAULT_ARMIES, what: 'army files directory' },
    folderExists(files),
  );
}

/** The army ids in the `armies` directory (its .yaml files, sorted), or undefined when it cannot be read. */
export async function listArmies(files: DataFiles, directory: string): Promise<string[] | undefined> {
  const listing = await files.list(directory);
  return listing?.filter((name) => name.endsWith('.yaml')).map((name) => name.slice(0, -'.yaml'.length));
}

/** The entries of the army files `armies` (ids in `directory`), keyed `<army>/<unit id>`, each file checked against the army file format. */
export async function readArmies(
  files: DataFiles,
  directory: string,
  armies: readonly string[],
): Promise<{ units: Map<string, WarmasterUnit>; inputs: string[]; problems: Problem[] }> {
  const units = new Map<string, WarmasterUnit>();
  const inputs: string[] = [];
  const problems: Problem[] = [];
  for (const army of armies) {
    const armyFile = files.join(directory, `${army}.yaml`);
    inputs.push(armyFile);
    const { value, problems: armyProblems } = await files.readChecked(armyFile, armyFileSchema);
    problems.push(...armyProblems);
    for (const unit of value?.units ?? []) units.set(`${army}/${unit.id}`, unit);
  }
  return { units, inputs, problems };
}

/** The scenario's `units:` changes laid over army-list entries (engine/overrides.ts), each checked as an entry; new ones come last. */
export function scenarioUnits(
  units: ReadonlyMap<string, WarmasterUnit>,
  scenario: Scenario,
  file: string,
  files: DataFiles,
): { entries: Map<string, WarmasterUnit>; problems: Problem[] } {
  return applyOverrides(
    units,
    scenario.units,
    (reference) => ({ id: reference.split('/').slice(1).join('/') }),
    (reference, merged) => files.check(file, warmasterUnitSchema, merged, ['units', reference]),
  );
}

/**
 * Loading a Warmaster scenario: the army files its units name (`<army>/<unit>` →
 * `<armies>/<army>.yaml`), each checked against the army file format; the scenario's `units:`
 * changes laid over their entries (engine/overrides.ts); then the scenario's references and rules
 * (validate.ts).
 */
export async function loadWarmaster(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<WarmasterRefs>> {
  const location = await armiesDirectory(scenario, file, files);
  if ('problem' in location) return { inputs: [file], problems: [location.problem] };
  const directory = location.path;
  const armies = await listArmies(files, directory);
  if (armies === undefined)
    return { inputs: [file], problems: [{ file, path: 'armies', message: `army files directory not found: ${directory}` }] };

  const references = scenario.sides.flatMap((side) => side.units.flatMap((unit) => [unit.unit, ...unit.characters]));
  const wanted = [...new Set([...references, ...Object.keys(scenario.units)].map(armyOf))].filter((army) => armies.includes(army)).sort();
  const read = await readArmies(files, directory, wanted);
  const inputs = [file, ...read.inputs];
  const problems = read.problems;
  const changed = scenarioUnits(read.units, scenario, file, files);
  problems.push(...changed.problems);
  if (problems.length > 0) return { inputs, problems };
  const issues = validateWarmaster(scenario, changed.entries, armies).map((issue) => ({
    file,
    path: files.formatPath(issue.path),
    message: issue.message,
  }));
  if (issues.length > 0) return { inputs, problems: issues };
  // Only what the scenario fields: the spec sent to workers (and hashed for checkpoints) stays small.
  return {
    refs: { units: Object.fromEntries(references.map((reference) => [reference, changed.entries.get(reference) as WarmasterUnit])) },
    inputs,
    problems: [],
    ...(location.bundled === undefined ? {} : { bundled: [location.bundled] }),
  };
}

const warmasterRefsSchema = z.strictObject({ units: z.record(z.string(), warmasterUnitSchema) });

/** checkRefs (engine/rule-system.ts): each unit as an army file's entries are checked, then the scenario against them. */
export function checkWarmasterRefs(scenario: Scenario, refs: unknown): ValidationIssue[] {
  const parsed = parsedRefs(warmasterRefsSchema, refs);
  if ('issues' in parsed) return parsed.issues;
  const units = new Map(Object.entries(parsed.value.units));
  return validateWarmaster(scenario, units, [...new Set([...units.keys()].map(armyOf))].sort());
}
