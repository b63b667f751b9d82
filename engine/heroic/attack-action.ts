import type { Dice, PoolRoller } from '../dice/index.js';
import type { MetricSpec } from '../kernel.js';
import { AttackTables } from './attack-tables.js';
import type { CompiledGroup, CompiledScenario } from './compile.js';
import { heroicMetrics } from './metrics.js';
import type { HeroicTracer } from './trace.js';

/**
 * The state of a heroic trial and the Attack Action that changes it (rulings §1–5, §8): rolling or
 * drawing the Wounds, Weakness, the Shield roll, Resistance, the defender's allocation, models
 * vanquished and formations broken. The kernel (kernel.ts) adds the round, activations, targets
 * and charges on top. Struct-of-arrays state (README.md), reset by one copy, nothing allocated per
 * trial; each step reports to `this.tracer?.…`, a single null check when nothing traces.
 */
export class AttackActions {
  declare protected readonly scenario: CompiledScenario;
  declare protected readonly groups: readonly CompiledGroup[];
  declare protected readonly groupCount: number;
  // [attacker group × groups + target group] flags, copied from the compiled scenario.
  declare protected readonly immune: Uint8Array;
  declare protected readonly weak: Uint8Array;
  declare protected readonly resist: Uint8Array;
  /** Whether the target rolls its Shield: read only through `rollsShield`. */
  declare private readonly shieldRolls: Uint8Array;
  declare protected readonly shieldScorer: PoolRoller;
  /** Method tables: each Attack Action's Wounds after Weakness and Shield in one pick. */
  declare protected readonly attackTables: AttackTables | null;

  /**
   * All per-trial state lives in one Int32Array; the arrays below are views of it, so a reset is a
   * single copy from `template` (one built-in call beat both per-array fills and element loops).
   */
  declare protected readonly state: Int32Array;
  declare protected readonly template: Int32Array;
  // Per model.
  declare protected readonly wounds: Int32Array;
  declare protected readonly alive: Int32Array;
  declare protected readonly engaged: Int32Array;
  /** Attack Action stamp of the model's last Shield roll (option shieldRolls: allocated-models). */
  declare protected readonly shieldStamp: Int32Array;
  // Per group.
  declare protected readonly aliveCount: Int32Array;
  declare protected readonly inFormation: Int32Array;
  declare protected readonly activations: Int32Array;
  // Per side.
  declare protected readonly sideAlive: Int32Array;
  /**
   * The trial's metrics as they stand, in row order (metrics.ts): each is counted where it changes
   * (a Wound inflicted, a model vanquished, a formation broken, a charge refused), so the row is one
   * copy of these cells at the end of the trial, not a pass over every group and side.
   */
  declare protected readonly rowCells: Int32Array;
  declare readonly metrics: readonly MetricSpec[];
  // Where each group's and side's metrics sit in `rowCells` (−1: the scenario has no such metric).
  declare private readonly woundsTakenCell: Int32Array;
  declare private readonly modelsLostCell: Int32Array;
  declare private readonly vanquishedCell: Int32Array;
  declare private readonly formationBrokenCell: Int32Array;
  declare private readonly woundsDealtCell: Int32Array;
  declare private readonly sideModelsLostCell: Int32Array;
  declare protected readonly chargesRefusedCell: Int32Array;
  declare protected readonly tormentCell: Int32Array;
  declare protected attackStamp: number;
  declare protected tracer: HeroicTracer | null;

  // Options as flags, read in the hot path (rulings §2–5).
  declare protected readonly shieldEveryModel: boolean;
  declare protected readonly weaknessFirst: boolean;
  declare protected readonly weaknessMode: number; // 0 per figure, 1 per successful figure, 2 once
  declare protected readonly mostDamagedFirst: boolean;
  // The rule texts' constants (rules:), read in the hot path (rulings §3, §8).
  declare protected readonly weaknessWounds: number;
  declare protected readonly resistanceWounds: number;
  declare protected readonly formationMinimum: number;

  constructor(scenario: CompiledScenario) {
    this.scenario = scenario;
    this.groups = scenario.groups;
    this.groupCount = scenario.groups.length;
    this.immune = scenario.immune;
    this.weak = scenario.weak;
    this.resist = scenario.resist;
    this.shieldRolls = scenario.shieldRolls;
    this.shieldScorer = scenario.shieldScorer;
    this.attackTables =
      scenario.method === 'tables' ? new AttackTables(scenario.options.order === 'weakness-then-shield', scenario.rules) : null;
    const models = scenario.modelCount;
    const groups = this.groupCount;
    const { metrics, cells } = heroicMetrics(scenario);
    this.metrics = metrics;
    this.woundsTakenCell = cells.woundsTaken;
    this.modelsLostCell = cells.modelsLost;
    this.vanquishedCell = cells.vanquished;
    this.formationBrokenCell = cells.formationBroken;
    this.woundsDealtCell = cells.woundsDealt;
    this.sideModelsLostCell = cells.sideModelsLost;
    this.chargesRefusedCell = cells.chargesRefused;
    this.tormentCell = cells.torment;
    const sizes = [models, models, models, models, groups, groups, groups, 2, metrics.length];
    this.state = new Int32Array(sizes.reduce((sum, size) => sum + size, 0));
    let offset = 0;
    const view = (size: number): Int32Array => {
      const array = this.state.subarray(offset, offset + size);
      offset += size;
      return array;
    };
    [this.wounds, this.alive, this.engaged, this.shieldStamp] = [view(models), view(models), view(models), view(models)];
    [this.aliveCount, this.inFormation, this.activations] = [view(groups), view(groups), view(groups)];
    this.sideAlive = view(2);
    this.rowCells = view(metrics.length);
    // The starting state, written through the views, then kept as the template.
    this.alive.fill(1);
    for (const group of scenario.groups) {
      const end = group.first + group.count;
      this.wounds.fill(group.woundsTaken, group.first, end);
      this.engaged.fill(group.charging ? 0 : 1, group.first, end);
      this.aliveCount[group.index] = group.count;
      this.inFormation[group.index] = group.formation ? 1 : 0;
      this.sideAlive[group.side] = (this.sideAlive[group.side] as number) + group.count;
    }
    this.template = this.state.slice();
    this.attackStamp = 0;
    this.tracer = null;
    const options = scenario.options;
    this.shieldEveryModel = options.shieldRolls === 'every-model';
    this.weaknessFirst = options.order === 'weakness-then-shield';
    this.weaknessMode = options.formationWeakness === 'per-figure' ? 0 : options.formationWeakness === 'per-successful-figure' ? 1 : 2;
    this.mostDamagedFirst = options.allocation === 'most-damaged';
    this.weaknessWounds = scenario.rules.weaknessBonus;
    this.resistanceWounds = scenario.rules.resistanceReduction;
    this.formationMinimum = scenario.rules.formationMinimum;
  }

  /** Shield Roll: does the target of `cell` ([attacker × target]) roll its Shield? The only test of it (rulings §2). */
  private rollsShield(cell: number): boolean {
    return this.shieldRolls[cell] === 1;
  }

  protected reset(): void {
    this.state.set(this.template);
    this.attackStamp = 0;
  }

  protected aoeOnGroup(dice: Dice, group: CompiledGroup, attacker: number, target: number, inArea: number): void {
    const targetGroup = this.groups[target] as CompiledGroup;
    let hit = 0;
    for (let m = targetGroup.first; m < targetGroup.first + targetGroup.count && hit < inArea; m++) {
      if (this.alive[m] === 0) continue;
      hit++;
      const cell = group.index * this.groupCount + target;
      const whole = this.drawnWhole(dice, targetGroup, cell, group.atk, this.rollsShield(cell) ? 1 : 0, this.weaknessWounds);
      if (whole >= 0) {
        this.tracer?.attack(group, attacker, 1, targetGroup, m, whole, group.atk, true);
        if (this.immune[cell] === 0) this.takeWounds(group, targetGroup, m, whole, cell);
        continue;
      }
      const rolled = targetGroup.woundScorer.roll(dice, group.atk);
      this.tracer?.attack(group, attacker, 1, targetGroup, m, rolled, group.atk, false);
      this.woundModel(dice, group, targetGroup, m, rolled, this.weaknessWounds);
    }
    this.checkFormation(target);
  }

  /** One Attack Action of `figures` models (`model`, or −1 for a formation) rolling `diceCount` dice at one target group. */
  protected attack(dice: Dice, group: CompiledGroup, model: number, figures: number, diceCount: number, target: number): void {
    const targetGroup = this.groups[target] as CompiledGroup;
    const cell = group.index * this.groupCount + target;
    const scorer = targetGroup.woundScorer;
    let rolled: number;
    // Figures adding Weakness: 1, every figure, or those whose own dice succeeded (rulings §3).
    let weakFigures = 1;
    if (figures > 1 && this.weaknessMode === 1 && this.weak[cell] === 1) {
      // Keep dice grouped by figure so only figures whose own dice succeeded add to it (rulings §3).
      rolled = 0;
      weakFigures = 0;
      const perFigure = diceCount / figures;
      for (let f = 0; f < figures; f++) {
        const wounds = scorer.roll(dice, perFigure);
        this.tracer?.figureRolled(wounds);
        rolled += wounds;
        if (wounds > 0) weakFigures++;
      }
    } else {
      if (figures > 1 && this.weaknessMode === 0) weakFigures = figures;
      const formation = this.inFormation[target] === 1;
      // A formation's Shield dice, one per model (option every-model); per allocated model they are rolled in allocation.
      const shieldDice = !this.rollsShield(cell) ? 0 : !formation ? 1 : this.shieldEveryModel ? (this.aliveCount[target] as number) : 0;
      const whole = this.drawnWhole(dice, targetGroup, cell, diceCount, shieldDice, weakFigures * this.weaknessWounds);
      if (whole >= 0) {
        this.tracer?.attack(group, model, figures, targetGroup, -1, whole, diceCount, true);
        if (this.immune[cell] === 1) return;
        if (formation) this.allocate(dice, group, targetGroup, whole, cell);
        else this.takeWounds(group, targetGroup, this.pickModel(targetGroup, true), whole, cell);
        return;
      }
      rolled = scorer.roll(dice, diceCount);
    }
    this.tracer?.attack(group, model, figures, targetGroup, -1, rolled, diceCount, false);
    const bonus = weakFigures * this.weaknessWounds;
    if (this.inFormation[target] === 1) this.woundFormation(dice, group, targetGroup, rolled, bonus);
    else this.woundModel(dice, group, targetGroup, this.pickModel(targetGroup, true), rolled, bonus);
  }

  /**
   * Method tables: the Wounds left after Weakness and the Shield roll, drawn in one pick
   * (attack-tables.ts), or −1 to go step by step (method dice, or a pool beyond the tables' range).
   * Against an Invulnerable target nothing is drawn (0).
   */
  private drawnWhole(
    dice: Dice,
    targetGroup: CompiledGroup,
    cell: number,
    diceCount: number,
    shieldDice: number,
    weaknessBonus: number,
  ): number {
    const tables = this.attackTables;
    const bonus = this.weak[cell] === 1 ? weaknessBonus : 0;
    if (tables === null || !tables.fits(diceCount, shieldDice, bonus)) return -1;
    if (this.immune[cell] === 1) return 0;
    return dice.pick(tables.table(targetGroup.def, diceCount, shieldDice, bonus));
  }

  /** Weakness (+bonus when ≥ 1 Wound was rolled) and the single Shield roll, in the optioned order (rulings §2–4). */
  private weaknessAndShield(dice: Dice, target: CompiledGroup, cell: number, wounds: number, weak: boolean, bonus: number): number {
    let w = wounds;
    if (this.weaknessFirst && weak && w > 0) w = this.weakness(target, w, bonus);
    if (this.rollsShield(cell) && w > 0) {
      // One die: a pool of one (the same draw as a D6 when rolled; one pick from a table).
      const saved = this.shieldScorer.roll(dice, 1);
      w = saved < w ? w - saved : 0;
      this.tracer?.shield(target, -1, saved, w);
    }
    if (!this.weaknessFirst && weak && w > 0) w = this.weakness(target, w, bonus);
    return w;
  }

  /** Weakness: `bonus` more Wounds for an Attack Action that rolled ≥ 1 (rulings §3). */
  private weakness(target: CompiledGroup, wounds: number, bonus: number): number {
    this.tracer?.weakness(target, bonus, wounds + bonus);
    return wounds + bonus;
  }

  /** A single model takes an Attack Action's Wounds: Invulnerability, Weakness, Shield, Resistance, cap. */
  private woundModel(dice: Dice, group: CompiledGroup, targetGroup: CompiledGroup, model: number, rolled: number, bonus: number): void {
    const cell = group.index * this.groupCount + targetGroup.index;
    if (this.immune[cell] === 1 || model < 0) return;
    this.takeWounds(group, targetGroup, model, this.weaknessAndShield(dice, targetGroup, cell, rolled, this.weak[cell] === 1, bonus), cell);
  }

  /** A single model takes Wounds left after Weakness and Shield: Resistance, then the cap at MIGHT. */
  private takeWounds(group: CompiledGroup, targetGroup: CompiledGroup, model: number, wounds: number, cell: number): void {
    if (model < 0) return;
    let w = wounds;
    if (this.resist[cell] === 1 && w > 0 && this.resistanceWounds > 0) {
      const ignored = Math.min(w, this.resistanceWounds);
      w -= ignored;
      this.tracer?.resistance(targetGroup, model, ignored, w);
    }
    if (w > 0) this.inflict(group, targetGroup, model, w);
  }

  /**
   * A formation takes pooled Wounds: Weakness, one Shield die per model (or per allocated model),
   * then the defender allocates model by model with spill-over, each model's Resistance ignoring
   * one Wound (rulings §2–5).
   */
  private woundFormation(dice: Dice, group: CompiledGroup, targetGroup: CompiledGroup, rolled: number, bonus: number): void {
    const cell = group.index * this.groupCount + targetGroup.index;
    if (this.immune[cell] === 1) return;
    const weak = this.weak[cell] === 1;
    let w = rolled;
    if (this.weaknessFirst && weak && w > 0) w = this.weakness(targetGroup, w, bonus);
    if (this.rollsShield(cell) && this.shieldEveryModel && w > 0) {
      const saves = this.shieldScorer.roll(dice, this.aliveCount[targetGroup.index] as number);
      w = saves < w ? w - saves : 0;
      this.tracer?.shield(targetGroup, -1, saves, w);
    }
    if (!this.weaknessFirst && weak && w > 0) w = this.weakness(targetGroup, w, bonus);
    this.allocate(dice, group, targetGroup, w, cell);
  }

  /**
   * The defender allocates Wounds left after Weakness and the every-model Shield roll, model by
   * model with spill-over: a model's own Shield die (option allocated-models) as it is first
   * allocated Wounds, its Resistance ignoring one Wound (rulings §2–5).
   */
  private allocate(dice: Dice, group: CompiledGroup, targetGroup: CompiledGroup, wounds: number, cell: number): void {
    const resist = this.resist[cell] === 1 && this.resistanceWounds > 0;
    const shieldPerModel = this.rollsShield(cell) && !this.shieldEveryModel;
    let w = wounds;
    const stamp = ++this.attackStamp;
    while (w > 0 && (this.aliveCount[targetGroup.index] as number) > 0) {
      const model = this.pickModel(targetGroup, this.mostDamagedFirst);
      if (shieldPerModel && this.shieldStamp[model] !== stamp) {
        this.shieldStamp[model] = stamp;
        const saved = this.shieldScorer.roll(dice, 1);
        w = saved < w ? w - saved : 0;
        this.tracer?.shield(targetGroup, model, saved, w);
        if (w === 0) break;
      }
      if (resist) {
        const ignored = Math.min(w, this.resistanceWounds);
        w -= ignored;
        this.tracer?.resistance(targetGroup, model, ignored, w);
        if (w === 0) break;
      }
      const dealt = Math.min(w, targetGroup.might - (this.wounds[model] as number));
      this.inflict(group, targetGroup, model, dealt);
      w -= dealt;
    }
    this.checkFormation(targetGroup.index);
  }

  /** The living model with the most (or fewest) Wounds; ties go to the lowest id. */
  protected pickModel(group: CompiledGroup, mostDamaged: boolean): number {
    let best = -1;
    let bestWounds = 0;
    for (let m = group.first; m < group.first + group.count; m++) {
      if (this.alive[m] === 0) continue;
      const wounds = this.wounds[m] as number;
      if (best < 0 || (mostDamaged ? wounds > bestWounds : wounds < bestWounds)) {
        best = m;
        bestWounds = wounds;
      }
    }
    return best;
  }

  /** Apply Wounds to one model, capped at its MIGHT (rulings §5), and vanquish it at MIGHT. */
  protected inflict(group: CompiledGroup, targetGroup: CompiledGroup, model: number, wounds: number): void {
    const room = targetGroup.might - (this.wounds[model] as number);
    const dealt = Math.min(wounds, room);
    this.wounds[model] = (this.wounds[model] as number) + dealt;
    const cells = this.rowCells;
    const taken = this.woundsTakenCell[targetGroup.index] as number;
    cells[taken] = (cells[taken] as number) + dealt;
    if (group.side !== targetGroup.side) {
      const dealtCell = this.woundsDealtCell[group.side] as number;
      cells[dealtCell] = (cells[dealtCell] as number) + dealt;
    }
    if (dealt === room) {
      this.alive[model] = 0;
      const left = (this.aliveCount[targetGroup.index] as number) - 1;
      this.aliveCount[targetGroup.index] = left;
      this.sideAlive[targetGroup.side] = (this.sideAlive[targetGroup.side] as number) - 1;
      const lost = this.modelsLostCell[targetGroup.index] as number;
      cells[lost] = (cells[lost] as number) + 1;
      const sideLost = this.sideModelsLostCell[targetGroup.side] as number;
      cells[sideLost] = (cells[sideLost] as number) + 1;
      if (left === 0) cells[this.vanquishedCell[targetGroup.index] as number] = 1;
    }
    this.tracer?.wound(targetGroup, model, wounds, dealt);
  }

  /** Breaking a Formation: below rules.formationMinimum (3) models it is broken at once (rulings §8). */
  protected checkFormation(g: number): void {
    if (this.inFormation[g] === 1 && (this.aliveCount[g] as number) < this.formationMinimum) {
      this.inFormation[g] = 0;
      // Only a group declared in formation is ever in one, and only it has this metric.
      this.rowCells[this.formationBrokenCell[g] as number] = 1;
      this.tracer?.formationBroken(g);
    }
  }
}
