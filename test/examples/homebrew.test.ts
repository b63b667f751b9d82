import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedDice, streamDice } from '../../engine/dice/index.js';
import type { DrawMethod, Kernel } from '../../engine/kernel.js';
import { type HomebrewTraceEvent, formatHomebrewTrace } from '../../examples/homebrew/trace.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { replayTrial } from '../../sim/replay.js';
import { runTrials } from '../../sim/run.js';
import { trustPlugins } from '../../input/plugin-trust.js';
import { type LoadedScenario, loadScenarioChanged, loadScenarioFile } from '../../input/scenario-file.js';
import { type CliRun, runCli } from '../helpers/capture.js';
import { expectFitsExact } from '../helpers/enumeration.js';
import { binomialTailAtLeast, binomialTailAtMost } from '../helpers/exact-check.js';
import {
  determinismProblems,
  exactProblems,
  rangeProblems,
  rowDifference,
  runRows,
  runRowsAsWritten,
  specProblems,
  traceProblems,
} from '../helpers/kernel-checks.js';
import { CHECK_Z, trialsToCatch } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';
import { damageOf, mapped, type OracleAttack, type OracleProfile, type OracleRules, unsavedWounds } from './homebrew-oracle.js';

/**
 * The example plugin (examples/homebrew) against its rule text: (a) one attack's exact answer from
 * `crucible run --method exact` equals the independent oracle (homebrew-oracle.ts) within its error
 * bound, and `mc` and `mc-dice` runs agree with it within CHECK_Z standard errors; (d) its kernel
 * keeps the shared kernel contract (helpers/kernel-checks.ts), on one attack and on a fight, with
 * both draw methods; (c) a plugin whose code changed refuses an old checkpoint, naming the plugin;
 * and a worked example on scripted dice, read from its trace. (Every command on the plugin:
 * homebrew-commands.test.ts.)
 */
const SEED = 20261122;
const SEED_TEXT = String(SEED);
const PLUGIN = path.join(REPOSITORY, 'examples', 'homebrew');
/** The example's module, trusted to run as its tutorial says (--plugin; input/plugin-trust.ts). */
const TRUSTED = { plugins: trustPlugins([path.join(PLUGIN, 'index.ts')]) };
/** Catches a 2-point error in any outcome's probability with probability 0.99 (helpers/power.ts). */
const TRIALS = trialsToCatch({ shift: 0.02 });

interface DistributionJson {
  readonly value: number;
  readonly count?: number;
  readonly probability: number;
}
interface MetricJson {
  readonly name: string;
  readonly mean: number;
  readonly standardError: number;
  readonly distribution: readonly DistributionJson[];
}
interface RunJson {
  readonly method: string;
  readonly trials?: number;
  readonly exact?: { readonly paths: number; readonly errorBound: number };
  readonly metrics: readonly MetricJson[];
}

async function runJson(...args: string[]): Promise<RunJson> {
  const result = await runCli(['run', ...args, '--json', '--plugin', path.join(PLUGIN, 'index.ts')]);
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as RunJson;
}

const metricOf = (run: RunJson, name: string): MetricJson => {
  const metric = run.metrics.find((entry) => entry.name === name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  return metric;
};

const profile = (overrides: Partial<OracleProfile>): OracleProfile => ({
  attacks: 2,
  hit: 4,
  wound: 4,
  ap: 0,
  damage: 1,
  rerollHits: 'none',
  rerollWounds: 'none',
  ...overrides,
});
const TEXT_RULES: OracleRules = { criticalFace: 6, criticalEffect: 'auto-wound', extraHits: 1, damageSpills: false };

/** Attacks covering every rule: rerolls of each kind, both critical effects, a critical face below the hit roll, no save, spilling damage. */
const ATTACKS: readonly { readonly label: string; readonly attack: OracleAttack }[] = [
  {
    label: 'the text: 10 × 2 dice, 4+/4+ against 5+, critical 6 wounds',
    attack: { attacker: profile({}), models: 10, defender: { save: 5, wounds: 3, models: 3 }, rules: TEXT_RULES },
  },
  {
    label: 'reroll 1s to hit, AP 1, D 2, criticals on 5+ with 2 extra hits',
    attack: {
      attacker: profile({ hit: 3, ap: 1, damage: 2, rerollHits: 'ones' }),
      models: 6,
      defender: { save: 3, wounds: 3, models: 4 },
      rules: { ...TEXT_RULES, criticalFace: 5, criticalEffect: 'extra-hits', extraHits: 2 },
    },
  },
  {
    // Criticals from 4+ with hits on 5+: every hit is critical, each making 2 hits to wound.
    label: 'reroll misses and wound 1s, criticals (4+) below the hit roll (5+) with an extra hit, damage spills',
    attack: {
      attacker: profile({ attacks: 3, hit: 5, wound: 3, ap: 1, damage: 2, rerollHits: 'failed', rerollWounds: 'ones' }),
      models: 4,
      defender: { save: 5, wounds: 3, models: 5 },
      rules: { ...TEXT_RULES, criticalFace: 4, criticalEffect: 'extra-hits', damageSpills: true },
    },
  },
  {
    label: 'reroll failed wounds, no critical hits',
    attack: {
      attacker: profile({ attacks: 3, hit: 3, wound: 5, rerollWounds: 'failed' }),
      models: 5,
      defender: { save: 4, wounds: 1, models: 12 },
      rules: { ...TEXT_RULES, criticalFace: 7 },
    },
  },
];

/** The attack as a scenario file (JSON): both units defined in its `units:`, so the file says everything. */
function scenarioOf({ attacker, models, defender, rules }: OracleAttack): unknown {
  return {
    ruleset: path.join(PLUGIN, 'index.ts'),
    name: 'oracle attack',
    unitsFile: path.join(PLUGIN, 'units.yaml'),
    units: {
      attacker: { name: 'Attacker', wounds: 1, save: 4, ...attacker },
      defender: { name: 'Defender', wounds: defender.wounds, save: defender.save, attacks: 1, hit: 4, wound: 4 },
    },
    mode: 'attack',
    rules,
    sides: [
      { name: 'A', unit: 'attacker', models },
      { name: 'B', unit: 'defender', models: defender.models },
    ],
  };
}

/** |p̂ − p| within CHECK_Z SEs of p, or, where n·p is too small for the normal approximation, both exact binomial tails above the 4σ level. */
function implausible(count: number, n: number, p: number): boolean {
  if (p === 0) return count > 0;
  if (Math.abs(count / n - p) <= CHECK_Z * Math.sqrt((p * (1 - p)) / n)) return false;
  if (Math.min(n * p, n * (1 - p)) >= 25) return true;
  return binomialTailAtLeast(count, n, p) <= 3.167e-5 || binomialTailAtMost(count, n, p) <= 3.167e-5;
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-homebrew-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('(a) one attack: the oracle, --method exact, mc and mc-dice agree', () => {
  it.each(ATTACKS.map((entry, index) => ({ ...entry, index })))('$label', async ({ attack, index }) => {
    const file = path.join(root, `attack-${index}.json`);
    await writeFile(file, JSON.stringify(scenarioOf(attack)));
    const unsaved = unsavedWounds(attack);
    const expected: Record<string, number[]> = {
      'A.unsavedWounds': unsaved,
      'A.woundsDealt': mapped(unsaved, (k) => damageOf(attack, k).dealt),
      'A.modelsDestroyed': mapped(unsaved, (k) => damageOf(attack, k).destroyed),
    };
    const oracleTotal = unsaved.reduce((sum, p) => sum + p, 0);
    expect(Math.abs(oracleTotal - 1)).toBeLessThan(1e-12);
    expect(unsaved.filter((p) => p > 0.01).length, 'a trivial attack').toBeGreaterThanOrEqual(3);

    const exact = await runJson(file, '--method', 'exact');
    expect(exact.method).toBe('exact');
    // The oracle's own rounding: products and sums of a few hundred terms, far below 1e-12.
    const bound = (exact.exact?.errorBound ?? 0) + 1e-12;
    expect(bound).toBeLessThan(1e-9);
    for (const [name, distribution] of Object.entries(expected)) {
      const metric = metricOf(exact, name);
      const length = Math.max(distribution.length, metric.distribution.length);
      for (let v = 0; v < length; v++) {
        const p = metric.distribution.find((entry) => entry.value === v)?.probability ?? 0;
        expect(Math.abs(p - (distribution[v] ?? 0)), `${name} = ${v}`).toBeLessThanOrEqual(bound);
      }
    }

    for (const method of ['mc', 'mc-dice']) {
      const run = await runJson(file, '--method', method, '--trials', String(TRIALS), '--seed', String(SEED));
      expect(run.trials).toBe(TRIALS);
      for (const [name, distribution] of Object.entries(expected)) {
        const metric = metricOf(run, name);
        const exactMean = distribution.reduce((sum, p, v) => sum + p * v, 0);
        expect(
          Math.abs(metric.mean - exactMean),
          `${method} ${name}: mean ${metric.mean} vs ${exactMean} (SE ${metric.standardError})`,
        ).toBeLessThanOrEqual(CHECK_Z * metric.standardError);
        const off = distribution.flatMap((p, v) => {
          const count = metric.distribution.find((entry) => entry.value === v)?.count ?? 0;
          return implausible(count, TRIALS, p) ? [`${v}: ${count}/${TRIALS} vs p ${p}`] : [];
        });
        expect(off, `${method} ${name}`).toEqual([]);
      }
    }
  });
});

describe('(d) the kernel contract (helpers/kernel-checks.ts)', () => {
  const loaded: Partial<Record<'attack' | 'fight', LoadedScenario>> = {};
  const kernelOf = (shape: 'attack' | 'fight', method: DrawMethod): Kernel =>
    compileSpec(kernelSpecOf(loaded[shape] as LoadedScenario, method));
  const combinations = (['attack', 'fight'] as const).flatMap((shape) =>
    (['tables', 'dice'] as const).map((method) => ({ shape, method })),
  );

  beforeAll(async () => {
    loaded.attack = await loadScenarioFile(path.join(PLUGIN, 'scenarios', 'volley.yaml'), TRUSTED);
    loaded.fight = await loadScenarioFile(path.join(PLUGIN, 'scenarios', 'knights-vs-brutes.yaml'), TRUSTED);
  });

  it.each(combinations)('rows in range, deterministic, traced = untraced, replay = run ($shape, $method)', ({ shape, method }) => {
    const kernel = kernelOf(shape, method);
    expect(kernel.ruleset).toBe('homebrew');
    expect(specProblems(kernel.metrics)).toEqual([]);
    const rows = runRows(kernel, streamDice(SEED), 1000);
    expect(rangeProblems(kernel.metrics, rows)).toEqual([]);
    const written = runRowsAsWritten(kernel, streamDice(SEED), 1000);
    expect(written.pastTheEnd).toEqual([]);
    expect(rowDifference(kernel.metrics, written.rows, rows)).toBeUndefined();
    expect(determinismProblems(kernel, () => kernelOf(shape, method), SEED, 1000)).toEqual([]);
    expect(traceProblems(kernel, kernelOf(shape, method), SEED, 1000)).toEqual([]);
    const replayed = replayTrial(kernel, SEED, 37);
    expect(Array.from(replayed.row)).toEqual(Array.from(rows.subarray(37 * kernel.metrics.length, 38 * kernel.metrics.length)));
    expect(replayed.events.length).toBeGreaterThan(0);
  });

  it('exact enumeration sums to 1 within its bound, and a fight (120,052 paths) is fitted by mc and mc-dice', () => {
    expect(exactProblems(kernelOf('attack', 'tables')).problems).toEqual([]);
    const { problems, exact } = exactProblems(kernelOf('fight', 'tables'));
    expect(problems).toEqual([]);
    if (exact === undefined) throw new Error('the fight does not enumerate');
    for (const [index, method] of (['tables', 'dice'] as const).entries()) {
      const kernel = kernelOf('fight', method);
      const tally = runTrials(kernel, { seed: SEED + index, trials: TRIALS });
      kernel.metrics.forEach((metric, m) =>
        expectFitsExact(
          `${metric.name} (${method})`,
          tally.histogram(metric.name),
          exact.probabilities[m] as Float64Array,
          TRIALS,
          1e-6,
          CHECK_Z,
        ),
      );
    }
  });
});

describe('a worked example on scripted dice (method dice), read from its trace', () => {
  it('two Line Infantry attack one Brute: rerolled 1s, a critical auto-wound, saves, damage', async () => {
    const loaded = await loadScenarioChanged(
      path.join(PLUGIN, 'scenarios', 'volley.yaml'),
      {
        fields: [
          ['sides[0].models', 2],
          ['sides[1].models', 1],
          ['units.line-infantry.rerollHits', 'ones'],
        ],
      },
      TRUSTED,
    );
    const kernel = compileSpec(kernelSpecOf(loaded, 'dice')) as Kernel<HomebrewTraceEvent>;
    // Hit 4+: 1 (rerolled), 6 (critical), 4, 2; the 1 rerolled: 5. Wound 4+ for the two hits: 3, 4.
    // Saves 5+ for the critical's automatic wound and the rolled one: 5 (saved), 2.
    const dice = new ScriptedDice([1, 6, 4, 2, 5, 3, 4, 5, 2]);
    const events: HomebrewTraceEvent[] = [];
    kernel.setTrace?.({ event: (event) => events.push(event) });
    const row = new Int32Array(kernel.metrics.length);
    kernel.trial(dice, row);
    kernel.setTrace?.(null);
    expect(dice.remaining).toBe(0);
    expect(formatHomebrewTrace(events)).toEqual([
      'round 1',
      '  Line Infantry (2 models) attack Brutes: 4 dice',
      '    hit 4+, critical 6+, reroll 1s: 1 6 4 2 | rerolled: 5 → 3 hits (1 critical)',
      '    wound 4+ (2 rolled + 1 automatic): 3 4 → 2 wounds',
      '    save 5+: 5 2 → 1 saved, 1 unsaved',
      '    Brutes: 1 damage from 1 × 1, 0 models destroyed, 1 left, one with 2 wounds left',
      'end after 1 round: no winner',
    ]);
    const named = Object.fromEntries(kernel.metrics.map((metric, m) => [metric.name, row[m]]));
    expect(named).toMatchObject({ winner: 0, rounds: 1, 'A.unsavedWounds': 1, 'A.woundsDealt': 1, 'A.modelsDestroyed': 0 });
  });
});

/** `crucible <args>` in a child process (a plugin's code is loaded once per process: see the test below). */
function spawned(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPOSITORY, 'bin', 'crucible.js'), ...args],
      { cwd: REPOSITORY, env: { ...process.env, CRUCIBLE_DEBUG: '' } },
      (error, stdout, stderr) => {
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

describe('(c) a changed plugin refuses an old checkpoint', () => {
  it('a comment edited in a copy of the plugin: exit 2, naming the plugin and saying its code changed', async () => {
    // The copy sits as a user's own project would: the plugin's folder (its package.json says ES
    // modules), and the engine it imports (../../engine) and the packages (zod) beside it.
    const project = path.join(root, 'project');
    const copy = path.join(project, 'examples', 'homebrew');
    await mkdir(path.dirname(copy), { recursive: true });
    await cp(PLUGIN, copy, { recursive: true });
    await symlink(path.join(REPOSITORY, 'engine'), path.join(project, 'engine'), 'dir');
    await symlink(path.join(REPOSITORY, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    const args = [
      'run',
      path.join(copy, 'scenarios', 'knights-vs-brutes.yaml'),
      '-n',
      '65536',
      '-s',
      SEED_TEXT,
      '-q',
      '--checkpoint',
      path.join(root, 'copy.ckpt'),
      '--plugin',
      path.join(copy, 'index.ts'),
    ];
    const first = await runCli(args);
    expect(first.status, first.stderr).toBe(0);
    const source = path.join(copy, 'odds.ts');
    await writeFile(source, `${await readFile(source, 'utf8')}// a comment edited after the run\n`);
    // A new process, as a person runs it again: this one has the plugin's old code loaded.
    const again = await spawned(args);
    expect(again.status, again.stderr).toBe(2);
    expect(again.stderr).toContain('plugin homebrew homebrew-1.0.0');
    expect(again.stderr).toContain("the plugin's code has changed since");
    expect(again.stdout).toBe('');
  });
});
