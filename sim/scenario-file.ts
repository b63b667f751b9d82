import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { scenarioSchema, type Scenario, type Unit, unitsFileSchema } from '../engine/heroic/schema.js';
import { validateHeroic, validateUnits } from '../engine/heroic/validate.js';
import { formatPath, InputError, type InputProblem, ROOT_PATH } from './errors.js';
import { type LoadedBattleforgeScenario, loadBattleforgeScenario } from './battleforge-file.js';
import { type LoadedEpicScenario, loadEpicScenario } from './epic-file.js';
import { type LoadedWarmasterScenario, loadWarmasterScenario } from './warmaster-file.js';

export { SCENARIO_EXTENSIONS } from './data-file.js';
import { fileSystemMessage, parseWith, readDataFile, SCENARIO_EXTENSIONS } from './data-file.js';
import { applyFields, type Variant, variantsSchema } from './scenario-patch.js';

/**
 * Reading scenario and units files from disk. Every problem a user can cause — a missing file,
 * broken YAML, a wrong field, a unit id that does not exist — ends as an InputError naming the
 * file and the field, and listing every problem found, so one run shows everything to fix.
 */
export interface LoadedHeroicScenario {
  readonly ruleset: 'heroic';
  /** The scenario file, as given. */
  readonly file: string;
  /** Every file the scenario was read from (the scenario's first). */
  readonly inputs: readonly string[];
  /** The units file it uses, relative to the same place as `file`. */
  readonly unitsFile: string;
  readonly scenario: Scenario;
  readonly units: readonly Unit[];
}

/** A scenario of any ruleset, told apart by `ruleset`. */
export type LoadedScenario = LoadedHeroicScenario | LoadedWarmasterScenario | LoadedBattleforgeScenario | LoadedEpicScenario;

const DEFAULT_UNITS_FILE = '../units.yaml';

/** Files named units.* (units.yaml, units.json) hold unit profiles rather than a scenario. */
export const isUnitsFileName = (file: string): boolean => /^units\.[^.]+$/i.test(path.basename(file));


/** The units file a scenario names, as a path usable from here (relative stays relative). */
function unitsFilePath(scenarioFile: string, reference: string): string {
  return path.isAbsolute(reference) ? reference : path.join(path.dirname(scenarioFile), reference);
}

/** Load, parse and check a units file on its own. */
export async function loadUnitsFile(file: string): Promise<readonly Unit[]> {
  const result = await readUnits(file, file, []);
  if (result.problems.length > 0) throw new InputError(result.problems);
  return result.units ?? [];
}

/**
 * Problems of a units file. A missing units file is the scenario's problem (its `units` field
 * points nowhere), so `referencedFrom` names the scenario file and the field.
 */
async function readUnits(file: string, referencedFrom: string, referencePath: readonly PropertyKey[]): Promise<{ units?: Unit[]; problems: InputProblem[] }> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) {
    const [first] = parsed.problems;
    if (referencedFrom !== file && first?.path === ROOT_PATH && first.message === 'file not found') {
      return { problems: [{ file: referencedFrom, path: formatPath(referencePath), message: `units file not found: ${file}` }] };
    }
    return { problems: parsed.problems };
  }
  const { value, problems } = parseWith(unitsFileSchema, file, parsed.data);
  if (value === undefined) return { problems };
  const issues = validateUnits(value.units).map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }));
  return issues.length > 0 ? { problems: issues } : { units: value.units, problems: [] };
}

const RULESETS = ['heroic', 'warmaster', 'battleforge', 'epic'];

/**
 * Load a scenario file of any ruleset and what it refers to (a units file, army lists), and check
 * them completely. Throws an InputError listing every problem found.
 */
export async function loadScenarioFile(file: string): Promise<LoadedScenario> {
  return loadScenarioData(file, (await readScenarioData(file)).data);
}

/**
 * A scenario file's data and its `variants` (named sets of field changes, for `crucible compare`),
 * read and split: the variants are checked here and are not part of any ruleset's format.
 */
export async function readScenarioData(file: string): Promise<{ data: unknown; variants: readonly Variant[] }> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) throw new InputError(parsed.problems);
  const data = parsed.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !('variants' in data)) return { data, variants: [] };
  const { variants: raw, ...rest } = data as Record<string, unknown>;
  const { value, problems } = parseWith(variantsSchema, file, raw);
  if (value === undefined) throw new InputError(problems.map((problem) => ({ ...problem, path: problem.path === ROOT_PATH ? 'variants' : `variants${problem.path.startsWith('[') ? '' : '.'}${problem.path}` })));
  const names = new Set<string>();
  value.forEach((variant, v) => {
    if (names.has(variant.name)) problems.push({ file, path: `variants[${v}].name`, message: `duplicate variant name ${JSON.stringify(variant.name)}` });
    names.add(variant.name);
  });
  if (problems.length > 0) throw new InputError(problems);
  return { data: rest, variants: value };
}

/** Load scenario data (already read from `file`, maybe changed): dispatch on its ruleset and check it all. */
export async function loadScenarioData(file: string, data: unknown): Promise<LoadedScenario> {
  // Anything but a mapping goes to the heroic schema, which says what the file should be.
  const mapping = typeof data === 'object' && data !== null && !Array.isArray(data);
  const ruleset = mapping ? (data as Record<string, unknown>).ruleset : 'heroic';
  if (ruleset === 'warmaster') return loadWarmasterScenario(file, data);
  if (ruleset === 'battleforge') return loadBattleforgeScenario(file, data);
  if (ruleset === 'epic') return loadEpicScenario(file, data);
  if (ruleset !== 'heroic') {
    const message = ruleset === undefined ? 'missing: say which rules the scenario uses' : `unknown ruleset ${JSON.stringify(ruleset)}`;
    throw new InputError([{ file, path: 'ruleset', message: `${message} (one of ${RULESETS.map((name) => JSON.stringify(name)).join(', ')})` }]);
  }
  return loadHeroicScenario(file, data);
}

/**
 * A scenario with fields changed (`--set`) or a named variant applied: the changes are made on the
 * file's data, which is then checked as a whole, so a bad value reads as a bad field of the file.
 */
export async function loadScenarioChanged(file: string, change: { readonly variant?: string; readonly fields?: readonly (readonly [string, unknown])[] }): Promise<LoadedScenario> {
  const { data, variants } = await readScenarioData(file);
  const fields: (readonly [string, unknown])[] = [];
  if (change.variant !== undefined) {
    const variant = variants.find((entry) => entry.name === change.variant);
    if (variant === undefined) {
      const known = variants.map((entry) => JSON.stringify(entry.name)).join(', ');
      throw new InputError([{ file, path: 'variants', message: `no variant named ${JSON.stringify(change.variant)} (${known === '' ? 'the file declares none' : `declared: ${known}`})` }]);
    }
    fields.push(...Object.entries(variant.set));
  }
  fields.push(...(change.fields ?? []));
  const patched = applyFields(file, data, fields, change.variant === undefined ? ROOT_PATH : 'variants');
  if (patched.problems.length > 0) throw new InputError(patched.problems);
  return loadScenarioData(file, patched.data);
}

/** `loadScenarioFile` for a caller that needs a heroic scenario (any other ruleset is an InputError). */
export async function loadHeroicScenarioFile(file: string): Promise<LoadedHeroicScenario> {
  const loaded = await loadScenarioFile(file);
  if (loaded.ruleset !== 'heroic') throw new InputError([{ file, path: 'ruleset', message: `expected a heroic scenario, not ${loaded.ruleset}` }]);
  return loaded;
}

async function loadHeroicScenario(file: string, data: unknown): Promise<LoadedHeroicScenario> {
  const { value: scenario, problems } = parseWith(scenarioSchema, file, data);

  // Read the units file even when the scenario has problems, so both sets are reported at once.
  const rawUnits = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).units : undefined;
  const reference = scenario?.units ?? (rawUnits === undefined ? DEFAULT_UNITS_FILE : rawUnits);
  let units: readonly Unit[] | undefined;
  let unitsFile = '';
  if (typeof reference === 'string') {
    unitsFile = unitsFilePath(file, reference);
    const loaded = await readUnits(unitsFile, file, ['units']);
    units = loaded.units;
    problems.push(...loaded.problems);
  }
  if (scenario !== undefined && units !== undefined) {
    for (const issue of validateHeroic(scenario, units)) problems.push({ file, path: formatPath(issue.path), message: issue.message });
  }
  if (problems.length > 0 || scenario === undefined || units === undefined) throw new InputError(problems);
  return { ruleset: 'heroic', file, inputs: [file, unitsFile], unitsFile, scenario, units };
}

/**
 * The scenario files named by `paths`: files as given, directories expanded to their
 * .yaml/.yml/.json files (not recursively) sorted by name. Each file appears once.
 */
export async function findScenarioFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const problems: InputProblem[] = [];
  for (const given of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(given)).isDirectory();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      problems.push({ file: given, path: ROOT_PATH, message: code === 'ENOENT' ? 'no such file or directory' : fileSystemMessage(error) });
      continue;
    }
    if (!isDirectory) {
      files.push(given);
      continue;
    }
    const entries = await readdir(given, { withFileTypes: true });
    const found = entries
      .filter((entry) => entry.isFile() && SCENARIO_EXTENSIONS.includes(path.extname(entry.name).toLowerCase()))
      .map((entry) => entry.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => path.join(given, name));
    if (found.length === 0) problems.push({ file: given, path: ROOT_PATH, message: 'no .yaml, .yml or .json files in this directory' });
    files.push(...found);
  }
  if (problems.length > 0) throw new InputError(problems);
  return [...new Set(files)];
}
