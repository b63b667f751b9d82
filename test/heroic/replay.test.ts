import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../helpers/capture.js';
import { type Dice, RecordingDice, ScriptedDice, StreamDice, streamGenerator } from '../../engine/dice/index.js';
import { compileHeroic, compileScenario, type Scenario, scenarioSchema, type Unit } from '../../engine/heroic/index.js';
import { HeroicKernel } from '../../engine/heroic/kernel.js';
import { formatHeroicTrace, type HeroicTraceEvent } from '../../engine/heroic/trace.js';
import { validateHeroic } from '../../engine/heroic/validate.js';
import { replayTrial, shardGenerator } from '../../sim/replay.js';
import { runTrials, SHARD_TRIALS } from '../../sim/run.js';
import { loadHeroicScenarioFile } from '../helpers/heroic-scenario.js';
import { engagementScenario, type GroupInput, model, type OptionsInput, weapon } from './scenarios.js';
import { REPOSITORY } from '../helpers/repository.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';
import { runRowsByShard } from '../helpers/run-rows-by-shard.js';

/**
 * `crucible replay`: a replayed trial is the run's trial (same row), its trace reports exactly the
 * dice the kernel drew, and tracing changes nothing.
 */

const UNITS: readonly Unit[] = [
  model('knight', { def: 4, shield: true, might: 2, will: 4, weapons: [{ name: 'spear', type: 'melee', atk: 2, indirect: true }] }),
  model('ogre', { def: 3, shield: true, might: 4, will: 4, regenerates: true, weapons: [weapon('melee', 4)] }),
  model('goblin', { def: 3, might: 1, will: 3, weapons: [weapon('melee', 1)] }),
  model('boss', { heroic: true, def: 4, might: 3, will: 2, weapons: [weapon('melee', 3)] }),
  model('skeleton', { def: 3, might: 1, will: 6, immune: ['Poison'], weapons: [weapon('melee', 1)] }),
  model('vesdra', { heroic: true, def: 4, might: 4, will: 6, weapons: [weapon('aoe', 2, ['Fire']), weapon('ranged', 2, ['Poison'])] }),
  model('draugr', { def: 4, might: 2, will: 5, resist: ['Frost'], weak: ['Fire'], weapons: [weapon('melee', 2)] }),
  model('archer', { def: 4, might: 1, will: 4, weapons: [weapon('ranged', 2, ['Fire']), weapon('ranged', 1, ['Frost'])] }),
  model('uldar', { heroic: true, def: 4, might: 5, will: 5, weapons: [weapon('melee', 4)] }),
  model('kobold', { def: 2, might: 1, will: 2, weapons: [weapon('melee', 1)] }),
  model('blackrazor', { def: 5, shield: true, might: 2, will: 5, weapons: [weapon('melee', 2)] }),
  model('gino', { heroic: true, def: 4, might: 5, will: 5, weapons: [weapon('melee', 3)] }),
  model('orc', { def: 4, might: 2, will: 4, weapons: [weapon('melee', 2)] }),
];

function engagement(name: string, rounds: number, first: GroupInput[], second: GroupInput[], options: OptionsInput = {}): Scenario {
  const scenario = engagementScenario(name, rounds, first, second, options);
  const issues = validateHeroic(scenario, UNITS);
  if (issues.length > 0) throw new Error(`${name}: ${JSON.stringify(issues)}`);
  return scenario;
}

/** Like the bundled scenarios, between them reaching every step the kernel traces. */
const SCENARIOS: readonly Scenario[] = [
  engagement(
    'knights vs regenerating ogre',
    20,
    [{ id: 'ogre', unit: 'ogre', models: 1 }],
    [{ id: 'knights', unit: 'knight', models: 3, formation: true }],
  ),
  engagement(
    'charges at a formation',
    6,
    [
      { id: 'boss', unit: 'boss', models: 1, charging: true },
      { id: 'goblins', unit: 'goblin', models: 3, charging: true },
    ],
    [{ id: 'knights', unit: 'knight', models: 4, formation: true }],
  ),
  engagement(
    'fire cannon, allies in the area',
    4,
    [
      {
        id: 'vesdra',
        unit: 'vesdra',
        models: 1,
        area: [
          { group: 'skeletons', models: 4 },
          { group: 'draugr', models: 1 },
        ],
      },
      { id: 'draugr', unit: 'draugr', models: 2 },
    ],
    [{ id: 'skeletons', unit: 'skeleton', models: 6, formation: true }],
  ),
  engagement(
    'uldar splits',
    5,
    [
      {
        id: 'uldar',
        unit: 'uldar',
        models: 1,
        split: [
          { target: 'kobold', dice: 1 },
          { target: 'ogre', dice: 3 },
        ],
      },
    ],
    [
      { id: 'kobold', unit: 'kobold', models: 1 },
      { id: 'ogre', unit: 'ogre', models: 1 },
    ],
  ),
  engagement(
    'fire archers, optioned rulings',
    6,
    [
      { id: 'archers', unit: 'archer', models: 4, formation: true, target: 'draugr' },
      { id: 'frost', unit: 'archer', models: 3, formation: true, weapon: 'ranged-1', target: 'draugr' },
    ],
    [
      { id: 'draugr', unit: 'draugr', models: 4, formation: true },
      { id: 'blackrazors', unit: 'blackrazor', models: 3, formation: true },
    ],
    {
      formationWeakness: 'per-successful-figure',
      shieldRolls: 'allocated-models',
      order: 'shield-then-weakness',
      allocation: 'least-damaged',
    },
  ),
  engagement(
    'brew and a combined formation',
    8,
    [
      { id: 'gino', unit: 'gino', models: 1, heal: { wounds: 2 } },
      { id: 'poisoner', unit: 'vesdra', models: 1, weapon: 'ranged-2', target: 'skeletons' },
    ],
    [
      { id: 'orcs', unit: 'orc', models: 4, formation: true, cards: [3, 1], exhausted: true },
      { id: 'skeletons', unit: 'skeleton', models: 2 },
    ],
  ),
];

const SEED = 2024;
const heroicKernel = (scenario: Scenario): HeroicKernel => new HeroicKernel(compileScenario(scenario, UNITS, 'dice'));

/** Trial T's row as runTrials tallies it: the tally of T + 1 trials minus the tally of T. */
function runTrialsRow(kernel: HeroicKernel, seed: number, trial: number): number[] {
  const before = runTrials(kernel, { seed, trials: trial });
  const after = runTrials(kernel, { seed, trials: trial + 1 });
  return after.counts.map((histogram, m) => histogram.findIndex((count, value) => count - (before.counts[m]?.[value] ?? 0) === 1));
}

describe('replayTrial reproduces the run', () => {
  const trials = [0, 1, 7, 4095, SHARD_TRIALS - 1, SHARD_TRIALS, SHARD_TRIALS + 3];
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))("%s: the replayed row is the run's row", (_name, scenario) => {
    const kernel = heroicKernel(scenario);
    const rows = runRowsByShard(kernel, SEED, trials);
    for (const trial of trials) {
      const replay = replayTrial(kernel, SEED, trial);
      expect(Array.from(replay.row), `trial ${trial}`).toEqual(Array.from(rows.get(trial) ?? []));
      expect(replay.events.at(-1)?.type).toBe('end');
    }
  });

  it('equals what runTrials tallies for that trial, across a shard boundary', () => {
    for (const scenario of SCENARIOS.slice(0, 3)) {
      const kernel = heroicKernel(scenario);
      for (const trial of [0, 5, SHARD_TRIALS])
        expect(Array.from(replayTrial(kernel, 9, trial).row)).toEqual(runTrialsRow(kernel, 9, trial));
    }
  });

  it('through the generic Kernel that compileHeroic returns, too', () => {
    const scenario = SCENARIOS[0] as Scenario;
    const replay = replayTrial(compileHeroic(scenario, UNITS, 'dice'), SEED, 12);
    expect(Array.from(replay.row)).toEqual(Array.from(replayTrial(heroicKernel(scenario), SEED, 12).row));
    expect(replay.events.length).toBeGreaterThan(2);
  });

  it('a far shard is jumped to in a few steps, to the same stream as jump after jump', () => {
    for (const seed of [0, 1, 4294967295]) {
      for (const shard of [1025, 1500, 4096])
        expect(shardGenerator(seed, shard).getState()).toEqual(streamGenerator(seed, shard).getState());
    }
    // CPU time, not the clock (test/helpers/cpu-time.ts): a walk shard by shard would take days.
    const started = cpuMilliseconds();
    const replay = replayTrial(heroicKernel(SCENARIOS[0] as Scenario), SEED, 1e15 - 1);
    expect(replay.shard).toBe(Math.floor((1e15 - 1) / SHARD_TRIALS));
    expect(cpuMilliseconds() - started).toBeLessThan(10_000);
  });

  it('rejects a trial that is not a whole number from 0 to 1e15 − 1', () => {
    const kernel = heroicKernel(SCENARIOS[0] as Scenario);
    for (const trial of [-1, 0.5, 1e15, Number.NaN]) expect(() => replayTrial(kernel, SEED, trial)).toThrow(RangeError);
  });
});

/** Every face a trace reports, in the order it reports them. */
function reportedFaces(events: readonly HeroicTraceEvent[]): number[] {
  return events.flatMap((event) =>
    event.type === 'attack' || event.type === 'shield' ? [...event.faces] : event.type === 'willTest' ? [event.roll] : [],
  );
}

function tracedTrial(kernel: HeroicKernel, dice: Dice): { events: HeroicTraceEvent[]; row: Int32Array } {
  const events: HeroicTraceEvent[] = [];
  const row = new Int32Array(kernel.metrics.length);
  kernel.setTrace({ event: (event) => events.push(event) });
  kernel.trial(dice, row);
  kernel.setTrace(null);
  return { events, row };
}

describe('the trace reports exactly the dice the kernel draws', () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    '%s: 300 trials, scripted with the faces a run drew',
    (_name, scenario) => {
      const kernel = heroicKernel(scenario);
      const stream = new StreamDice(streamGenerator(SEED, 0));
      const untracedRow = new Int32Array(kernel.metrics.length);
      for (let t = 0; t < 300; t++) {
        // The recorder the tracer itself reads through: every face, packed pools unpacked die by die.
        const log = new RecordingDice(stream);
        kernel.trial(log, untracedRow);
        const faces = log.take();
        const script = new ScriptedDice(faces);
        const { events, row } = tracedTrial(kernel, script);
        expect(reportedFaces(events)).toEqual(faces);
        expect(script.remaining).toBe(0);
        expect(Array.from(row)).toEqual(Array.from(untracedRow));
      }
    },
  );

  it('a formation attack reports its scripted ATK faces, then the Shield die', () => {
    const scenario = scenarioSchema.parse({
      ruleset: 'heroic',
      name: 'knights strike',
      mode: 'attack',
      sides: [
        { name: 'Knights', groups: [{ id: 'knights', unit: 'knight', models: 3, formation: true }] },
        { name: 'Ogre', groups: [{ id: 'ogre', unit: 'ogre', models: 1 }] },
      ],
    });
    const { events } = tracedTrial(heroicKernel(scenario), new ScriptedDice([6, 4, 2, 3, 5, 1, 5]));
    const attack = events.find((event) => event.type === 'attack');
    expect(attack).toMatchObject({ kind: 'formation', figures: 3, faces: [6, 4, 2, 3, 5, 1], def: 3, wounds: 5 });
    expect(formatHeroicTrace(events)).toEqual([
      'round 1',
      '  knights (knight, formation of 3) activates',
      '    knights (3 figures) attack ogre: 6 dice [6 4 2 3 5 1] vs DEF 3 → 5 Wounds',
      '      Shield: 1 die [5] saves 1 → 4 Wounds',
      '      ogre #1 takes 4 Wounds (4/4) — vanquished',
      'outcome: Knights won in round 1 (every enemy model vanquished; models left 3 vs 0)',
    ]);
  });
});

describe('every kind of step shows up in the traces', () => {
  it('over 2,000 trials of the scenarios', () => {
    const seen = new Set<string>();
    for (const scenario of SCENARIOS) {
      const kernel = heroicKernel(scenario);
      const stream = new StreamDice(streamGenerator(SEED, 1));
      for (let t = 0; t < 2000; t++) {
        for (const event of tracedTrial(kernel, stream).events) {
          seen.add(event.type);
          if (event.type === 'attack') {
            seen.add(`attack:${event.kind}`);
            if (event.invulnerable) seen.add('invulnerable');
            if (event.redirected > 0) seen.add('redirected');
            if (event.figureWounds.length > 0) seen.add('figureWounds');
          }
          if (event.type === 'shield') seen.add(event.model === null ? 'shield:pool' : 'shield:model');
          if (event.type === 'willTest' && event.torment) seen.add('torment');
          if (event.type === 'wound' && event.lost > 0) seen.add('lost');
        }
      }
    }
    const types: HeroicTraceEvent['type'][] = [
      'round',
      'activation',
      'exhausted',
      'regeneration',
      'willTest',
      'attack',
      'weakness',
      'shield',
      'resistance',
      'wound',
    ];
    types.push('formationBroken', 'heal', 'end');
    const details = [
      'torment',
      'attack:formation',
      'attack:single',
      'attack:split',
      'attack:aoe',
      'invulnerable',
      'redirected',
      'figureWounds',
    ];
    const expected = [...types, ...details, 'shield:pool', 'shield:model', 'lost'];
    expect([...seen].sort()).toEqual(expected.sort());
  });
});

describe('tracing changes no result', () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    '%s: the same tally over 10,000 trials with and without a sink',
    (_name, scenario) => {
      const kernel = heroicKernel(scenario);
      const plain = runTrials(kernel, { seed: SEED, trials: 10_000 });
      let events = 0;
      kernel.setTrace({ event: () => events++ });
      const traced = runTrials(kernel, { seed: SEED, trials: 10_000 });
      kernel.setTrace(null);
      expect(events).toBeGreaterThan(10_000);
      expect(Array.from(traced.cells)).toEqual(Array.from(plain.cells));
    },
  );
});

const repository = REPOSITORY;
const BUNDLED = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';

const inProcess = (...args: string[]): Promise<CliRun> => runCli(args);

describe('crucible replay', () => {
  it('prints the header, the rounds, the outcome and every metric', async () => {
    const result = await inProcess('replay', BUNDLED, '--trial', '3');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    for (const text of [
      'seed     1',
      'trial    3',
      'engine heroic-',
      'round 1\n',
      '  ogre (',
      ' attacks knights: ',
      'outcome: ',
      'metrics [their names for --metric and --json]\n',
      'Formation knights fell below 3 models  [knights.formationBroken]',
    ]) {
      expect(result.stdout).toContain(text);
    }
  });

  it('a bad --trial is exit 2 with a clear message and no stack trace', async () => {
    const result = await inProcess('replay', BUNDLED, '--trial', '-1');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('The trial must be a whole number from 0');
    expect(result.stderr).not.toMatch(/^ {4}at /m);
  });

  it("--json: the events and the metrics of the run's trial", async () => {
    const result = await inProcess('replay', BUNDLED, '--seed', '5', '--trial', '65_537', '--json');
    expect(result.status).toBe(0);
    const document = JSON.parse(result.stdout) as {
      seed: number;
      trial: number;
      events: HeroicTraceEvent[];
      metrics: Record<string, number>;
    };
    expect(document).toMatchObject({ seed: 5, trial: 65537 });
    const { scenario, units } = await loadHeroicScenarioFile(path.join(repository, BUNDLED));
    // A run's default method draws each pool whole (tables): the replay's row is that run's row.
    const kernel = new HeroicKernel(compileScenario(scenario, units, 'tables'));
    const expected = runTrialsRow(kernel, 5, 65537);
    expect(kernel.metrics.map((metric) => document.metrics[metric.name])).toEqual(expected);
    expect(document.events.filter((event) => event.type === 'round')).toHaveLength(document.metrics.rounds ?? -1);
    expect(document.events.at(-1)?.type).toBe('end');
  });

  it('--method mc-dice replays a run that rolled every die, faces and all', async () => {
    const result = await inProcess('replay', BUNDLED, '--seed', '5', '--trial', '65_537', '--json', '--method', 'mc-dice');
    expect(result.status).toBe(0);
    const document = JSON.parse(result.stdout) as { method: string; events: HeroicTraceEvent[]; metrics: Record<string, number> };
    expect(document.method).toBe('mc-dice');
    const { scenario, units } = await loadHeroicScenarioFile(path.join(repository, BUNDLED));
    const kernel = new HeroicKernel(compileScenario(scenario, units, 'dice'));
    expect(kernel.metrics.map((metric) => document.metrics[metric.name])).toEqual(runTrialsRow(kernel, 5, 65537));
    for (const event of document.events) if (event.type === 'attack') expect(event.faces).toHaveLength(event.dice);
  });

  it('bad input: a fractional or too large trial, a seed out of range, a units file — exit 2', async () => {
    for (const args of [
      ['--trial', '1.5'],
      ['--trial', '1e15'],
      ['--trial', 'three'],
      ['--seed', '-3'],
    ]) {
      const result = await inProcess('replay', BUNDLED, ...args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/must be a whole number/);
    }
    const units = await inProcess('replay', 'data/heroic/units.yaml');
    expect(units.status).toBe(2);
    expect(units.stderr).toContain('this is a units file');
  });
});
