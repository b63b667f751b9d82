import path from 'node:path';
import type { Dice } from '../engine/dice/dice.js';
import { streamDice } from '../engine/dice/index.js';
import type { OutcomeTable } from '../engine/dice/outcome-table.js';
import type { DrawMethod, Kernel, MetricSpec } from '../engine/kernel.js';
import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import { loadScenarioFile } from '../input/scenario-file.js';
import { compileBattleforge } from '../engine/battleforge/index.js';
import { battleforgeBenchProfiles, battleforgeBenchScenario } from '../test/battleforge/bench-scenario.js';
import { compileBenchScenario } from '../test/heroic/bench-scenarios.js';
import { compileWarmasterBench } from '../test/warmaster/bench-scenario.js';

/** What the profile workers share (bench/profile-worker.ts): the kernels they time, and their dice replayed alone. */

export type ProfiledKernel = 'pooled' | 'engagement' | 'warmaster' | 'battleforge' | 'epic';

/** The Epic bench kernel is a bundled scenario. */
const EPIC_BENCH_FILE = 'data/epic/scenarios/marines-vs-orks-under-fire.yaml';

/** A bench kernel, or a bundled scenario `file` (relative to the repository), compiled by `method`. */
export async function kernelOf(kernel: ProfiledKernel | 'scenario', method: DrawMethod, file?: string): Promise<Kernel> {
  switch (kernel) {
    case 'pooled':
    case 'engagement':
      return compileBenchScenario(kernel, method);
    case 'warmaster':
      return compileWarmasterBench(method);
    case 'battleforge':
      return compileBattleforge(battleforgeBenchScenario, battleforgeBenchProfiles, new Map(), method);
    case 'epic':
    case 'scenario': {
      const loaded = await loadScenarioFile(path.join(import.meta.dirname, '..', kernel === 'epic' ? EPIC_BENCH_FILE : (file ?? '')));
      return compileSpec(kernelSpecOf(loaded, method));
    }
  }
}

const D6 = 0;
const D10 = 1;
const D6_PACKED = 2;
const D10_PACKED = 3;
const CHANCE = 4;
const PICK = 5;

/** Passes every call to the real dice and keeps it (kind, argument, table), to be replayed alone. */
class CallRecorder implements Dice {
  readonly kinds: number[] = [];
  readonly args: number[] = [];
  readonly tables: (OutcomeTable | undefined)[] = [];
  constructor(private readonly inner: Dice) {}
  private keep(kind: number, arg: number, table?: OutcomeTable): void {
    this.kinds.push(kind);
    this.args.push(arg);
    this.tables.push(table);
  }
  d6(): number {
    this.keep(D6, 0);
    return this.inner.d6();
  }
  d10(): number {
    this.keep(D10, 0);
    return this.inner.d10();
  }
  d6Packed(n: number): number {
    this.keep(D6_PACKED, n);
    return this.inner.d6Packed(n);
  }
  d10Packed(n: number): number {
    this.keep(D10_PACKED, n);
    return this.inner.d10Packed(n);
  }
  chance(probability: number): boolean {
    this.keep(CHANCE, probability);
    return this.inner.chance(probability);
  }
  pick(table: OutcomeTable): number {
    this.keep(PICK, 0, table);
    return this.inner.pick(table);
  }
}

/**
 * The exact calls `trials` trials of `kernel` made on their dice (d6, packed pools, chance, pick with
 * its tables), to replay alone on fresh stream dice: what drawing costs those trials (the replay's
 * switch adds a few ns per call).
 */
export class RecordedDice {
  private readonly kinds: Uint8Array;
  private readonly args: Float64Array;
  private readonly tables: readonly (OutcomeTable | undefined)[];
  private readonly dice = streamDice(13);
  sink = 0;

  constructor(
    kernel: Kernel,
    readonly trials: number,
  ) {
    const recorder = new CallRecorder(streamDice(11));
    const row = new Int32Array(kernel.metrics.length);
    for (let t = 0; t < trials; t++) kernel.trial(recorder, row);
    this.kinds = Uint8Array.from(recorder.kinds);
    this.args = Float64Array.from(recorder.args);
    this.tables = recorder.tables;
  }

  get callsPerTrial(): number {
    return this.kinds.length / this.trials;
  }

  /** Every recorded call once: `trials` trials' worth of drawing. */
  replay(): void {
    const { kinds, args, tables, dice } = this;
    let sink = this.sink;
    for (let c = 0; c < kinds.length; c++) {
      switch (kinds[c]) {
        case D6:
          sink += dice.d6();
          break;
        case D10:
          sink += dice.d10();
          break;
        case D6_PACKED:
          sink += dice.d6Packed(args[c] as number);
          break;
        case D10_PACKED:
          sink += dice.d10Packed(args[c] as number);
          break;
        case CHANCE:
          sink += dice.chance(args[c] as number) ? 1 : 0;
          break;
        default:
          sink += dice.pick(tables[c] as OutcomeTable);
      }
    }
    this.sink = sink;
  }
}

/** Rows a kernel wrote (4,096 trials), replayed trial after trial: a tally timed on real values and branches. */
export class RowReplay implements Kernel {
  static readonly ROWS = 4096;
  readonly ruleset = 'replay';
  readonly engineVersion = 'replay';
  readonly metrics: readonly MetricSpec[];
  private readonly rows: Int32Array;
  private next = 0;

  constructor(kernel: Kernel, dice: Dice) {
    this.metrics = kernel.metrics;
    const row = new Int32Array(kernel.metrics.length);
    this.rows = new Int32Array(RowReplay.ROWS * row.length);
    for (let r = 0; r < RowReplay.ROWS; r++) {
      kernel.trial(dice, row);
      this.rows.set(row, r * row.length);
    }
  }

  trial(_dice: Dice, row: Int32Array): void {
    const width = row.length;
    const start = this.next * width;
    for (let m = 0; m < width; m++) row[m] = this.rows[start + m] as number;
    this.next = (this.next + 1) & (RowReplay.ROWS - 1);
  }
}
