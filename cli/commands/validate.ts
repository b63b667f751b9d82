import type { Command } from 'commander';
import type { RuleSystem } from '../../engine/rule-system.js';
import { fileSystemData, readDataFile } from '../../input/data-file.js';
import { checkDataFile, dataFileKinds, kindName } from '../../input/data-file-kinds.js';
import { formatProblem, InputError, MAX_PROBLEMS_PER_FILE, type Problem } from '../../input/errors.js';
import { BUILT_INS_ONLY, type TrustedPlugins } from '../../input/plugin-trust.js';
import { checkRoster, isRosterData, loadRoster } from '../../input/roster.js';
import { trustedRuleSystems } from '../../input/rule-systems.js';
import { findScenarioFiles, loadScenarioChanged, loadScenarioData, loadScenarioFile, readScenarioData } from '../../input/scenario-file.js';
import { EXIT_BAD_INPUT, EXIT_OK, type Io } from './io.js';
import { pluginOption, type Trusting, trustOf } from './plugins.js';

/** One file as validate found it: what it was checked as, and its problems (none: ok). */
export interface CheckedFile {
  readonly file: string;
  /** `scenario`, `roster`, or a rule system's data file: "heroic units file", "warmaster army file"… */
  readonly kind: string;
  readonly problems: readonly Problem[];
}

/** The problems an InputError carries; any other error is a bug and goes on up. */
async function problemsOf(check: () => Promise<unknown>): Promise<readonly Problem[]> {
  try {
    await check();
    return [];
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems;
  }
}

/**
 * A scenario's problems, and those of every variant it declares, together: a variant's load repeats
 * the scenario's own problems (listed once) and adds its own, so one run of validate shows them all.
 */
async function scenarioProblems(file: string, plugins: TrustedPlugins): Promise<Problem[]> {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const add = (found: readonly Problem[]): void => {
    for (const problem of found) {
      const key = `${problem.file}\n${problem.path}\n${problem.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(problem);
    }
  };
  add(await problemsOf(() => loadScenarioFile(file, { plugins })));
  // A file with a hundred problems has been listed as far as any is (input/errors.ts).
  if (problems.length >= MAX_PROBLEMS_PER_FILE) return problems;
  let variants: readonly { readonly name: string }[] = [];
  // A file that cannot be read, or whose variants are malformed, has said so above.
  await problemsOf(async () => {
    variants = (await readScenarioData(file)).variants;
  });
  for (const variant of variants) add(await problemsOf(() => loadScenarioChanged(file, { variant: variant.name }, { plugins })));
  return problems;
}

/**
 * What `file` is, by name and content, checked as that: a rule system's data file (a built-in's, or
 * a trusted plugin's in `pluginSystems`), a roster (through and through, every entry in its
 * template), or a scenario (with every variant it declares).
 */
export async function checkFile(file: string, plugins: TrustedPlugins, pluginSystems: readonly RuleSystem[]): Promise<CheckedFile> {
  const parsed = await readDataFile(file);
  const [first, ...others] = await dataFileKinds(file, parsed.ok ? parsed.data : undefined, pluginSystems);
  if (first !== undefined) {
    const { kind, problems } = await checkDataFile(file, [first, ...others]);
    return { file, kind: kindName(kind), problems };
  }
  if (parsed.ok && isRosterData(parsed.data)) {
    const trusted = { plugins };
    const problems = await problemsOf(async () =>
      checkRoster(await loadRoster(file, trusted), (at, data) => loadScenarioData(at, data, fileSystemData, trusted)),
    );
    return { file, kind: 'roster', problems };
  }
  return { file, kind: 'scenario', problems: await scenarioProblems(file, plugins) };
}

/**
 * Check every file (scenarios, rosters, every rule system's data files): print `ok <file>` (stdout)
 * or its problems (stderr), or with `json` one document on stdout. Bad input → exit 2. A data file is
 * checked by the rule systems whose data files it is like — by name or by content — the built-ins and
 * the plugins the command trusts (--plugin, $CRUCIBLE_CONFIG).
 */
export async function validateCommand(
  paths: readonly string[],
  io: Io,
  plugins: TrustedPlugins = BUILT_INS_ONLY,
  { json = false }: { readonly json?: boolean } = {},
): Promise<number> {
  const checked: CheckedFile[] = [];
  const problems: Problem[] = [];
  /** Problems of the command itself (a path not there, a plugin that does not load): said at once, or in the document. */
  const refuse = (error: unknown): void => {
    if (!(error instanceof InputError)) throw error;
    problems.push(...error.problems);
    if (!json) io.stderr(`${error.message}\n`);
  };
  const done = (): number => {
    if (json) {
      const document = {
        files: checked.map(({ file, kind, problems: found }) => ({ file, kind, ok: found.length === 0 })),
        problems: problems.map(({ file, path, message }) => ({ file, path, message })),
      };
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
    }
    return problems.length === 0 ? EXIT_OK : EXIT_BAD_INPUT;
  };
  let files: string[];
  try {
    files = await findScenarioFiles(paths);
  } catch (error) {
    refuse(error);
    return done();
  }
  // The trusted plugins' data files are checked as the built-ins' are: their checks are needed at once.
  let pluginSystems: readonly RuleSystem[] = [];
  try {
    pluginSystems = await trustedRuleSystems(plugins);
  } catch (error) {
    refuse(error);
  }
  for (const file of files) {
    const result = await checkFile(file, plugins, pluginSystems);
    checked.push(result);
    problems.push(...result.problems);
    if (json) continue;
    if (result.problems.length === 0) io.stdout(`ok ${file}\n`);
    // Each list is bounded where it was made (input/errors.ts): printed as it is, not counted again.
    else io.stderr(`${result.problems.map(formatProblem).join('\n')}\n`);
  }
  return done();
}

const PATHS_HELP =
  'scenario files, rosters or data files (units, armies, factions…), or directories (their .yaml, .yml and .json files, sorted by name); - for standard input';

export function registerValidate(program: Command, io: Io, setStatus: (status: number) => void): void {
  pluginOption(program.command('validate'))
    .description('check scenario, roster and data files without simulating; prints "ok <file>" or every problem found')
    .argument('<paths...>', PATHS_HELP)
    .option('--json', 'print one JSON document: every file with its kind and whether it is ok, and every problem as {file, path, message}')
    .addHelpText(
      'after',
      `
Each problem is one line: <file>: <field>: <what is wrong>, e.g.
  scenarios/x.yaml: sides[0].groups[1].models: must be an integer ≥ 1, got -2

A file is checked as what it is: a scenario (with every variant it declares), a roster, or a rule
system's data file — heroic units files, Warmaster army files, Battle Forge faction and index files,
Epic armies files, a trusted plugin's own — told by its name (units.yaml) or its fields.

Examples:
  $ crucible validate data/heroic/scenarios
  $ crucible validate data/heroic/units.yaml my-fight.yaml
  $ crucible validate data/warmaster/armies --json
  $ crucible validate examples/homebrew/scenarios --plugin examples/homebrew/index.ts`,
    )
    .action(async (paths: string[], options: Trusting & { json?: boolean }) => {
      setStatus(await validateCommand(paths, io, trustOf(options), { json: options.json === true }));
    });
}
