import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { ScriptedDice } from '../../engine/dice/index.js';
import { compileScenario } from '../../engine/warmaster/compile.js';
import { WarmasterKernel } from '../../engine/warmaster/kernel.js';
import type { Scenario } from '../../engine/warmaster/schema.js';
import type { WarmasterTraceEvent } from '../../engine/warmaster/trace.js';
import { replayTrial } from '../../sim/replay.js';
import { runTrials, SHARD_TRIALS } from '../../sim/run.js';
import { armyUnits, faces, warmasterScenario } from './scenarios.js';
import { REPOSITORY } from '../helpers/repository.js';
import { runRowsByShard } from '../helpers/run-rows-by-shard.js';

/** Tracing a Warmaster trial: the same dice and rows as untraced, every step reported, and `crucible replay`. */

const SEED = 20261122;
const repository = REPOSITORY;

const SCENARIOS: readonly Scenario[] = [
  warmasterScenario({
    name: 'knights vs supported orcs',
    sides: [
      { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
      {
        name: 'Orcs',
        units: [
          { id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } },
          { id: 'support', unit: 'orcs/orc-warriors', supports: 3 },
        ],
      },
    ],
  }),
  warmasterScenario({
    name: 'a chain with shooting, blocked retreats, artillery and regeneration',
    options: { shootingCasualties: 'before-combat', casualties: 'keep-fighting', advanceChargeBonus: true },
    sides: [
      {
        name: 'Orcs',
        units: [
          { id: 'trolls', unit: 'orcs/trolls', charging: true, contact: { front: 3 }, retreatBlocked: 0.3 },
          { id: 'lobber', unit: 'orcs/rock-lobber', reserve: { chance: 0.5 }, contact: { front: 1 } },
        ],
      },
      {
        name: 'Empire',
        units: [
          { id: 'crossbows', unit: 'empire/crossbowmen', stands: 2, shootsAtChargers: true, contact: { front: 2 } },
          { id: 'cannon', unit: 'empire/cannon', reserve: { chance: 0.7 }, contact: { front: 2 } },
        ],
      },
    ],
  }),
];

const kernelOf = (scenario: Scenario): WarmasterKernel => new WarmasterKernel(compileScenario(scenario, armyUnits()));

describe('replayTrial reproduces the run', () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    "%s: the replayed row is the run's row, across a shard boundary",
    (_name, scenario) => {
      const kernel = kernelOf(scenario);
      const wanted = [0, 3, SHARD_TRIALS - 1, SHARD_TRIALS, SHARD_TRIALS + 2];
      const rows = runRowsByShard(kernel, SEED, wanted);
      for (const trial of wanted) {
        const replay = replayTrial(kernel, SEED, trial);
        expect(Array.from(replay.row), `trial ${trial}`).toEqual(Array.from(rows.get(trial) ?? []));
        expect(replay.events.at(-1)?.type).toBe('end');
      }
    },
  );

  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    '%s: tracing changes no result over 10,000 trials',
    (_name, scenario) => {
      const kernel = kernelOf(scenario);
      const plain = runTrials(kernel, { seed: SEED, trials: 10_000 });
      const seen = new Set<string>();
      kernel.setTrace({ event: (event) => seen.add(event.type) });
      const traced = runTrials(kernel, { seed: SEED, trials: 10_000 });
      kernel.setTrace(null);
      expect(Array.from(traced.cells)).toEqual(Array.from(plain.cells));
      expect(seen.has('attack')).toBe(true);
    },
  );
});

describe('every kind of step shows up in the traces', () => {
  it('over 5,000 trials of the scenarios', () => {
    const seen = new Set<string>();
    for (const scenario of SCENARIOS) {
      const kernel = kernelOf(scenario);
      kernel.setTrace({
        event: (event: WarmasterTraceEvent) => {
          seen.add(event.type);
          if (event.type === 'retreat' && event.destroyed !== null) seen.add(`retreat:${event.destroyed}`);
          if (event.type === 'casualties' && event.regenerated) seen.add('regenerated');
        },
      });
      runTrials(kernel, { seed: SEED, trials: 5000 });
    }
    const expected = [
      'shooting',
      'round',
      'attack',
      'result',
      'casualties',
      'retreat',
      'pursue',
      'unresolved',
      'fallBack',
      'advance',
      'end',
    ];
    // A winner falling back by policy: the supported orcs' scenario with Empire falling back.
    const fallingBack = kernelOf({
      ...(SCENARIOS[0] as Scenario),
      sides: (SCENARIOS[0] as Scenario).sides.map((side, s) => (s === 0 ? { ...side, policy: 'fall-back' as const } : side)),
    });
    let lastOutcome = '';
    fallingBack.setTrace({
      event: (event: WarmasterTraceEvent) => {
        if (event.type === 'result') lastOutcome = event.outcome;
        if (event.type === 'fallBack' && lastOutcome === 'won by Empire') seen.add('fallBack:winner');
      },
    });
    runTrials(fallingBack, { seed: SEED, trials: 2000 });
    expected.push('fallBack:winner');
    for (const type of [...expected, 'retreat:artillery', 'retreat:blocked', 'regenerated']) expect(seen, type).toContain(type);
  });

  it('an attack event lists its hit faces, then the saves', () => {
    const kernel = kernelOf(SCENARIOS[0] as Scenario);
    const events: WarmasterTraceEvent[] = [];
    kernel.setTrace({ event: (event) => events.push(event) });
    // Knights 12 dice (2 hit), Orc saves 2 dice (none); Orcs 12 dice, all miss; a 2–0 win, Orcs retreat 1 cm
    // (2 − 3 supports: no, the Orcs win 3–2; the Knights cannot be pursued by infantry).
    kernel.trial(new ScriptedDice([6, 6, ...faces(10, 1), 1, 1, ...faces(12, 1)]), new Int32Array(kernel.metrics.length));
    const attack = events.find((event) => event.type === 'attack');
    expect(attack).toMatchObject({
      unit: 'knights',
      target: 'orcs',
      stands: 3,
      perStand: 4,
      dice: 12,
      hitOn: 4,
      saveOn: 6,
      hits: 2,
      taken: 2,
    });
    expect(attack?.type === 'attack' ? attack.faces : []).toEqual([6, 6, ...faces(10, 1), 1, 1]);
    expect(events.find((event) => event.type === 'result')).toMatchObject({ results: [2, 3], supports: [0, 3], outcome: 'won by Orcs' });
  });
});

describe('crucible replay on a Warmaster scenario', () => {
  it('prints the rounds, the outcome and every metric', async () => {
    const { status, stdout, stderr } = await runCli([
      'replay',
      path.join(repository, 'data/warmaster/scenarios/knights-charge-supported-orcs.yaml'),
      '--trial',
      '1',
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    for (const text of [
      'engine warmaster-',
      'round 1 (turn 1',
      'knights, 3 stands front at 4 → orcs: 12 dice hit on 4+',
      'result ',
      'outcome: ',
      'metrics [their names for --metric and --json]\n',
      'When it was destroyed (Orc Warriors)  [orc-support.destroyedInRound]',
    ]) {
      expect(stdout).toContain(text);
    }
  });
});
