import { applyOverrides } from '../../engine/overrides.js';
import type { DataFiles, LoadResult, Problem } from '../../engine/rule-system.js';
import { type Scenario, type Unit, unitSchema, unitsFileSchema } from './schema.js';

/**
 * Loading a homebrew scenario's data through the `DataFiles` crucible hands in (no node:fs here, so
 * the same loader works on any file source): the units file, the scenario's `units:` changes laid
 * over it, then the two sides' unit ids. Every problem names its file and field.
 */

/** What the kernel needs besides the scenario: the two sides' profiles, in side order (plain JSON). */
export interface HomebrewRefs {
  readonly units: readonly [Unit, Unit];
}

/** A units file's profiles, checked; `referencedFrom`: the scenario naming it (its `unitsFile` field is then the problem). */
export async function readUnits(files: DataFiles, file: string, referencedFrom?: string): Promise<{ units?: Unit[]; problems: Problem[] }> {
  const parsed = await files.read(file);
  if (!parsed.ok) {
    const [first] = parsed.problems;
    if (referencedFrom !== undefined && first?.message === 'file not found')
      return { problems: [{ file: referencedFrom, path: 'unitsFile', message: `units file not found: ${file}` }] };
    return { problems: [...parsed.problems] };
  }
  const { value, problems } = files.check(file, unitsFileSchema, parsed.data);
  if (value === undefined) return { problems };
  const seen = new Set<string>();
  value.units.forEach((unit, u) => {
    if (seen.has(unit.id))
      problems.push({ file, path: files.formatPath(['units', u, 'id']), message: `duplicate unit id ${JSON.stringify(unit.id)}` });
    seen.add(unit.id);
  });
  return problems.length > 0 ? { problems } : { units: value.units, problems };
}

const quoted = (names: readonly string[]): string => names.map((name) => JSON.stringify(name)).join(', ');

export async function loadHomebrew(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<HomebrewRefs>> {
  const unitsFile = files.resolve(file, scenario.unitsFile);
  const inputs = [file, unitsFile];
  const read = await readUnits(files, unitsFile, file);
  if (read.units === undefined) return { inputs, problems: read.problems };
  // The scenario's `units:` changes, each merged unit checked again (engine/overrides.ts).
  const changed = applyOverrides(
    new Map(read.units.map((unit) => [unit.id, unit])),
    scenario.units,
    (id) => ({ id }),
    (id, merged) => files.check(file, unitSchema, merged, ['units', id]),
  );
  const { problems } = changed;
  const units = [...changed.entries.values()];
  if (problems.length > 0) return { inputs, problems };
  const byId = new Map(units.map((unit) => [unit.id, unit]));
  const known = quoted(units.map((unit) => unit.id));
  scenario.sides.forEach((side, s) => {
    if (!byId.has(side.unit))
      problems.push({
        file,
        path: files.formatPath(['sides', s, 'unit']),
        message: `unknown unit ${JSON.stringify(side.unit)} (known units: ${known}; or define it under units:)`,
      });
  });
  if (problems.length > 0) return { inputs, problems };
  const [a, b] = scenario.sides;
  // Only the two profiles fielded: what workers receive and what results hash as "the profiles used".
  return { refs: { units: [byId.get(a.unit) as Unit, byId.get(b.unit) as Unit] }, inputs, problems: [] };
}
