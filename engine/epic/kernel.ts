import type { Dice } from '../dice/index.js';
import type { Kernel, MetricSpec } from '../kernel.js';
import { COUNT_INPUTS, type CompiledScenario, MARKERS_PER_TURN, UNITS_LOST_PER_TURN, UNITS_LOST_WHILE_BROKEN, WITHDRAWAL_COST } from './compile.js';
import { epicMetrics, FORMATION_WIDTH, formationMetricsStart, TURN_METRICS } from './metrics.js';

export const EPIC_ENGINE_VERSION = 'epic-1.0.0';

/**
 * One trial = `turns` turns of a few formations (README "A turn"): the Action phase's inputs —
 * Blast markers, units lost, breaking and its withdrawal — then the End phase's rallies in Strategy
 * Rating order, alternating between the players. State is typed-array views over one buffer, reset
 * by one `set`; nothing is allocated per trial.
 */
export class EpicKernel implements Kernel {
  readonly ruleset = 'epic';
  readonly engineVersion = EPIC_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];
  private readonly count: number;
  private readonly state: Int32Array;
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

  /** Method `tables`: a roll-off's winner drawn as a fair coin (the dice rolled otherwise). */
  private readonly drawsTables: boolean;

  constructor(private readonly scenario: CompiledScenario) {
    this.metrics = epicMetrics(scenario);
    this.drawsTables = scenario.method === 'tables';
    const count = scenario.formations.length;
    this.count = count;
    this.state = new Int32Array(8 * count);
    let offset = 0;
    const view = () => this.state.subarray(offset, (offset += count));
    this.units = view();
    this.broken = view();
    this.markers = view();
    this.unitsLost = view();
    this.turnsBroken = view();
    this.rallies = view();
    this.breaks = view();
    this.tested = view();
    this.units.set(scenario.units);
    this.broken.set(scenario.broken);
    this.markers.set(scenario.markers);
    this.template = this.state.slice();
  }

  trial(dice: Dice, row: Int32Array): void {
    this.state.set(this.template);
    const scenario = this.scenario;
    for (let turn = 1; turn <= scenario.turns; turn++) {
      for (let formation = 0; formation < this.count; formation++) this.actionPhase(dice, formation);
      row[TURN_METRICS + turn - 1] = this.endPhase(dice);
    }
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

  private lose(formation: number, units: number): void {
    const lost = Math.min(units, this.units[formation]!);
    this.units[formation] = this.units[formation]! - lost;
    this.unitsLost[formation] = this.unitsLost[formation]! + lost;
  }

  /**
   * The Action phase, as the scenario gives it (rulings §28): a Broken formation cannot activate and
   * loses its units for the turn; another loses units, takes its Blast markers, and breaks when they
   * reach its units — losing its markers (option `markersOnBreak`) and withdrawing.
   */
  private actionPhase(dice: Dice, formation: number): void {
    if (this.units[formation] === 0) return;
    if (this.broken[formation] === 1) {
      this.turnsBroken[formation] = this.turnsBroken[formation]! + 1;
      this.lose(formation, this.draw(dice, formation, UNITS_LOST_WHILE_BROKEN));
      return;
    }
    this.lose(formation, this.draw(dice, formation, UNITS_LOST_PER_TURN));
    if (this.units[formation] === 0) return;
    this.markers[formation] = this.markers[formation]! + this.draw(dice, formation, MARKERS_PER_TURN);
    if (this.markers[formation]! < this.units[formation]!) return;
    this.broken[formation] = 1;
    this.breaks[formation] = this.breaks[formation]! + 1;
    if (this.scenario.options.markersOnBreak === 'removed') this.markers[formation] = 0;
    this.lose(formation, this.draw(dice, formation, WITHDRAWAL_COST));
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
        player = dice.chance(0.5) ? 0 : 1;
      } else {
        let first = 0;
        let second = 0;
        while (first === second) {
          first = dice.d6();
          second = dice.d6();
        }
        player = first > second ? 0 : 1;
      }
    }
    const players = scenario.playerNames.length;
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
   * A Rally test (rulings §26–27): D6 − 2 if Broken − 1 if enemy within 30 cm (never off the table)
   * ≥ Initiative. Passed: a Broken formation is no longer Broken and gains a marker per unit; then
   * half the markers go, rounded up. Failed: a Broken formation withdraws; another keeps its markers.
   */
  private rally(dice: Dice, formation: number): boolean {
    const scenario = this.scenario;
    this.tested[formation] = 1;
    const broken = this.broken[formation] === 1;
    const offTable = this.holds(dice, scenario.offTable[formation]!);
    const enemyNear = !offTable && this.holds(dice, scenario.enemyWithin30[formation]!);
    const score = dice.d6() - (broken ? 2 : 0) - (enemyNear ? 1 : 0);
    if (score < scenario.initiative[formation]!) {
      if (broken) this.lose(formation, this.draw(dice, formation, WITHDRAWAL_COST));
      return false;
    }
    if (broken) {
      this.broken[formation] = 0;
      this.markers[formation] = this.markers[formation]! + this.units[formation]!;
    }
    this.markers[formation] = this.markers[formation]! - Math.ceil(this.markers[formation]! / 2);
    this.rallies[formation] = this.rallies[formation]! + 1;
    return true;
  }
}
