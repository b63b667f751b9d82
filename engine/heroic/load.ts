import { mergeOverride } from '../overrides.js';
import type { DataFiles, LoadResult, Problem } from '../rule-system.js';
import { type Scenario, type Unit, unitSchema, unitsFileSchema } from './schema.js';
import { validateHeroic, validateUnits } from './validate.js';

/** What a heroic kernel needs besides the scenario: the profiles of the units it fields. */
export interface HeroicRefs {
  readonly units: readonly Unit[];
}

/**
 * A units file's profiles, checked. A missing units file is the scenario's problem (its
 * `unitsFile` points nowhere), so `referencedFrom` names the scenario file and the field.
 */
export async function readUnits(files: DataFiles, file: string, referencedFrom?: string): Promise<{ units?: Unit[]; problems: Problem[] }> {
  const parsed = await files.read(file);
  if (!parsed.ok) {
    const [first] = parsed.problems;
    if (referencedFrom !== undefined && first?.message === 'file not found') {
      return { problems: [{ file: referencedFrom, path: 'unitsFile', message: `units file not found: ${file}` }] };
    }
    return { problems: [...parsed.problems] };
  }
  const { value, problems } = files.check(file, unitsFileSchema, parsed.data);
  if (value === undefined) return { problems };
  const issues = validateUnits(value.units).map((issue) => ({ file, path: files.formatPath(issue.path), message: issue.message }));
  return issues.length > 0 ? { problems: issues } : { units: value.units, problems: [] };
}

/** The units file's profiles with the scenario's `units:` changes laid over them (engine/overrides.ts). */
function withOverrides(scenario: Scenario, file: string, units: readonly Unit[], files: DataFiles): { units: Unit[]; problems: Problem[] } {
  const result = [...units];
  const problems: Problem[] = [];
  for (const [id, override] of Object.entries(scenario.units)) {
    const index = result.findIndex((unit) => unit.id === id);
    const checked = files.check(file, unitSchema, mergeOverride(result[index] ?? {}, { ...override, id }), ['units', id]);
    problems.push(...checked.problems);
    if (checked.value === undefined) continue;
    if (index < 0) result.push(checked.value);
    else result[index] = checked.value;
  }
  return { units: result, problems };
}

/** The scenario's units file and `units:` changes, then the scenario's references and rules (validate.ts). */
export async function loadHeroic(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<HeroicRefs>> {
  const unitsFile = files.resolve(file, scenario.unitsFile);
  const inputs = [file, unitsFile];
  const read = await readUnits(files, unitsFile, file);
  if (read.units === undefined) return { inputs, problems: read.problems };
  const { units, problems } = withOverrides(scenario, file, read.units, files);
  if (problems.length > 0) return { inputs, problems };
  const issues = validateHeroic(scenario, units).map((issue) => ({ file, path: files.formatPath(issue.path), message: issue.message }));
  if (issues.length > 0) return { inputs, problems: issues };
  // Only the profiles the scenario fields: what workers receive, and what results hash as "units used".
  const used = new Set(scenario.sides.flatMap((side) => side.groups.map((group) => group.unit)));
  return { refs: { units: units.filter((unit) => used.has(unit.id)) }, inputs, problems: [] };
}
