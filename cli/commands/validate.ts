import type { Command } from 'commander';
import { checkRoster, isRosterData, loadRoster } from '../../input/roster.js';
import { readDataFile } from '../../input/data-file.js';
import { InputError } from '../../input/errors.js';
import {
  checkDataFile,
  findScenarioFiles,
  isUnitsFileName,
  loadScenarioChanged,
  loadScenarioData,
  loadScenarioFile,
  readScenarioData,
} from '../../input/scenario-file.js';
import { EXIT_BAD_INPUT, EXIT_OK, type Io } from './io.js';
import { fileSystemData } from '../../input/data-file.js';
import { BUILT_INS_ONLY, type TrustedPlugins } from '../../input/plugin-trust.js';
import { trustedRuleSystems } from '../../input/rule-systems.js';
import type { RuleSystem } from '../../engine/rule-system.js';
import { pluginOption, type Trusting, trustOf } from './plugins.js';

async function isRosterFile(file: string): Promise<boolean> {
  const parsed = await readDataFile(file);
  return parsed.ok && isRosterData(parsed.data);
}

/**
 * Check every file (scenarios, units files, rosters); print `ok <file>` (stdout) or its problems
 * (stderr). Bad input → exit 2. A data file is checked by the rule systems whose data files are
 * named like it: the built-ins and the plugins the command trusts (--plugin, $CRUCIBLE_CONFIG).
 */
export async function validateCommand(paths: readonly string[], io: Io, plugins: TrustedPlugins = BUILT_INS_ONLY): Promise<number> {
  const trusted = { plugins };
  let status = EXIT_OK;
  let files: string[];
  try {
    files = await findScenarioFiles(paths);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.stderr(`${error.message}\n`);
    return EXIT_BAD_INPUT;
  }
  // The trusted plugins' data files are checked as the built-ins' are: their checks are needed at once.
  let pluginSystems: readonly RuleSystem[] = [];
  try {
    pluginSystems = await trustedRuleSystems(plugins);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.stderr(`${error.message}\n`);
    status = EXIT_BAD_INPUT;
  }
  for (const file of files) {
    try {
      if (isUnitsFileName(file, pluginSystems)) await checkDataFile(file, pluginSystems);
      else if (await isRosterFile(file))
        await checkRoster(await loadRoster(file, trusted), (at, data) => loadScenarioData(at, data, fileSystemData, trusted));
      else {
        await loadScenarioFile(file, trusted);
        // Every variant must make a valid scenario too.
        for (const variant of (await readScenarioData(file)).variants) await loadScenarioChanged(file, { variant: variant.name }, trusted);
      }
      io.stdout(`ok ${file}\n`);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      io.stderr(`${error.message}\n`);
      status = EXIT_BAD_INPUT;
    }
  }
  return status;
}

const PATHS_HELP = 'scenario files, or directories (their .yaml, .yml and .json files, sorted by name)';

export function registerValidate(program: Command, io: Io, setStatus: (status: number) => void): void {
  pluginOption(program.command('validate'))
    .description('check scenario and units files without simulating; prints "ok <file>" or every problem found')
    .argument('<paths...>', `${PATHS_HELP}; files named units.* are checked as units files`)
    .addHelpText(
      'after',
      `
Each problem is one line: <file>: <field>: <what is wrong>, e.g.
  scenarios/x.yaml: sides[0].groups[1].models: must be an integer ≥ 1, got -2

Examples:
  $ crucible validate data/heroic/scenarios
  $ crucible validate data/heroic/units.yaml my-fight.yaml
  $ crucible validate examples/homebrew/scenarios --plugin examples/homebrew/index.ts`,
    )
    .action(async (paths: string[], options: Trusting) => {
      setStatus(await validateCommand(paths, io, trustOf(options)));
    });
}
