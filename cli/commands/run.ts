import { performance } from 'node:perf_hooks';
import { summarize } from '../../analysis/summary.js';
import { compileHeroic } from '../../engine/heroic/index.js';
import { InputError, type InputProblem, ROOT_PATH } from '../../sim/errors.js';
import { runTrials } from '../../sim/run.js';
import { findScenarioFiles, isUnitsFileName, type LoadedScenario, loadScenarioFile } from '../../sim/scenario-file.js';
import { formatRunReport, groupThousands, type RunReport, runReportJson } from '../format.js';
import { EXIT_OK, type Io } from './io.js';

export interface RunOptions {
  readonly trials?: number;
  readonly seed?: number;
  readonly json?: boolean;
  readonly quiet?: boolean;
}


/**
 * Load every scenario first, so a typo in the last file is reported before minutes of simulation
 * of the first ones; all problems of all files are reported together.
 */
export async function loadAll(paths: readonly string[]): Promise<LoadedScenario[]> {
  const files = await findScenarioFiles(paths);
  const loaded: LoadedScenario[] = [];
  const problems: InputProblem[] = [];
  for (const file of files) {
    if (isUnitsFileName(file)) {
      problems.push({ file, path: ROOT_PATH, message: 'this is a units file; run takes scenario files (e.g. data/heroic/scenarios)' });
      continue;
    }
    try {
      loaded.push(await loadScenarioFile(file));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return loaded;
}

export async function runCommand(paths: readonly string[], options: RunOptions, io: Io): Promise<number> {
  const loaded = await loadAll(paths);
  const reports: RunReport[] = [];
  const timing = options.quiet !== true && options.json !== true;
  for (const [index, { file, scenario, units }] of loaded.entries()) {
    const kernel = compileHeroic(scenario, units);
    const seed = options.seed ?? scenario.seed;
    const trials = options.trials ?? scenario.trials;
    const started = performance.now();
    const tally = runTrials(kernel, { seed, trials });
    const seconds = (performance.now() - started) / 1000;
    const report: RunReport = {
      scenario: scenario.name,
      file,
      ruleset: kernel.ruleset,
      engineVersion: kernel.engineVersion,
      mode: scenario.mode,
      seed,
      trials,
      metrics: summarize(tally),
    };
    if (options.json === true) reports.push(report);
    else io.stdout(`${index > 0 ? '\n' : ''}${formatRunReport(report)}`);
    // Timings vary from run to run: stderr only, so stdout stays byte-identical.
    if (timing) {
      const rate = seconds > 0 ? groupThousands(Math.round(trials / seconds)) : '∞';
      io.stderr(`${file}: ${groupThousands(trials)} trials in ${seconds.toFixed(2)} s (${rate} trials/s)\n`);
    }
  }
  if (options.json === true) {
    const documents = reports.map(runReportJson);
    io.stdout(`${JSON.stringify(documents.length === 1 ? documents[0] : documents, null, 2)}\n`);
  }
  return EXIT_OK;
}
