import type { Dice } from '../dice/index.js';
import type { Kernel, TraceSink } from '../kernel.js';
import { AttackActions } from './attack-action.js';
import { type CompiledGroup, type CompiledScenario, WEAPON_AOE, WEAPON_MELEE } from './compile.js';
import { ROUNDS, WINNER } from './metrics.js';
import { HeroicTracer, type HeroicTraceEvent } from './trace.js';

export const HEROIC_ENGINE_VERSION = 'heroic-1.1.0';

/**
 * The heroic kernel: one engagement per trial (see README.md for the order of steps): rounds,
 * activations, targets, charges, splits and AoE areas, on the state and Attack Actions of
 * attack-action.ts. Nothing here allocates per trial: state is reset from a template, and every
 * rule reads the compiled scenario's numbers.
 * Tracing (`setTrace`, `crucible replay`): each step reports via `this.tracer?.…`, a single null
 * check when no sink is set; the tracer, not the kernel, builds the event objects.
 */
export class HeroicKernel extends AttackActions implements Kernel<HeroicTraceEvent> {
  readonly ruleset = 'heroic';
  readonly engineVersion = HEROIC_ENGINE_VERSION;
  /** Group ids of each side, in activation order. */
  declare private readonly sideGroups: readonly [Int32Array, Int32Array];
  declare private readonly sidesActing: number;
  declare private readonly rounds: number;
  /** Option chargeTest (rulings §7). */
  declare private readonly chargeAtEquality: boolean;
  /** rules.regenerationHeal and rules.chargeTorment (rulings §9, §7). */
  declare private readonly regenerationHeal: number;
  declare private readonly chargeTorment: number;

  constructor(scenario: CompiledScenario) {
    super(scenario);
    const groupsOf = (side: number) =>
      Int32Array.from(
        scenario.groups.filter((group) => group.side === side),
        (group) => group.index,
      );
    this.sideGroups = [groupsOf(0), groupsOf(1)];
    this.sidesActing = scenario.mode === 'attack' ? 1 : 2;
    this.rounds = scenario.rounds;
    this.chargeAtEquality = scenario.options.chargeTest === 'at-least-will';
    this.regenerationHeal = scenario.rules.regenerationHeal;
    this.chargeTorment = scenario.rules.chargeTorment;
  }

  setTrace(sink: TraceSink<HeroicTraceEvent> | null): void {
    const state = {
      wounds: this.wounds,
      alive: this.alive,
      aliveCount: this.aliveCount,
      inFormation: this.inFormation,
      sideAlive: this.sideAlive,
    };
    this.tracer = sink === null ? null : new HeroicTracer(this.scenario, state, sink);
  }

  trial(dice: Dice, row: Int32Array): void {
    this.reset();
    const tracer = this.tracer;
    // Traced, the same dice are read through a recorder, so the trace can show every face.
    const rolls = tracer === null ? dice : tracer.record(dice);
    const rounds = this.rounds;
    const sidesActing = this.sidesActing;
    let round = 0;
    let over = false;
    while (round < rounds && !over) {
      round++;
      tracer?.round(round);
      for (let side = 0; side < sidesActing && !over; side++) over = this.activateSide(rolls, side);
    }
    this.writeRow(row, round);
    tracer?.end(round, row[WINNER] as number);
  }

  /** One activation of every group of a side, in order. Returns true when a side is wiped out. */
  private activateSide(dice: Dice, side: number): boolean {
    const groups = this.sideGroups[side] as Int32Array;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i] as number;
      if (this.aliveCount[g] === 0) continue;
      this.activateGroup(dice, this.groups[g] as CompiledGroup);
      if (this.sideAlive[0] === 0 || this.sideAlive[1] === 0) return true;
    }
    return false;
  }

  private activateGroup(dice: Dice, group: CompiledGroup): void {
    const g = group.index;
    const activation = this.activations[g] as number;
    this.activations[g] = activation + 1;
    this.tracer?.activation(group);
    // Healing: (R) heals rules.regenerationHeal (1) Wound at the start of each activation (rulings §9).
    const heal = this.regenerationHeal;
    if (group.regenerates && heal > 0) {
      for (let m = group.first; m < group.first + group.count; m++) {
        const wounds = this.wounds[m] as number;
        if (this.alive[m] === 1 && wounds > 0) {
          const healed = Math.min(wounds, heal);
          this.wounds[m] = wounds - healed;
          this.tracer?.regeneration(group, m, healed);
        }
      }
    }
    // Combined Formation: a part that already acted keeps the whole from acting (rulings §8).
    if (group.exhausted && activation === 0) this.tracer?.exhausted(group);
    else if (group.split.length > 0) this.splitAttack(dice, group);
    else if (group.weaponType === WEAPON_AOE) this.aoeAttacks(dice, group);
    else if (this.inFormation[g] === 1) this.formationAttack(dice, group);
    else this.singleAttacks(dice, group);
    if (group.heal > 0 && this.aliveCount[g] !== 0) this.heal(group);
  }

  /** The declared target while it has models, else the first enemy group that has (default plan). */
  private targetOf(group: CompiledGroup): number {
    if (group.target >= 0 && (this.aliveCount[group.target] as number) > 0) return group.target;
    for (let t = 0; t < this.groupCount; t++) {
      if ((this.groups[t] as CompiledGroup).side !== group.side && (this.aliveCount[t] as number) > 0) return t;
    }
    return -1;
  }

  /**
   * Single Model vs Formation: a model must pass a WILL test (D6 ≤ WILL) to charge a formation of
   * ≥ WILL models (rulings §7); failing wastes the move, and a Heroic model gains rules.chargeTorment (1) Torment.
   */
  private charges(dice: Dice, group: CompiledGroup, model: number, target: number): boolean {
    if (this.engaged[model] === 1 || group.weaponType !== WEAPON_MELEE) return true;
    const formationSize = this.inFormation[target] === 1 ? (this.aliveCount[target] as number) : 0;
    const testNeeded = formationSize > 0 && (this.chargeAtEquality ? formationSize >= group.will : formationSize > group.will);
    const refused = testNeeded && dice.d6() > group.will;
    if (testNeeded) this.tracer?.willTest(group, model, target, !refused);
    if (refused) {
      // Only a charging group is ever unengaged, so its side has these metrics.
      const cells = this.rowCells;
      const refusedCell = this.chargesRefusedCell[group.side] as number;
      cells[refusedCell] = (cells[refusedCell] as number) + 1;
      if (group.heroic) {
        const tormentCell = this.tormentCell[group.side] as number;
        cells[tormentCell] = (cells[tormentCell] as number) + this.chargeTorment;
      }
      return false;
    }
    this.engaged[model] = 1;
    return true;
  }

  /** Formation Attacks: every figure's dice pooled in one Attack Action (rulings §8). */
  private formationAttack(dice: Dice, group: CompiledGroup): void {
    const target = this.targetOf(group);
    if (target < 0) return;
    // Only a single model tests WILL to charge a formation (Single Model vs Formation).
    const living = this.aliveCount[group.index] as number;
    const figures = group.weaponType === WEAPON_MELEE && group.meleeFigures < living ? group.meleeFigures : living;
    this.attack(dice, group, -1, figures, figures * group.atk, target);
  }

  /** Models not in formation attack one by one, each its own Attack Action. */
  private singleAttacks(dice: Dice, group: CompiledGroup): void {
    for (let m = group.first; m < group.first + group.count; m++) {
      if (this.alive[m] === 0) continue;
      const target = this.targetOf(group);
      if (target < 0) return;
      if (this.charges(dice, group, m, target)) this.attack(dice, group, m, 1, group.atk, target);
    }
  }

  /**
   * Melee dice split between engaged targets, declared before rolling (Rolling ATK Dice); each
   * target's dice are resolved before the next, and a surplus on one is lost (rulings §5). Dice
   * declared for a target already gone go to the first split target still standing.
   */
  private splitAttack(dice: Dice, group: CompiledGroup): void {
    const model = group.first;
    const split = group.split;
    let orphanDice = 0;
    for (let i = 0; i < split.length; i += 2) if (this.aliveCount[split[i] as number] === 0) orphanDice += split[i + 1] as number;
    for (let i = 0; i < split.length; i += 2) {
      const target = split[i] as number;
      if (this.aliveCount[target] === 0 || this.alive[model] === 0) continue;
      if (!this.charges(dice, group, model, target)) return;
      this.attack(dice, group, model, 1, (split[i + 1] as number) + orphanDice, target);
      orphanDice = 0;
    }
  }

  /** AoE: each attacking model rolls its dice for every model in the area, one by one (rulings §10). */
  private aoeAttacks(dice: Dice, group: CompiledGroup): void {
    const area = group.area;
    for (let m = group.first; m < group.first + group.count; m++) {
      if (this.alive[m] === 0) continue;
      if (area.length === 0) {
        const target = this.targetOf(group);
        if (target < 0) return;
        this.aoeOnGroup(dice, group, m, target, this.aliveCount[target] as number);
      } else {
        for (let i = 0; i < area.length; i += 2) this.aoeOnGroup(dice, group, m, area[i] as number, area[i + 1] as number);
      }
    }
  }

  /** Healing ability: heal Wounds on the group's most damaged model at the end of its activation. */
  private heal(group: CompiledGroup): void {
    const model = this.pickModel(group, true);
    const healed = Math.min(group.heal, this.wounds[model] as number);
    this.wounds[model] = (this.wounds[model] as number) - healed;
    this.tracer?.heal(group, model, healed);
  }

  /** The row: the winner and rounds, then the metrics counted as the trial went (`rowCells`), in one copy. */
  private writeRow(row: Int32Array, rounds: number): void {
    const aWiped = this.sideAlive[0] === 0;
    const bWiped = this.sideAlive[1] === 0;
    const cells = this.rowCells;
    cells[WINNER] = aWiped === bWiped ? 0 : bWiped ? 1 : 2;
    cells[ROUNDS] = rounds;
    row.set(cells);
  }
}
