import type { Dice } from '../dice/index.js';
import type { Kernel, MetricSpec, TraceSink } from '../kernel.js';
import { StateLayout } from '../state-layout.js';
import {
  COUNT_INPUTS,
  type CompiledScenario,
  MARKERS_PER_TURN,
  UNITS_LOST_PER_TURN,
  UNITS_LOST_WHILE_BROKEN,
  WITHDRAWAL_COST,
} from './compile.js';
import { epicMetrics, FORMATION_WIDTH, formationMetricsStart, TURN_METRICS } from './metrics.js';
import type { Rules } from './schema.js';
import { type EpicTraceEvent, EpicTracer } from './trace.js';

export const EPIC_ENGINE_VERSION = 'epic-1.0.0';

/** Method `tables`' roll-off: either player wins it with probability 1/2, by symmetry, whatever the die. */
const FAIR_COIN = 0.5;

/**
 * One trial = `turns` turns of a few formations (README "A turn"): the Action phase's inputs —
 * Blast markers, units lost, breaking and its withdrawal — then the End phase's rallies in Strategy
 * Rating order, alternating between the players. Every number of the rule text is read from
 * `scenario.rules` (schema.ts `rulesSchema`). State is typed-array views over one buffer, reset by
 * one `set`; nothing is allocated per trial.
 *
 * Tracing (`setTrace`, `crucible replay`): each step reports via `this.tracer?.…`, a single null
 * check when no sink is set (its arguments are not even evaluated then); the tracer, not the
 * kernel, builds the event objects, and a traced trial draws exactly what an untraced one does.
 */
export class EpicKernel implements Kernel<EpicTraceEvent> {
  readonly ruleset = 'epic';
  readonly engineVersion = EPIC_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];
  private readonly count: number;
  private readonly layout: StateLayout<'units' | 'broken' | 'markers' | 'unitsLost' | 'turnsBroken' | 'rallies' | 'breaks' | 'tested'>;
  private readonly template: Int32Array;
  private readonly units: Int32Array;
  private readonly broken: Int32Array;
  private readonly markers: Int32Array;
  private readonly unitsLost: Int32Array;
  private readonly turnsBroken: Int32Array;
  private readonly rallies: Int32Array;
  private readonly breaks: Int32Array;
  /** Rallied in the current End phase (each formation tests once). */
  private readonly tested: Int32Array;
  private readonly rules: Rules;
  private tracer: EpicTracer | null = null;

  /** Method `tables`: a roll-off's winner drawn as a fair coin (the dice rolled otherwise). */
  private readonly drawsTables: boolean;

  constructor(private readonly scenario: CompiledScenario) {
    this.metrics = epicMetrics(scenario);
    this.drawsTables = scenario.method === 'tables';
    this.rules = scenario.rules;
    const count = scenario.formations.length;
    this.count = count;
    this.layout = new StateLayout({
      units: count,
      broken: count,
      markers: count,
      unitsLost: count,
      turnsBroken: count,
      rallies: count,
      breaks: count,
      tested: count,
    });
    ({
      units: this.units,
      broken: this.broken,
      markers: this.markers,
      unitsLost: this.unitsLost,
      turnsBroken: this.turnsBroken,
      rallies: this.rallies,
      breaks: this.breaks,
      tested: this.tested,
    } = this.layout.views);
    this.units.set(scenario.units);
    this.broken.set(scenario.broken);
    this.markers.set(scenario.markers);
    this.template = this.layout.snapshot();
  }

  setTrace(sink: TraceSink<EpicTraceEvent> | null): void {
    this.tracer =
      sink === null
        ? null
        : new EpicTracer(this.scenario, { units: this.units, broken: this.broken, markers: this.markers, unitsLost: this.unitsLost }, sink);
  }

  trial(dice: Dice, row: Int32Array): void {
    this.layout.reset(this.template);
    const scenario = this.scenario;
    for (let turn = 1; turn <= scenario.turns; turn++) {
      this.tracer?.turn(turn);
      for (let formation = 0; formation < this.count; formation++) this.actionPhase(dice, formation);
      row[TURN_METRICS + turn - 1] = this.endPhase(dice);
    }
    this.tracer?.end();
    const start = formationMetricsStart(scenario);
    for (let formation = 0; formation < this.count; formation++) {
      const base = start + formation * FORMATION_WIDTH;
      row[base] = this.broken[formation]!;
      row[base + 1] = this.markers[formation]!;
      row[base + 2] = this.turnsBroken[formation]!;
      row[base + 3] = this.unitsLost[formation]!;
      row[base + 4] = this.units[formation] === 0 ? 1 : 0;
      row[base + 5] = this.rallies[formation]!;
      row[base + 6] = this.breaks[formation]!;
    }
  }

  /** A count input's value this turn: fixed, or drawn from its distribution (not dice: one pick either way). */
  private draw(dice: Dice, formation: number, input: number): number {
    const slot = formation * COUNT_INPUTS + input;
    const table = this.scenario.countTables[slot];
    return table ? dice.pick(table) : this.scenario.countValues[this.scenario.countStart[slot]!]!;
  }

  /** True with this turn's probability, drawing only when it is uncertain. */
  private holds(dice: Dice, probability: number): boolean {
    return dice.chance(probability);
  }

  /** One die of the rules (`rules.dieSides`): a D6 rolled as such, another die as a uniform pick. */
  private roll(dice: Dice): number {
    const table = this.scenario.dieTable;
    return table === null ? dice.d6() : dice.pick(table);
  }

  /** Loses up to `units`; returns how many it lost. */
  private lose(formation: number, units: number): number {
    const lost = Math.min(units, this.units[formation]!);
    this.units[formation] = this.units[formation]! - lost;
    this.unitsLost[formation] = this.unitsLost[formation]! + lost;
    return lost;
  }

  private withdraw(dice: Dice, formation: number): void {
    const lost = this.lose(formation, this.draw(dice, formation, WITHDRAWAL_COST));
    this.tracer?.withdrawal(formation, lost);
  }

  /**
   * The Action phase, as the scenario gives it (rulings §28): a Broken formation cannot activate and
   * loses its units for the turn; another loses units, takes its Blast markers, and breaks when they
   * reach `breakMarkersPerUnit` per unit — losing its markers (option `markersOnBreak`) and withdrawing.
   */
  private actionPhase(dice: Dice, formation: number): void {
    if (this.units[formation] === 0) return;
    if (this.broken[formation] === 1) {
      this.turnsBroken[formation] = this.turnsBroken[formation]! + 1;
      const lost = this.lose(formation, this.draw(dice, formation, UNITS_LOST_WHILE_BROKEN));
      this.tracer?.action(formation, true, lost, 0);
      return;
    }
    const lost = this.lose(formation, this.draw(dice, formation, UNITS_LOST_PER_TURN));
    if (this.units[formation] === 0) {
      this.tracer?.action(formation, false, lost, 0);
      return;
    }
    const taken = this.draw(dice, formation, MARKERS_PER_TURN);
    this.markers[formation] = this.markers[formation]! + taken;
    this.tracer?.action(formation, false, lost, taken);
    const breaksAt = this.units[formation]! * this.rules.breakMarkersPerUnit;
    if (this.markers[formation]! < breaksAt) return;
    this.broken[formation] = 1;
    this.breaks[formation] = this.breaks[formation]! + 1;
    const removes = this.scenario.options.markersOnBreak === 'removed';
    this.tracer?.breaks(formation, breaksAt, removes ? this.markers[formation]! : 0);
    if (removes) this.markers[formation] = 0;
    this.withdraw(dice, formation);
  }

  /** The End phase: rallies in Strategy Rating order, alternating between players. Returns how many rallied. */
  private endPhase(dice: Dice): number {
    const scenario = this.scenario;
    for (let formation = 0; formation < this.count; formation++) this.tested[formation] = 0;
    let player = scenario.rallyOrder[0]!;
    if (scenario.tie) {
      // Equal Strategy Ratings: a roll-off (re-rolled while equal) decides who rallies first; each
      // player wins it with probability 1/2, which is all the tables draw (enumeration stays finite).
      if (this.drawsTables) {
        player = dice.chance(FAIR_COIN) ? 0 : 1;
      } else {
        let first = 0;
        let second = 0;
        while (first === second) {
          first = this.roll(dice);
          second = this.roll(dice);
          this.tracer?.rollOff(first, second);
        }
        player = first > second ? 0 : 1;
      }
    }
    const players = scenario.playerNames.length;
    this.tracer?.endPhase(player);
    let rallied = 0;
    for (;;) {
      let next = this.nextToRally(player);
      if (next < 0 && players > 1) {
        player = 1 - player;
        next = this.nextToRally(player);
      }
      if (next < 0) return rallied;
      if (this.rally(dice, next)) rallied++;
      if (players > 1) player = 1 - player;
    }
  }

  private nextToRally(player: number): number {
    for (let formation = 0; formation < this.count; formation++) {
      if (this.scenario.player[formation] !== player || this.tested[formation] === 1 || this.units[formation] === 0) continue;
      if (this.broken[formation] === 1 || this.markers[formation]! > 0) return formation;
    }
    return -1;
  }

  /**
   * A Rally test (rulings §26–27): a die + the Broken modifier + the enemy-within-30-cm modifier
   * (never off the table) ≥ Initiative. Passed: a Broken formation is no longer Broken and gains
   * `markersPerUnitOnRally` markers per unit; then ⌈markers ÷ rallyRemovalDivisor⌉ go. Failed: a
   * Broken formation withdraws; another keeps its markers.
   */
  private rally(dice: Dice, formation: number): boolean {
    const scenario = this.scenario;
    const rules = this.rules;
    this.tested[formation] = 1;
    const broken = this.broken[formation] === 1;
    const offTable = this.holds(dice, scenario.offTable[formation]!);
    const enemyNear = !offTable && this.holds(dice, scenario.enemyWithin30[formation]!);
    const face = this.roll(dice);
    const score = face + (broken ? rules.brokenModifier : 0) + (enemyNear ? rules.enemyWithin30Modifier : 0);
    const passed = score >= scenario.initiative[formation]!;
    this.tracer?.rally(formation, broken, face, offTable, enemyNear, score, passed);
    if (!passed) {
      if (broken) this.withdraw(dice, formation);
      return false;
    }
    const added = broken ? this.units[formation]! * rules.markersPerUnitOnRally : 0;
    if (broken) this.broken[formation] = 0;
    this.markers[formation] = this.markers[formation]! + added;
    const removed = Math.ceil(this.markers[formation]! / rules.rallyRemovalDivisor);
    this.markers[formation] = this.markers[formation]! - removed;
    this.rallies[formation] = this.rallies[formation]! + 1;
    this.tracer?.rallied(formation, broken, added, removed);
    return true;
  }
}
