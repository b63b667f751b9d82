import type { Dice, OutcomeTable } from '../../engine/dice/index.js';
import type { DrawMethod, Kernel, MetricSpec, TraceSink } from '../../engine/kernel.js';
import type { KernelModule } from '../../engine/rule-system.js';
import { type CompiledScenario, type CompiledSide, compileScenario, CRITICAL, HIT } from './compile.js';
import type { HomebrewRefs } from './load.js';
import type { Scenario } from './schema.js';
import { type HomebrewTraceEvent, HomebrewTracer } from './trace.js';

/**
 * The homebrew kernel: one trial is one attack (mode `attack`) or a fight of alternating attacks
 * (mode `fight`). This file and what it imports load no zod: worker threads import only it
 * (`kernelModule` in index.ts). Nothing is allocated per trial: the state is two Int32Arrays reset
 * at the start, dice are counted rather than stored, and the tracer exists only while tracing.
 */

export const HOMEBREW_ENGINE_VERSION = 'homebrew-1.0.0';

/** Row positions: winner, rounds, then per side (A at 2, B at 5) what its attacks did to the other. */
const WINNER = 0;
const ROUNDS = 1;
const SIDE_METRICS = 2;
const UNSAVED = 0;
const DEALT = 1;
const DESTROYED = 2;
const SIDE_WIDTH = 3;

export function homebrewMetrics(scenario: CompiledScenario): MetricSpec[] {
  const [a, b] = scenario.sides;
  const metrics: MetricSpec[] = [
    {
      name: 'winner',
      kind: 'category',
      max: 2,
      labels: ['none', a.name, b.name],
      description: 'the side that destroyed the other, or none',
    },
    { name: 'rounds', kind: 'count', max: scenario.rounds, description: 'rounds played (an attack: 1)' },
  ];
  scenario.sides.forEach((side, s) => {
    const letter = s === 0 ? 'A' : 'B';
    const other = scenario.sides[1 - s] as CompiledSide;
    // Before its last attack the other side had a model left, so at most wounds·models − 1 damage was
    // taken, one unsaved wound at least each; the last attack adds at most maxUnsaved.
    const unsaved = Math.min(scenario.rounds * side.maxUnsaved, other.models * other.wounds - 1 + side.maxUnsaved);
    metrics.push(
      {
        name: `${letter}.unsavedWounds`,
        kind: 'count',
        max: unsaved,
        description: `unsaved wounds ${side.name}'s attacks caused, any beyond the last model included`,
      },
      {
        name: `${letter}.woundsDealt`,
        kind: 'count',
        max: other.models * other.wounds,
        description: `damage ${side.name} dealt: wounds taken off ${other.name}'s models`,
      },
      {
        name: `${letter}.modelsDestroyed`,
        kind: 'count',
        max: other.models,
        description: `models of ${other.name} that ${side.name} destroyed`,
      },
    );
  });
  return metrics;
}

export class HomebrewKernel implements Kernel<HomebrewTraceEvent> {
  readonly ruleset = 'homebrew';
  readonly engineVersion = HOMEBREW_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];
  /** Per side: models left, and damage on its wounded model (0: none wounded). Reset every trial. */
  private readonly alive = new Int32Array(2);
  private readonly damaged = new Int32Array(2);
  private readonly drawsTables: boolean;
  private tracer: HomebrewTracer | null = null;

  constructor(private readonly scenario: CompiledScenario) {
    this.metrics = homebrewMetrics(scenario);
    this.drawsTables = scenario.method === 'tables';
  }

  setTrace(sink: TraceSink<HomebrewTraceEvent> | null): void {
    this.tracer = sink === null ? null : new HomebrewTracer(this.scenario, { alive: this.alive, damaged: this.damaged }, sink);
  }

  trial(untracedDice: Dice, row: Int32Array): void {
    const scenario = this.scenario;
    const tracer = this.tracer;
    // Traced, the same dice are read through a recorder, so the trace can show every face.
    const dice = tracer === null ? untracedDice : tracer.record(untracedDice);
    const alive = this.alive;
    alive[0] = scenario.sides[0].models;
    alive[1] = scenario.sides[1].models;
    this.damaged[0] = 0;
    this.damaged[1] = 0;
    for (let m = SIDE_METRICS; m < SIDE_METRICS + 2 * SIDE_WIDTH; m++) row[m] = 0;
    let round = 0;
    let winner = 0;
    while (round < scenario.rounds && winner === 0) {
      round++;
      tracer?.round(round);
      this.attack(dice, 0, row);
      if (alive[1] === 0) winner = 1;
      else if (scenario.fight) {
        this.attack(dice, 1, row);
        if (alive[0] === 0) winner = 2;
      }
    }
    row[WINNER] = winner;
    row[ROUNDS] = round;
    tracer?.end(round, winner);
  }

  /** Side `s` attacks the other with every model it has left; the row's side metrics add up. */
  private attack(dice: Dice, s: number, row: Int32Array): void {
    const side = this.scenario.sides[s] as CompiledSide;
    const models = this.alive[s] as number;
    if (models === 0) return;
    this.tracer?.attack(s, models, models * side.attacks);
    let unsaved: number;
    if (this.drawsTables) {
      unsaved = dice.pick(side.tables[models] as OutcomeTable);
      this.tracer?.drawnWhole(unsaved);
    } else {
      unsaved = this.rollAttack(dice, side, models * side.attacks);
    }
    const base = SIDE_METRICS + s * SIDE_WIDTH;
    row[base + UNSAVED] = (row[base + UNSAVED] as number) + unsaved;
    this.allocate(1 - s, side.damage, unsaved, row, base);
  }

  /**
   * Every die, as players roll them: the hit dice, then the ones to reroll picked up and rolled
   * again (once); the wound dice likewise; then one save die per wound. Dice are independent, so
   * counting the faces to reroll and rolling that many is the same as rerolling die by die.
   */
  private rollAttack(dice: Dice, side: CompiledSide, count: number): number {
    const tracer = this.tracer;
    let hits = 0;
    let criticals = 0;
    let again = 0;
    for (let i = 0; i < count; i++) {
      const face = dice.d6();
      const kind = side.hitFace[face] as number;
      if (kind === CRITICAL) criticals++;
      else if (kind === HIT) hits++;
      else again += side.hitReroll[face] as number;
    }
    const rerolled = again;
    for (let i = 0; i < rerolled; i++) {
      const kind = side.hitFace[dice.d6()] as number;
      if (kind === CRITICAL) criticals++;
      else if (kind === HIT) hits++;
    }
    tracer?.hits(rerolled, hits, criticals);
    const extra = this.scenario.rules.criticalEffect === 'extra-hits';
    const automatic = extra ? 0 : criticals;
    const toWound = hits + (extra ? criticals * this.scenario.criticalHits : 0);
    let wounds = automatic;
    again = 0;
    for (let i = 0; i < toWound; i++) {
      const face = dice.d6();
      if (face >= side.wound) wounds++;
      else again += side.woundReroll[face] as number;
    }
    const woundRerolls = again;
    for (let i = 0; i < woundRerolls; i++) if (dice.d6() >= side.wound) wounds++;
    tracer?.wounds(toWound, woundRerolls, automatic, wounds);
    let unsaved = wounds;
    if (side.saveOn > 0) for (let i = 0; i < wounds; i++) if (dice.d6() >= side.saveOn) unsaved--;
    tracer?.saves(wounds, unsaved);
    return unsaved;
  }

  /**
   * `unsaved` wounds of `damage` each on side `target`: a wounded model takes them first; damage
   * beyond a model's wounds is lost unless rules.damageSpills. Wounds after the last model go unused.
   */
  private allocate(target: number, damage: number, unsaved: number, row: Int32Array, base: number): void {
    const alive = this.alive;
    const damaged = this.damaged;
    const perModel = (this.scenario.sides[target] as CompiledSide).wounds;
    const spills = this.scenario.rules.damageSpills;
    let dealt = 0;
    let destroyed = 0;
    for (let w = 0; w < unsaved && (alive[target] as number) > 0; w++) {
      let left = damage;
      while (left > 0 && (alive[target] as number) > 0) {
        const taken = Math.min(left, perModel - (damaged[target] as number));
        damaged[target] = (damaged[target] as number) + taken;
        dealt += taken;
        left = spills ? left - taken : 0;
        if (damaged[target] === perModel) {
          damaged[target] = 0;
          alive[target] = (alive[target] as number) - 1;
          destroyed++;
        }
      }
    }
    row[base + DEALT] = (row[base + DEALT] as number) + dealt;
    row[base + DESTROYED] = (row[base + DESTROYED] as number) + destroyed;
    this.tracer?.damage(target, unsaved, damage, dealt, destroyed);
  }
}

/** What `kernelModule` names: the kernel of a loaded scenario, for either draw method. */
export function compile(scenario: Scenario, refs: HomebrewRefs, method: DrawMethod): HomebrewKernel {
  return new HomebrewKernel(compileScenario(scenario, refs.units, method));
}

// `compile` keeps the contract sim/ calls it by (checked by the compiler; no code at run time).
compile satisfies KernelModule<Scenario, HomebrewRefs, HomebrewTraceEvent>['compile'];
