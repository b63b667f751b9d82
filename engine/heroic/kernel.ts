import type { Dice, PoolRoller } from '../dice/index.js';
import type { Kernel, MetricSpec, TraceSink } from '../kernel.js';
import { AttackTables } from './attack-tables.js';
import { type CompiledGroup, type CompiledScenario, WEAPON_AOE, WEAPON_MELEE } from './compile.js';
import { GROUP_SLOT_WIDTH, heroicMetrics, type MetricSlots, ROUNDS, SIDE_SLOT_WIDTH, WINNER } from './metrics.js';
import { HeroicTracer, type HeroicTraceEvent } from './trace.js';

export const HEROIC_ENGINE_VERSION = 'heroic-1.1.0';

/**
 * The heroic kernel: one engagement per trial over struct-of-arrays state (see README.md for the
 * layout and the order of steps). Nothing here allocates per trial: state is reset from templates,
 * and every rule reads the compiled scenario's numbers.
 * Tracing (`setTrace`, `crucible replay`): each step reports via `this.tracer?.…`, a single null
 * check when no sink is set; the tracer, not the kernel, builds the event objects.
 */
export class HeroicKernel implements Kernel<HeroicTraceEvent> {
  readonly ruleset = 'heroic';
  readonly engineVersion = HEROIC_ENGINE_VERSION;
  declare readonly metrics: readonly MetricSpec[];
  declare private readonly slots: MetricSlots;
  declare private readonly scenario: CompiledScenario;
  declare private readonly groups: readonly CompiledGroup[];
  declare private readonly groupCount: number;
  /** Group ids of each side, in activation order. */
  declare private readonly sideGroups: readonly [Int32Array, Int32Array];
  declare private readonly sidesActing: number;
  declare private readonly rounds: number;
  // [attacker group × groups + target group] flags, copied from the compiled scenario.
  declare private readonly immune: Uint8Array;
  declare private readonly weak: Uint8Array;
  declare private readonly resist: Uint8Array;
  declare private readonly shieldScorer: PoolRoller;
  /** Method tables: each Attack Action's Wounds after Weakness and Shield in one pick. */
  declare private readonly attackTables: AttackTables | null;

  /**
   * All per-trial state lives in one Int32Array; the arrays below are views of it, so a reset is a
   * single copy from `template` (one built-in call beat both per-array fills and element loops).
   */
  declare private readonly state: Int32Array;
  declare private readonly template: Int32Array;
  // Per model.
  declare private readonly wounds: Int32Array;
  declare private readonly alive: Int32Array;
  declare private readonly engaged: Int32Array;
  /** Attack Action stamp of the model's last Shield roll (option shieldRolls: allocated-models). */
  declare private readonly shieldStamp: Int32Array;
  // Per group.
  declare private readonly aliveCount: Int32Array;
  declare private readonly inFormation: Int32Array;
  declare private readonly formationBroken: Int32Array;
  declare private readonly woundsTaken: Int32Array;
  declare private readonly activations: Int32Array;
  // Per side.
  declare private readonly sideAlive: Int32Array;
  declare private readonly woundsDealt: Int32Array;
  declare private readonly chargesRefused: Int32Array;
  declare private readonly torment: Int32Array;
  declare private attackStamp: number;
  declare private tracer: HeroicTracer | null;

  // Options as flags, read in the hot path (rulings §2–5, §7).
  declare private readonly shieldEveryModel: boolean;
  declare private readonly weaknessFirst: boolean;
  declare private readonly weaknessMode: number; // 0 per figure, 1 per successful figure, 2 once
  declare private readonly chargeAtEquality: boolean;
  declare private readonly mostDamagedFirst: boolean;

  constructor(scenario: CompiledScenario) {
    const { metrics, slots } = heroicMetrics(scenario);
    this.metrics = metrics;
    this.slots = slots;
    this.scenario = scenario;
    this.groups = scenario.groups;
    this.groupCount = scenario.groups.length;
    const groupsOf = (side: number) => Int32Array.from(scenario.groups.filter((group) => group.side === side), (group) => group.index);
    this.sideGroups = [groupsOf(0), groupsOf(1)];
    this.sidesActing = scenario.mode === 'attack' ? 1 : 2;
    this.rounds = scenario.rounds;
    this.immune = scenario.immune;
    this.weak = scenario.weak;
    this.resist = scenario.resist;
    this.shieldScorer = scenario.shieldScorer;
    this.attackTables = scenario.method === 'tables' ? new AttackTables(scenario.options.order === 'weakness-then-shield') : null;
    const models = scenario.modelCount;
    const groups = this.groupCount;
    const sizes = [models, models, models, models, groups, groups, groups, groups, groups, 2, 2, 2, 2];
    this.state = new Int32Array(sizes.reduce((sum, size) => sum + size, 0));
    let offset = 0;
    const view = (size: number): Int32Array => {
      const array = this.state.subarray(offset, offset + size);
      offset += size;
      return array;
    };
    [this.wounds, this.alive, this.engaged, this.shieldStamp] = [view(models), view(models), view(models), view(models)];
    [this.aliveCount, this.inFormation, this.formationBroken, this.woundsTaken, this.activations] = [
      view(groups),
      view(groups),
      view(groups),
      view(groups),
      view(groups),
    ];
    [this.sideAlive, this.woundsDealt, this.chargesRefused, this.torment] = [view(2), view(2), view(2), view(2)];
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
    this.chargeAtEquality = options.chargeTest === 'at-least-will';
    this.mostDamagedFirst = options.allocation === 'most-damaged';
  }

  private reset(): void {
    this.state.set(this.template);
    this.attackStamp = 0;
  }

  setTrace(sink: TraceSink<HeroicTraceEvent> | null): void {
    const state = { wounds: this.wounds, alive: this.alive, aliveCount: this.aliveCount, inFormation: this.inFormation, sideAlive: this.sideAlive };
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
    // Healing: (R) heals 1 Wound at the start of each activation (rulings §9).
    if (group.regenerates) {
      for (let m = group.first; m < group.first + group.count; m++) {
        if (this.alive[m] === 1 && (this.wounds[m] as number) > 0) {
          this.wounds[m] = (this.wounds[m] as number) - 1;
          this.tracer?.regeneration(group, m);
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
   * ≥ WILL models (rulings §7); failing wastes the move, and a Heroic model gains 1 Torment.
   */
  private charges(dice: Dice, group: CompiledGroup, model: number, target: number): boolean {
    if (this.engaged[model] === 1 || group.weaponType !== WEAPON_MELEE) return true;
    const formationSize = this.inFormation[target] === 1 ? (this.aliveCount[target] as number) : 0;
    const testNeeded = formationSize > 0 && (this.chargeAtEquality ? formationSize >= group.will : formationSize > group.will);
    const refused = testNeeded && dice.d6() > group.will;
    if (testNeeded) this.tracer?.willTest(group, model, target, !refused);
    if (refused) {
      this.chargesRefused[group.side] = (this.chargesRefused[group.side] as number) + 1;
      if (group.heroic) this.torment[group.side] = (this.torment[group.side] as number) + 1;
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

  private aoeOnGroup(dice: Dice, group: CompiledGroup, attacker: number, target: number, inArea: number): void {
    const targetGroup = this.groups[target] as CompiledGroup;
    let hit = 0;
    for (let m = targetGroup.first; m < targetGroup.first + targetGroup.count && hit < inArea; m++) {
      if (this.alive[m] === 0) continue;
      hit++;
      const cell = group.index * this.groupCount + target;
      const whole = this.drawnWhole(dice, targetGroup, cell, group.atk, targetGroup.shielded ? 1 : 0, 1);
      if (whole >= 0) {
        this.tracer?.attack(group, attacker, 1, targetGroup, m, whole, group.atk, true);
        if (this.immune[cell] === 0) this.takeWounds(group, targetGroup, m, whole, cell);
        continue;
      }
      const rolled = targetGroup.woundScorer.roll(dice, group.atk);
      this.tracer?.attack(group, attacker, 1, targetGroup, m, rolled, group.atk, false);
      this.woundModel(dice, group, targetGroup, m, rolled, 1);
    }
    this.checkFormation(target);
  }

  /** One Attack Action of `figures` models (`model`, or −1 for a formation) rolling `diceCount` dice at one target group. */
  private attack(dice: Dice, group: CompiledGroup, model: number, figures: number, diceCount: number, target: number): void {
    const targetGroup = this.groups[target] as CompiledGroup;
    const cell = group.index * this.groupCount + target;
    const scorer = targetGroup.woundScorer;
    let rolled: number;
    let weaknessBonus = 1;
    if (figures > 1 && this.weaknessMode === 1 && this.weak[cell] === 1) {
      // Keep dice grouped by figure so only figures whose own dice succeeded add +1 (rulings §3).
      rolled = 0;
      weaknessBonus = 0;
      const perFigure = diceCount / figures;
      for (let f = 0; f < figures; f++) {
        const wounds = scorer.roll(dice, perFigure);
        this.tracer?.figureRolled(wounds);
        rolled += wounds;
        if (wounds > 0) weaknessBonus++;
      }
    } else {
      if (figures > 1 && this.weaknessMode === 0) weaknessBonus = figures;
      const formation = this.inFormation[target] === 1;
      // A formation's Shield dice, one per model (option every-model); per allocated model they are rolled in allocation.
      const shieldDice = !targetGroup.shielded ? 0 : !formation ? 1 : this.shieldEveryModel ? (this.aliveCount[target] as number) : 0;
      const whole = this.drawnWhole(dice, targetGroup, cell, diceCount, shieldDice, weaknessBonus);
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
    if (this.inFormation[target] === 1) this.woundFormation(dice, group, targetGroup, rolled, weaknessBonus);
    else this.woundModel(dice, group, targetGroup, this.pickModel(targetGroup, true), rolled, weaknessBonus);
  }

  /**
   * Method tables: the Wounds left after Weakness and the Shield roll, drawn in one pick
   * (attack-tables.ts), or −1 to go step by step (method dice, or a pool beyond the tables' range).
   * Against an Invulnerable target nothing is drawn (0).
   */
  private drawnWhole(dice: Dice, targetGroup: CompiledGroup, cell: number, diceCount: number, shieldDice: number, weaknessBonus: number): number {
    const tables = this.attackTables;
    const bonus = this.weak[cell] === 1 ? weaknessBonus : 0;
    if (tables === null || !tables.fits(diceCount, shieldDice, bonus)) return -1;
    if (this.immune[cell] === 1) return 0;
    return dice.pick(tables.table(targetGroup.def, diceCount, shieldDice, bonus));
  }

  /** Weakness (+bonus when ≥ 1 Wound was rolled) and the single Shield roll, in the optioned order (rulings §2–4). */
  private weaknessAndShield(dice: Dice, target: CompiledGroup, wounds: number, weak: boolean, bonus: number): number {
    let w = wounds;
    if (this.weaknessFirst && weak && w > 0) w = this.weakness(target, w, bonus);
    if (target.shielded && w > 0) {
      // One die on 5+: a pool of one (the same draw as a D6 when rolled; one pick from a table).
      const saved = this.shieldScorer.roll(dice, 1);
      w -= saved;
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
    this.takeWounds(group, targetGroup, model, this.weaknessAndShield(dice, targetGroup, rolled, this.weak[cell] === 1, bonus), cell);
  }

  /** A single model takes Wounds left after Weakness and Shield: Resistance, then the cap at MIGHT. */
  private takeWounds(group: CompiledGroup, targetGroup: CompiledGroup, model: number, wounds: number, cell: number): void {
    if (model < 0) return;
    let w = wounds;
    if (this.resist[cell] === 1 && w > 0) {
      w--;
      this.tracer?.resistance(targetGroup, model, w);
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
    if (targetGroup.shielded && this.shieldEveryModel && w > 0) {
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
    const resist = this.resist[cell] === 1;
    const shieldPerModel = targetGroup.shielded && !this.shieldEveryModel;
    let w = wounds;
    const stamp = ++this.attackStamp;
    while (w > 0 && (this.aliveCount[targetGroup.index] as number) > 0) {
      const model = this.pickModel(targetGroup, this.mostDamagedFirst);
      if (shieldPerModel && this.shieldStamp[model] !== stamp) {
        this.shieldStamp[model] = stamp;
        const saved = this.shieldScorer.roll(dice, 1);
        w -= saved;
        this.tracer?.shield(targetGroup, model, saved, w);
        if (w === 0) break;
      }
      if (resist) {
        w--;
        this.tracer?.resistance(targetGroup, model, w);
        if (w === 0) break;
      }
      const dealt = Math.min(w, targetGroup.might - (this.wounds[model] as number));
      this.inflict(group, targetGroup, model, dealt);
      w -= dealt;
    }
    this.checkFormation(targetGroup.index);
  }

  /** The living model with the most (or fewest) Wounds; ties go to the lowest id. */
  private pickModel(group: CompiledGroup, mostDamaged: boolean): number {
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
  private inflict(group: CompiledGroup, targetGroup: CompiledGroup, model: number, wounds: number): void {
    const room = targetGroup.might - (this.wounds[model] as number);
    const dealt = wounds < room ? wounds : room;
    this.wounds[model] = (this.wounds[model] as number) + dealt;
    this.woundsTaken[targetGroup.index] = (this.woundsTaken[targetGroup.index] as number) + dealt;
    if (group.side !== targetGroup.side) this.woundsDealt[group.side] = (this.woundsDealt[group.side] as number) + dealt;
    if (dealt === room) {
      this.alive[model] = 0;
      this.aliveCount[targetGroup.index] = (this.aliveCount[targetGroup.index] as number) - 1;
      this.sideAlive[targetGroup.side] = (this.sideAlive[targetGroup.side] as number) - 1;
    }
    this.tracer?.wound(targetGroup, model, wounds, dealt);
  }

  /** Breaking a Formation: below 3 models it is broken at once (rulings §8). */
  private checkFormation(g: number): void {
    if (this.inFormation[g] === 1 && (this.aliveCount[g] as number) < 3) {
      this.inFormation[g] = 0;
      this.formationBroken[g] = 1;
      this.tracer?.formationBroken(g);
    }
  }

  /** Healing ability: heal Wounds on the group's most damaged model at the end of its activation. */
  private heal(group: CompiledGroup): void {
    const model = this.pickModel(group, true);
    const healed = Math.min(group.heal, this.wounds[model] as number);
    this.wounds[model] = (this.wounds[model] as number) - healed;
    this.tracer?.heal(group, model, healed);
  }

  private writeRow(row: Int32Array, rounds: number): void {
    const aWiped = this.sideAlive[0] === 0;
    const bWiped = this.sideAlive[1] === 0;
    row[WINNER] = aWiped === bWiped ? 0 : bWiped ? 1 : 2;
    row[ROUNDS] = rounds;
    const sideSlots = this.slots.side;
    const groupSlots = this.slots.group;
    let lostA = 0;
    let lostB = 0;
    for (let g = 0; g < this.groupCount; g++) {
      const group = this.groups[g] as CompiledGroup;
      const lost = group.count - (this.aliveCount[g] as number);
      if (group.side === 0) lostA += lost;
      else lostB += lost;
      const slot = g * GROUP_SLOT_WIDTH;
      row[groupSlots[slot] as number] = this.woundsTaken[g] as number;
      row[groupSlots[slot + 1] as number] = lost;
      row[groupSlots[slot + 2] as number] = lost === group.count ? 1 : 0;
      const broken = groupSlots[slot + 3] as number;
      if (broken >= 0) row[broken] = this.formationBroken[g] as number;
    }
    for (let side = 0; side < 2; side++) {
      const slot = side * SIDE_SLOT_WIDTH;
      row[sideSlots[slot] as number] = this.woundsDealt[side] as number;
      row[sideSlots[slot + 1] as number] = side === 0 ? lostA : lostB;
      const refused = sideSlots[slot + 2] as number;
      if (refused >= 0) {
        row[refused] = this.chargesRefused[side] as number;
        row[sideSlots[slot + 3] as number] = this.torment[side] as number;
      }
    }
  }
}
