import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Dice, streamDice } from '../../engine/dice/index.js';
import type { DrawMethod, Kernel, MetricSpec } from '../../engine/kernel.js';
import type { ExactDistributions } from '../../sim/exact.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { replayTrial } from '../../sim/replay.js';
import { runTrials } from '../../sim/run.js';
import type { LoadedScenario } from '../../input/scenario-file.js';
import { chiSquareCritical, chiSquareFit } from '../helpers/chi-square.js';
import { chiSquareFitPower, shiftBetweenLikeliest } from '../helpers/power.js';
import { expectFitsExact } from '../helpers/enumeration.js';
import {
  broken,
  determinismProblems,
  exactProblems,
  informative,
  rangeProblems,
  rowDifference,
  runRows,
  runRowsAsWritten,
  specProblems,
  traceProblems,
} from '../helpers/kernel-checks.js';
import { BUILT_IN_EXAMPLES, loadExample } from '../helpers/examples.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * The kernel contract (engine/kernel.ts), one property suite run against every rule system's
 * kernel, the way pure-rand runs one shared suite against every generator:
 *
 *   1. every metric is written on every trial, as an integer in 0..max (both draw methods);
 *   2. the same dice give the same rows, trial for trial (same instance, a fresh one, and each
 *      trial on its own reseeded dice in any order — no state carried between trials);
 *   3. a traced trial draws exactly the random numbers of an untraced one and writes the same row
 *      (kernels with `setTrace`); a kernel without it is named as such, and replays untraced;
 *   4. exact enumeration's probabilities sum to 1 within its reported error bound, every metric;
 *   5. `mc` (tables), `mc-dice` (dice) and `exact` agree: a χ² fit of each Monte Carlo histogram
 *      to the exact distribution, every metric, at α = 1e-6.
 *
 * Each check is a function returning what it found wrong, and "the checks can fail" feeds each
 * one a deliberately broken kernel (a max off by one, a metric left unwritten, state kept between
 * trials, a traced extra draw, a path writing max + 1, a distribution shifted by 2·SHIFT) to show
 * it would catch it. Seeds are fixed (the project's 20261122), chosen before any result was seen.
 *
 * Every rule system engine/registry.ts lists is checked, on the action and the engagement its
 * folder's examples.ts names (`contract`: engine/rule-system-examples.ts); its kernel is built
 * through sim/kernel-spec.ts, as `crucible run` builds it.
 */

const SEED = 20261122;
const METHODS = ['tables', 'dice'] as const satisfies readonly DrawMethod[];
/** What `crucible run --method` calls each draw method. */
const METHOD_NAMES: Readonly<Record<DrawMethod, string>> = { tables: 'mc', dice: 'mc-dice' };
const SHAPES = ['action', 'chain'] as const;
/** Trials for properties 1–3 (rows are kept and compared one by one). */
const CONTRACT_TRIALS = 1000;

/**
 * Property 5's test and why it has power. Pearson's χ² (helpers/chi-square.ts `chiSquareFit`, bins
 * pooled to ≥ 5 expected) at α = 1e-6: the critical value is 23.9 on 1 df, 30.7 on 3, 40.5 on 7.
 * With N trials and the truth off by δ between two values of probabilities p₁, p₂, the statistic is
 * noncentral χ² with λ ≈ N·δ²·(1/p₁ + 1/p₂): at N = 40,000 and δ = SHIFT = 0.02, λ ≥ 64 (the worst
 * case, p₁ = p₂ = ½, on 1 df), which exceeds 23.9 with probability 0.999; a metric of more values
 * has more df but smaller p's, and λ grows faster than the critical value. The test asserts, for
 * every metric with two or more values above 1%, a power of at least 0.9 against SHIFT moved
 * between its two likeliest values (helpers/power.ts, the noncentral χ² tail): on these
 * four actions the least power is 0.998 (Warmaster A.standsLost, λ 70 on 3 df), and the smallest
 * shift seen with power 0.9 is 0.016 at worst — so tables, dice and exact disagreeing by two
 * percentage points on any outcome fails here. And the very histogram that fits the exact
 * distribution must reject it shifted by 2·SHIFT: the rejection is seen, not only computed.
 */
const ALPHA = 1e-6;
const FIT_TRIALS = 40_000;
const SHIFT = 0.02;
const MIN_POWER = 0.9;

// ——— the suite ———

type Shape = (typeof SHAPES)[number];

interface Fixture {
  readonly loaded: Readonly<Record<Shape, LoadedScenario>>;
  /** One kernel per scenario and method, shared by the tests (building a Warmaster kernel with its strike tables costs tens of ms). */
  kernel(shape: Shape, method: DrawMethod): Kernel;
  /** A kernel built now, for the checks that need a second, unused instance. */
  fresh(shape: Shape, method: DrawMethod): Kernel;
  /** The action's exact distributions (property 4 computes them; 5 and the broken-kernel checks reuse them). */
  exact?: ExactDistributions | undefined;
}

it('covers every rule system engine/registry.ts lists (a plugin runs the same checks: test/examples)', () => {
  expect(BUILT_IN_EXAMPLES.map((found) => found.system.id)).toEqual(RULE_SYSTEMS.map((system) => system.id));
});

describe.each(BUILT_IN_EXAMPLES.map((found) => ({ ...found, ruleset: found.system.id })))('kernel contract: $ruleset', (system) => {
  const { traces } = system.examples.contract;
  const fixture = {} as Fixture;
  const exactOf = (): ExactDistributions => {
    if (fixture.exact === undefined) fixture.exact = exactProblems(fixture.kernel('action', 'tables')).exact;
    if (fixture.exact === undefined) throw new Error(`${system.ruleset}: the action does not enumerate`);
    return fixture.exact;
  };

  beforeAll(async () => {
    const { action: actionExample, chain: chainExample } = system.examples.contract;
    const [action, chain] = await Promise.all([loadExample(system, actionExample), loadExample(system, chainExample)]);
    const kernels = new Map<string, Kernel>();
    const fresh = (shape: Shape, method: DrawMethod): Kernel => compileSpec(kernelSpecOf(fixture.loaded[shape], method));
    const kernel = (shape: Shape, method: DrawMethod): Kernel => {
      const key = `${shape} ${method}`;
      const built = kernels.get(key) ?? fresh(shape, method);
      kernels.set(key, built);
      return built;
    };
    Object.assign(fixture, { loaded: { action, chain }, kernel, fresh });
    expect(action.system.id).toBe(system.ruleset);
    expect(chain.system.id).toBe(system.ruleset);
  });

  const combinations = SHAPES.flatMap((shape) => METHODS.map((method) => ({ shape, method })));

  it.each(combinations)('1. every metric written on every trial, an integer in 0..max ($shape, $method)', ({ shape, method }) => {
    const kernel = fixture.kernel(shape, method);
    expect(kernel.ruleset).toBe(system.ruleset);
    expect(specProblems(kernel.metrics)).toEqual([]);
    const rows = runRows(kernel, streamDice(SEED), CONTRACT_TRIALS);
    expect(rangeProblems(kernel.metrics, rows)).toEqual([]);
    // The same trials into a NaN-filled Float64Array row: the kernel computed exactly what the
    // Int32Array holds (nothing truncated, wrapped or left NaN) and wrote nothing past the row.
    const written = runRowsAsWritten(kernel, streamDice(SEED), CONTRACT_TRIALS);
    expect(written.pastTheEnd, 'trials that wrote past the row').toEqual([]);
    expect(rowDifference(kernel.metrics, written.rows, rows)).toBeUndefined();
    // Not vacuous: the dice matter (some metric takes two values or more over the run).
    const width = kernel.metrics.length;
    const varies = kernel.metrics.some((_, m) => rows.some((value, cell) => cell % width === m && value !== rows[m]));
    expect(varies, 'every metric constant over the run').toBe(true);
  });

  it.each(combinations)('2. the same seed gives the same rows, trial for trial ($shape, $method)', ({ shape, method }) => {
    const kernel = fixture.kernel(shape, method);
    expect(determinismProblems(kernel, () => fixture.fresh(shape, method), SEED, CONTRACT_TRIALS)).toEqual([]);
    // Not vacuous: another seed gives other rows.
    expect(rowDifference(kernel.metrics, runRows(kernel, streamDice(SEED + 1), 100), runRows(kernel, streamDice(SEED), 100))).toBeDefined();
  });

  if (traces) {
    it.each(combinations)(
      '3. a traced trial draws the same random numbers and writes the same row as untraced ($shape, $method)',
      ({ shape, method }) => {
        expect(typeof fixture.kernel(shape, method).setTrace).toBe('function');
        expect(traceProblems(fixture.kernel(shape, method), fixture.fresh(shape, method), SEED, CONTRACT_TRIALS)).toEqual([]);
      },
    );
  } else {
    it(`3. ${system.ruleset} has no setTrace: the tracing property does not apply (replay runs it untraced, with no events)`, () => {
      for (const shape of SHAPES)
        for (const method of METHODS) expect(fixture.kernel(shape, method).setTrace, `${shape}, ${method}`).toBeUndefined();
    });
  }

  it.each(combinations)(
    '3. replaying trial 37 (sim/replay.ts) writes the row trial 37 of the run wrote ($shape, $method)',
    ({ shape, method }) => {
      const kernel = fixture.kernel(shape, method);
      const trial = 37;
      const run = runRows(kernel, streamDice(SEED), trial + 1);
      const replayed = replayTrial(kernel, SEED, trial);
      expect(Array.from(replayed.row)).toEqual(Array.from(run.subarray(trial * kernel.metrics.length)));
      if (traces) expect(replayed.events.length).toBeGreaterThan(0);
      else expect(replayed.events).toEqual([]);
    },
  );

  it('4. exact probabilities of the action sum to 1 within the reported error bound, every metric', () => {
    const { problems, exact } = exactProblems(fixture.kernel('action', 'tables'));
    expect(problems).toEqual([]);
    fixture.exact = exact;
    // The bound means something: far below any probability a test reads.
    expect(exact?.errorBound).toBeLessThan(1e-9);
    expect(exact?.paths).toBeGreaterThan(1);
  });

  it.each(METHODS.map((method, index) => ({ method, index, name: METHOD_NAMES[method] })))(
    `5. $name ($method) fits exact: χ² at α = ${ALPHA}, ${FIT_TRIALS} trials, power ≥ ${MIN_POWER} against a shift of ${SHIFT}`,
    ({ method, index }) => {
      const exact = exactOf();
      const kernel = fixture.kernel('action', method);
      const tally = runTrials(kernel, { seed: SEED + index, trials: FIT_TRIALS });
      let checked = 0;
      kernel.metrics.forEach((metric, m) => {
        const distribution = exact.probabilities[m] as Float64Array;
        const histogram = tally.histogram(metric.name);
        expectFitsExact(`${system.ruleset} ${metric.name} (${method})`, histogram, distribution, FIT_TRIALS, ALPHA);
        if (!informative(distribution)) return;
        checked++;
        // Power: the test would see SHIFT moved between the metric's two likeliest values…
        const { power, lambda, df } = chiSquareFitPower(distribution, shiftBetweenLikeliest(distribution, SHIFT), FIT_TRIALS, ALPHA);
        expect(power, `${metric.name}: power ${power} (λ ${lambda.toFixed(1)}, ${df} df)`).toBeGreaterThanOrEqual(MIN_POWER);
        // …and does see twice that, on this very histogram.
        const fit = chiSquareFit(histogram, shiftBetweenLikeliest(distribution, 2 * SHIFT), FIT_TRIALS);
        expect(fit.statistic, `${metric.name}: a distribution off by ${2 * SHIFT} not rejected`).toBeGreaterThan(
          chiSquareCritical(ALPHA, fit.df),
        );
      });
      expect(checked, 'no metric of the action has two values above 1%').toBeGreaterThan(0);
    },
  );

  describe('the checks can fail: each catches a deliberately broken kernel', () => {
    it('1: a max one too small, a metric left unwritten, a value computed as a fraction', () => {
      const kernel = fixture.kernel('action', 'tables');
      const rows = runRows(kernel, streamDice(SEED), CONTRACT_TRIALS);
      // The metric with the largest value seen, its max lowered to one below that value.
      const width = kernel.metrics.length;
      const seen = kernel.metrics.map((_, m) => rows.reduce((most, value, cell) => (cell % width === m ? Math.max(most, value) : most), 0));
      const top = seen.indexOf(Math.max(...seen));
      const lowered = kernel.metrics.map((metric, m) => (m === top ? { ...metric, max: (seen[m] as number) - 1 } : metric));
      expect(rangeProblems(lowered, rows)).not.toEqual([]);
      // The last metric never written.
      const forgetful = broken(kernel, {
        trial: (dice, row) => {
          const full = new Int32Array(width);
          kernel.trial(dice, full);
          row.set(full.subarray(0, width - 1));
        },
      });
      expect(rangeProblems(kernel.metrics, runRows(forgetful, streamDice(SEED), 10))).not.toEqual([]);
      // A half written into the row: an Int32Array hides it, the as-written run does not.
      const halving = broken(kernel, {
        trial: (dice, row) => {
          kernel.trial(dice, row);
          row[0] = (row[0] as number) + 0.5;
        },
      });
      expect(rangeProblems(kernel.metrics, runRowsAsWritten(halving, streamDice(SEED), 10).rows)).not.toEqual([]);
    });

    it('2: state kept from one trial to the next', () => {
      const stale = () => {
        const kernel = fixture.fresh('action', 'tables');
        let ran = false;
        // Like a counter the kernel forgot to reset: every trial after the first adds one to metric 0.
        return broken(kernel, {
          trial: (dice, row) => {
            kernel.trial(dice, row);
            if (ran) row[0] = (row[0] as number) + 1;
            ran = true;
          },
        });
      };
      expect(determinismProblems(stale(), stale, SEED, 50)).not.toEqual([]);
    });

    it('3: tracing that draws one die more, or changes the row', () => {
      const tracer = (extra: (dice: Dice, row: Int32Array) => void): Kernel => {
        const kernel = fixture.fresh('action', 'tables');
        let tracing = false;
        return broken(kernel, {
          setTrace: (sink) => {
            kernel.setTrace?.(sink);
            tracing = sink !== null;
          },
          trial: (dice, row) => {
            kernel.trial(dice, row);
            if (tracing) extra(dice, row);
          },
        });
      };
      const honest = tracer(() => {});
      expect(
        traceProblems(fixture.kernel('action', 'tables'), honest, SEED, 20).filter((problem) => !problem.includes('no event')),
      ).toEqual([]);
      expect(
        traceProblems(
          fixture.kernel('action', 'tables'),
          tracer((dice) => dice.d6()),
          SEED,
          20,
        ).join('\n'),
      ).toMatch(/draws, untraced/);
      expect(
        traceProblems(
          fixture.kernel('action', 'tables'),
          tracer((_, row) => {
            row[0] = (row[0] as number) ^ 1;
          }),
          SEED,
          20,
        ).join('\n'),
      ).toMatch(/\(traced\): .* = .*, not /);
    });

    it('4: a path that writes max + 1', () => {
      const kernel = fixture.kernel('action', 'tables');
      const exact = exactOf();
      // The last metric with an uncertain value: that value is written as max + 1 instead. (Not
      // metric 0, whose total sim/exact.ts checks itself: this is the check of the other metrics.)
      const m = exact.probabilities.reduce((last, distribution, index) => (distribution.some((p) => p > 0 && p < 1) ? index : last), -1);
      expect(m).toBeGreaterThan(0);
      const value = (exact.probabilities[m] as Float64Array).findIndex((p) => p > 0 && p < 1);
      const metric = kernel.metrics[m] as MetricSpec;
      const overflowing = broken(kernel, {
        trial: (dice, row) => {
          kernel.trial(dice, row);
          if (row[m] === value) row[m] = metric.max + 1;
        },
      });
      expect(exactProblems(overflowing).problems.join('\n')).toContain(`${metric.name}: probabilities sum to 1 −`);
    });
  });
});
