import { z } from 'zod';
import { type DataLocation, locateData } from '../data-location.js';
import { applyOverrides } from '../overrides.js';
import { parsedRefs } from '../refs-check.js';
import type { ValidationIssue } from '../validation.js';
import type { DataFiles, LoadResult, Problem } from '../rule-system.js';
import { type Scenario, scenarioSchema, type Unit, unitSchema, unitsFileSchema } from './schema.js';
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

const DEFAULT_UNITS_FILE = scenarioSchema.shape.unitsFile.parse(undefined);

/** The scenario's units file (`unitsFile`, or the bundled one: engine/data-location.ts). */
export function unitsFileOf(scenario: Scenario, file: string, files: DataFiles): Promise<DataLocation> {
  return locateData(
    files,
    file,
    'heroic',
    { name: 'unitsFile', value: scenario.unitsFile, defaultValue: DEFAULT_UNITS_FILE, what: 'units file' },
    (path) => files.exists(path),
  );
}

/**
 * The units file's profiles with the scenario's `units:` changes laid over them (engine/overrides.ts),
 * each checked as a unit: profiles keep the file's order, units new to the scenario come last.
 */
export function scenarioUnits(
  units: readonly Unit[],
  scenario: Scenario,
  file: string,
  files: DataFiles,
): { units: Unit[]; problems: Problem[] } {
  const changed = applyOverrides(
    new Map(units.map((unit) => [unit.id, unit])),
    scenario.units,
    (id) => ({ id }),
    (id, merged) => files.check(file, unitSchema, merged, ['units', id]),
  );
  return { units: [...changed.entries.values()], problems: changed.problems };
}

/** The scenario's units file and `units:` changes, then the scenario's references and rules (validate.ts). */
export async function loadHeroic(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<HeroicRefs>> {
  const location = await unitsFileOf(scenario, file, files);
  if ('problem' in location) return { inputs: [file], problems: [location.problem] };
  const unitsFile = location.path;
  const inputs = [file, unitsFile];
  const read = await readUnits(files, unitsFile, file);
  if (read.units === undefined) return { inputs, problems: read.problems };
  const { units, problems } = scenarioUnits(read.units, scenario, file, files);
  if (problems.length > 0) return { inputs, problems };
  const issues = validateHeroic(scenario, units).map((issue) => ({ file, path: files.formatPath(issue.path), message: issue.message }));
  if (issues.length > 0) return { inputs, problems: issues };
  // Only the profiles the scenario fields: what workers receive, and what results hash as "units used".
  const used = new Set(scenario.sides.flatMap((side) => side.groups.map((group) => group.unit)));
  return {
    refs: { units: units.filter((unit) => used.has(unit.id)) },
    inputs,
    problems: [],
    ...(location.bundled === undefined ? {} : { bundled: [location.bundled] }),
  };
}

const heroicRefsSchema = z.strictObject({ units: z.array(unitSchema) });

/** checkRefs (engine/rule-system.ts): the profiles as a units file's are checked, then the scenario against them. */
export function checkHeroicRefs(scenario: Scenario, refs: unknown): ValidationIssue[] {
  const parsed = parsedRefs(heroicRefsSchema, refs);
  if ('issues' in parsed) return parsed.issues;
  const issues = validateUnits(parsed.value.units);
  return issues.length > 0 ? issues : validateHeroic(scenario, parsed.value.units);
}
