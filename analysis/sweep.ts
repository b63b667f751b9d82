import { InputError } from '../input/errors.js';
import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import type { TrustedPlugins } from '../input/platform.js';
import { type LoadedScenario, loadScenarioChanged } from '../input/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { type FieldLabel, fieldLabel } from '../input/field-labels.js';
import { type ExactScenarioResult, runScenario, type ScenarioResult, TooManyPathsError } from '../sim/run-scenario.js';
import type { Method, MonteCarloMethod } from '../sim/methods.js';

/**
 * A sweep (`crucible sweep`): the scenario run once for every value of one field, or every pair of
 * values of two (`--set sides[0].groups[0].models=3,4,5`), each run checked like the file itself.
 * Monte Carlo runs share one executor (one worker pool). As for `crucible run`, a point whose trial
 * is a single action is answered exactly under `auto` unless trials or a precision were asked for.
 */
export interface SweepAxis {
  /** A field path, as errors print them: `sides[0].groups[0].models`. */
  readonly path: string;
  readonly values: readonly unknown[];
}

/** An axis with its field in words (input/field-labels.ts). */
export interface LabelledAxis extends SweepAxis {
  readonly field: FieldLabel;
}

export type SweepPoint =
  | { readonly values: readonly unknown[]; readonly method: 'exact'; readonly result: ExactScenarioResult }
  | { readonly values: readonly unknown[]; readonly method: MonteCarloMethod; readonly result: ScenarioResult };

export interface SweepOptions {
  readonly seed?: number;
  readonly trials?: number;
  readonly precision?: number;
  /** As for runScenario (sim/methods.ts): `auto` (the default) answers a point exactly where its trial is a single action and neither trials nor a precision was asked for. */
  readonly method?: Method;
  /** Metric names the caller will report: checked (an unknown one is an InputError) before any point runs. */
  readonly metrics?: readonly string[];
  readonly executor?: ShardExecutor;
  readonly onPoint?: (done: number, total: number) => void;
  /** The plugin modules the scenario may run (input/plugin-trust.ts); none when not given. */
  readonly plugins?: TrustedPlugins;
}

/** Every combination of the axes' values, the first axis varying slowest. */
export function combinations(axes: readonly SweepAxis[]): unknown[][] {
  return axes.reduce<unknown[][]>((done, axis) => done.flatMap((prefix) => axis.values.map((value) => [...prefix, value])), [[]]);
}

/** The axes' fields in words, named from the scenario as written. */
export async function labelAxes(file: string, axes: readonly SweepAxis[], plugins?: TrustedPlugins): Promise<LabelledAxis[]> {
  const loaded = await loadScenarioChanged(file, {}, { plugins });
  return axes.map((axis) => ({ ...axis, field: fieldLabel(loaded, axis.path) }));
}

/** The scenario at one point; a problem it has names the point ("… (at sides[1].groups[0].models = 1)"). */
async function loadPoint(
  file: string,
  axes: readonly SweepAxis[],
  values: readonly unknown[],
  plugins: TrustedPlugins | undefined,
): Promise<LoadedScenario> {
  const fields = axes.map((axis, i) => [axis.path, values[i]] as const);
  try {
    return await loadScenarioChanged(file, { fields }, { plugins });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const at = fields.map(([path, value]) => `${path} = ${JSON.stringify(value)}`).join(', ');
    throw new InputError(error.problems.map((problem) => ({ ...problem, message: `${problem.message} (at ${at})` })));
  }
}

export async function sweep(file: string, axes: readonly SweepAxis[], options: SweepOptions = {}): Promise<SweepPoint[]> {
  const method = options.method ?? 'auto';
  if (method === 'exact' && (options.trials !== undefined || options.precision !== undefined)) {
    throw InputError.at(file, '--method', 'exact enumerates every outcome: --trials and --precision are for Monte Carlo (--method mc)');
  }
  // Every point is loaded and checked, and the metrics asked for found, before any point runs.
  const settled = await Promise.allSettled(
    combinations(axes).map(async (values) => ({ values, loaded: await loadPoint(file, axes, values, options.plugins) })),
  );
  const failed = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (failed.some((reason) => !(reason instanceof InputError))) throw failed.find((reason) => !(reason instanceof InputError));
  if (failed.length > 0) throw new InputError(failed.flatMap((reason) => (reason as InputError).problems));
  const all = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  if (options.metrics !== undefined) {
    const names = all.flatMap(({ loaded }) => compileSpec(kernelSpecOf(loaded)).metrics.map((metric) => metric.name));
    chosenMetrics(file, [...new Set(names)], options.metrics);
  }
  const points: SweepPoint[] = [];
  for (const { values, loaded } of all) {
    const result = await runScenario(loaded, {
      method,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.trials === undefined ? {} : { trials: options.trials }),
      ...(options.precision === undefined ? {} : { precision: options.precision }),
      ...(options.executor === undefined ? {} : { executor: options.executor }),
    }).catch((error: unknown) => {
      if (!(error instanceof TooManyPathsError)) throw error;
      const at = values.map((value) => JSON.stringify(value)).join(', ');
      throw InputError.at(
        loaded.file,
        '--method',
        `at ${at}, a trial of "${loaded.scenario.name}" has too many paths to enumerate (over ${error.budget.paths} paths or ${error.budget.draws} draws); sweep it by Monte Carlo with --method mc`,
      );
    });
    points.push(result.method === 'exact' ? { values, method: result.method, result } : { values, method: result.method, result });
    options.onPoint?.(points.length, all.length);
  }
  return points;
}

/** `asked` (every name, in order, when undefined), checked against `names`: an unknown one is an InputError listing them. */
function chosenMetrics(file: string, names: readonly string[], asked: readonly string[] | undefined): string[] {
  if (asked === undefined) return [...names];
  const unknown = asked.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw InputError.at(
      file,
      '--metric',
      `no metric ${unknown.map((name) => JSON.stringify(name)).join(', ')} in this sweep; its metrics are ${names.join(', ')}`,
    );
  }
  return names.filter((name) => asked.includes(name));
}

/** The metrics the sweep's points report (each once, in order), or those of them `asked` names. */
export function sweptMetrics(file: string, points: readonly SweepPoint[], asked: readonly string[] | undefined): string[] {
  return chosenMetrics(file, [...new Set(points.flatMap((point) => point.result.summary.map((summary) => summary.name)))], asked);
}
