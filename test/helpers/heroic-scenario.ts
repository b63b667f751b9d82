import { type HeroicRefs, heroic, type Scenario, type Unit } from '../../engine/heroic/index.js';
import { readUnits } from '../../engine/heroic/load.js';
import { fileSystemData } from '../../input/data-file.js';
import { InputError } from '../../input/errors.js';
import { type LoadedScenario, loadScenarioFileOf } from '../../input/scenario-file.js';

/** A heroic scenario file loaded as the CLI loads it, with its units and units file by name (tests' shorthand). */
export async function loadHeroicScenarioFile(
  file: string,
): Promise<LoadedScenario<Scenario, HeroicRefs> & { readonly units: readonly Unit[]; readonly unitsFile: string }> {
  const loaded = await loadScenarioFileOf(file, heroic);
  return { ...loaded, units: loaded.refs.units, unitsFile: loaded.inputs[1] ?? '' };
}

/** A units file checked on its own, as `crucible validate units.yaml` does. */
export async function loadUnitsFile(file: string): Promise<readonly Unit[]> {
  const { units, problems } = await readUnits(fileSystemData, file);
  if (problems.length > 0) throw new InputError(problems);
  return units ?? [];
}
