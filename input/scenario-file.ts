import path from 'pathe';
import type { BundledData, DataFiles, Problem, RuleSystem, ScenarioBase } from '../engine/rule-system.js';
import { scenarioBaseSchema } from '../engine/scenario-base.js';
import { dataFileHeld } from './data-file-kinds.js';
import { formatPath, InputError, MAX_PROBLEMS_PER_FILE, ROOT_PATH, withinField } from './errors.js';
import { mendToSchema } from './schema-mending.js';
import { fileSystemData, fileSystemMessage, parseWith, readDataFile, SCENARIO_EXTENSIONS, STDIN } from './data-file.js';
import { type DirectoryEntry, loadKernelModule, platform, type PluginInfo, type TrustedPlugins } from './platform.js';
import { applyFields, parseFieldPath, type Variant, variantsSchema } from './scenario-patch.js';

export { SCENARIO_EXTENSIONS } from './data-file.js';

/**
 * Reading scenario files from disk, for any rule system: the file, its `variants`, the rule system
 * it names (engine/registry.ts, or a plugin module), that system's schema, then its loader for
 * what the scenario refers to. Every problem a user can cause — a missing file, broken YAML, a
 * wrong field, a unit id that does not exist — ends as an InputError naming the file and the
 * field, and listing every problem found, so one run shows everything to fix.
 */
export interface LoadedScenario<Scenario extends ScenarioBase = ScenarioBase, Refs = unknown> {
  readonly system: RuleSystem<Scenario, Refs>;
  /** Set when the rule system is a plugin: its module, version and code hash. */
  readonly plugin?: PluginInfo;
  /** The scenario file, as given. */
  readonly file: string;
  /** Every file the scenario was read from (the scenario's first). */
  readonly inputs: readonly string[];
  /** Data fields read from crucible's bundled data, their default leading nowhere beside the scenario (engine/data-location.ts). */
  readonly bundled?: readonly BundledData[];
  readonly scenario: Scenario;
  /** What the kernel needs besides the scenario (units, army entries…), as the loader found it: plain JSON. */
  readonly refs: Refs;
}

/** How a scenario may be loaded: the plugin modules the caller trusts to run (default none: built-ins only). */
export interface LoadOptions {
  readonly plugins?: TrustedPlugins | undefined;
}

/**
 * Load a scenario file of any rule system and what it refers to (a units file, army lists), and check
 * them completely. Throws an InputError listing every problem found.
 */
export async function loadScenarioFile(file: string, options: LoadOptions = {}): Promise<LoadedScenario> {
  return loadScenarioData(file, (await readScenarioData(file)).data, fileSystemData, options);
}

/** `loadScenarioFile` for a caller that needs one rule system's scenario (another is an InputError). */
export async function loadScenarioFileOf<Scenario extends ScenarioBase, Refs>(
  file: string,
  system: RuleSystem<Scenario, Refs>,
  options: LoadOptions = {},
): Promise<LoadedScenario<Scenario, Refs>> {
  const loaded = await loadScenarioFile(file, options);
  if (loaded.system !== (system as RuleSystem))
    throw new InputError([{ file, path: 'ruleset', message: `expected a ${system.id} scenario, not ${loaded.system.id}` }]);
  return loaded as unknown as LoadedScenario<Scenario, Refs>;
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
  if (value === undefined)
    throw new InputError(
      problems.map((problem) => ({
        ...problem,
        path: problem.path === ROOT_PATH ? 'variants' : `variants${problem.path.startsWith('[') ? '' : '.'}${problem.path}`,
      })),
    );
  const names = new Set<string>();
  value.forEach((variant, v) => {
    if (names.has(variant.name))
      problems.push({ file, path: `variants[${v}].name`, message: `duplicate variant name ${JSON.stringify(variant.name)}` });
    names.add(variant.name);
  });
  if (problems.length > 0) throw new InputError(problems);
  return { data: rest, variants: value };
}

/**
 * Load scenario data (already read from `file`, maybe changed): find its rule system and check it
 * all. `files`: where its data files are read (an analysis passes one snapshot for all its loads, input/data-snapshot.ts).
 */
export async function loadScenarioData(
  file: string,
  data: unknown,
  files: DataFiles = fileSystemData,
  options: LoadOptions = {},
): Promise<LoadedScenario> {
  if (data === null || data === undefined) throw new InputError([{ file, path: ROOT_PATH, message: 'the file is empty' }]);
  if (typeof data !== 'object' || Array.isArray(data))
    throw new InputError([{ file, path: ROOT_PATH, message: 'a scenario must be a mapping of fields (ruleset, name, sides…)' }]);
  // A units, army or faction file given as a scenario: said as such, not as a scenario missing its `ruleset:`.
  const dataFile = 'ruleset' in data ? undefined : await dataFileHeld(data);
  if (dataFile !== undefined) throw new InputError([{ file, path: ROOT_PATH, message: dataFile }]);
  const { system, plugin } = await platform().resolveRuleSystem(file, (data as Record<string, unknown>).ruleset, options.plugins);
  // A plugin is named by its module; its schema knows it by id.
  const named = plugin === undefined ? data : { ...data, ruleset: system.id };
  const upgraded = system.upgrade?.(named) ?? named;
  const { value: scenario, problems } = parseWith(system.scenarioSchema, file, upgraded);
  if (scenario === undefined) throw new InputError([...problems, ...(await loaderProblems(system, file, upgraded, files, problems))]);
  // A plugin's schema may define these fields itself: they must still be what every scenario's are (engine/scenario-base.ts).
  if (!scenarioBaseSchema.safeParse(scenario).success) {
    throw new InputError([
      {
        file,
        path: 'ruleset',
        message: `rule system ${system.id}: its scenarioSchema must give every scenario a name (text), seed and trials (numbers within their limits, with defaults): spread scenarioHeading and runFields of engine/scenario-base.ts into it`,
      },
    ]);
  }
  const result = await system.load(scenario as unknown as ScenarioBase, file, files);
  if (result.problems.length > 0 || result.refs === undefined)
    throw new InputError(
      result.problems.length > 0
        ? [...result.problems]
        : [{ file, path: ROOT_PATH, message: `the ${system.id} rule system loaded nothing` }],
    );
  // Its kernel module too, so a kernel can be compiled from the loaded scenario at once (sim/kernel-spec.ts).
  await loadKernelModule(system.id, system.kernelModule);
  const bundled = result.bundled !== undefined && result.bundled.length > 0 ? { bundled: result.bundled } : {};
  return {
    system,
    ...(plugin === undefined ? {} : { plugin }),
    file,
    inputs: result.inputs,
    ...bundled,
    scenario: scenario as unknown as ScenarioBase,
    refs: result.refs,
  };
}

/**
 * What the loader would also find (an unknown unit, a units file not found) in a scenario that fails
 * its schema, so that one run shows every problem: the scenario mended to pass the schema twice
 * (input/schema-mending.ts: a bad number on its bound, then one step inside it…), each loaded, and
 * the problems both loads find kept, but for those at, inside or above a mended field and those
 * already found. A problem the mending caused (a group of 1 model too few for its formation) reads
 * differently in the two, or is at a mended field, and is left out; nothing when it cannot be mended.
 */
async function loaderProblems(
  system: RuleSystem,
  file: string,
  data: unknown,
  files: DataFiles,
  found: readonly Problem[],
): Promise<Problem[]> {
  // A file with a hundred problems already has no room for more (input/errors.ts).
  if (found.length >= MAX_PROBLEMS_PER_FILE) return [];
  const keyOf = (problem: Problem): string => `${problem.file}\n${problem.path}\n${problem.message}`;
  const loads: Problem[][] = [];
  const mended: string[] = [];
  for (const mending of ['low', 'high'] as const) {
    const scenario = mendToSchema(system.scenarioSchema, data, mending);
    if (scenario === undefined) return [];
    mended.push(...scenario.paths.map(formatPath));
    try {
      loads.push([...(await system.load(scenario.value as ScenarioBase, file, files)).problems]);
    } catch {
      // A loader given a mended scenario may trip where the file's own would not: its problems are not the file's.
      return [];
    }
  }
  const [low = [], high = []] = loads;
  const inBoth = new Set(high.map(keyOf));
  const known = new Set(found.map(keyOf));
  const nearMended = (problem: Problem): boolean =>
    problem.file === file &&
    mended.some((at) => withinField(problem.path, at) || withinField(at, problem.path) || problem.path === ROOT_PATH);
  return low.filter((problem) => inBoth.has(keyOf(problem)) && !known.has(keyOf(problem)) && !nearMended(problem));
}

/**
 * A scenario with fields changed (`--set`) or a named variant applied: the changes are made on the
 * file's data, which is then checked as a whole, so a bad value reads as a bad field of the file.
 */
export async function loadScenarioChanged(
  file: string,
  change: { readonly variant?: string; readonly fields?: readonly (readonly [string, unknown])[] },
  options: LoadOptions = {},
): Promise<LoadedScenario> {
  const { data, variants } = await readScenarioData(file);
  const index = change.variant === undefined ? -1 : variants.findIndex((entry) => entry.name === change.variant);
  const variant = variants[index];
  if (change.variant !== undefined && variant === undefined) {
    const known = variants.map((entry) => JSON.stringify(entry.name)).join(', ');
    throw new InputError([
      {
        file,
        path: 'variants',
        message: `no variant named ${JSON.stringify(change.variant)} (${known === '' ? 'the file declares none' : `declared: ${known}`})`,
      },
    ]);
  }
  const fields: (readonly [string, unknown])[] = [...Object.entries(variant?.set ?? {}), ...(change.fields ?? [])];
  const patched = applyFields(file, data, fields, variant === undefined ? ROOT_PATH : `variants[${index}].set`);
  if (patched.problems.length > 0) throw new InputError(patched.problems);
  try {
    return await loadScenarioData(file, patched.data, fileSystemData, options);
  } catch (error) {
    if (variant === undefined || !(error instanceof InputError)) throw error;
    throw new InputError(error.problems.map((problem) => setByVariant(problem, variant)));
  }
}

/** A problem in a field the variant sets (or inside it) says so: the file as written has another value there. */
function setByVariant(problem: Problem, variant: Variant): Problem {
  const sets = Object.keys(variant.set).some((path) => {
    const steps = parseFieldPath(path);
    const field = steps === undefined ? path : formatPath(steps);
    return withinField(problem.path, field);
  });
  return sets ? { ...problem, message: `${problem.message} (set by variant ${JSON.stringify(variant.name)})` } : problem;
}

/**
 * The scenario files named by `paths`: files as given (`-` for standard input), directories expanded
 * to their .yaml/.yml/.json files (not recursively) sorted by name. Each file appears once.
 */
export async function findScenarioFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const problems: Problem[] = [];
  for (const given of paths) {
    if (given === STDIN) {
      files.push(given);
      continue;
    }
    let isDirectory: boolean;
    try {
      isDirectory = (await platform().stat(given)).isDirectory();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      problems.push({ file: given, path: ROOT_PATH, message: code === 'ENOENT' ? 'no such file or directory' : fileSystemMessage(error) });
      continue;
    }
    if (!isDirectory) {
      files.push(given);
      continue;
    }
    let entries: DirectoryEntry[];
    try {
      entries = await platform().readDirectory(given);
    } catch (error) {
      // An unreadable directory (permissions) is the user's input, not a crash.
      problems.push({ file: given, path: ROOT_PATH, message: `cannot list this directory: ${fileSystemMessage(error)}` });
      continue;
    }
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
