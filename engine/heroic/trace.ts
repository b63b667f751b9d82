import { type Dice, RecordingDice } from '../dice/index.js';
import type { TraceSink } from '../kernel.js';
import type { CompiledGroup, CompiledScenario } from './compile.js';

/**
 * Trace events of the heroic kernel: what one traced trial did, in order (see `HeroicKernel.setTrace`
 * and `crucible replay`). Groups are named by their scenario id; models by their number within the
 * group, from 1 (`model: 2` of group `knights` is knights #2). Wound counts after a step are the
 * Attack Action's running total. Plain JSON values only, so `--json` prints events as they are.
 */
export type HeroicTraceEvent =
  | { readonly type: 'round'; readonly round: number }
  /** A group starts its activation with `models` living models (`formation`: still in formation). */
  | {
      readonly type: 'activation';
      readonly group: string;
      readonly unit: string;
      readonly side: number;
      readonly models: number;
      readonly formation: boolean;
    }
  /** A combined formation whose card already acted skips its first activation (rulings §8). */
  | { readonly type: 'exhausted'; readonly group: string }
  /** Regeneration (R) healed `healed` Wounds (rules.regenerationHeal at most) at the start of the activation (rulings §9). */
  | {
      readonly type: 'regeneration';
      readonly group: string;
      readonly model: number;
      readonly healed: number;
      readonly wounds: number;
      readonly might: number;
    }
  /** A single model's WILL test to charge a formation (rulings §6–7): passes on `roll` ≤ `will`; `tormentGained` by a Heroic model failing it. */
  | {
      readonly type: 'willTest';
      readonly group: string;
      readonly model: number;
      readonly target: string;
      readonly targetModels: number;
      readonly will: number;
      readonly roll: number;
      readonly passed: boolean;
      readonly torment: boolean;
      readonly tormentGained: number;
    }
  /**
   * ATK dice of one Attack Action, or for an AoE of one model in the area (`targetModel`).
   * `model` is the attacking model, null for a formation; `redirected` are split dice declared for a
   * target already gone; `figureWounds` the Wounds of each figure's own dice, kept only when
   * Weakness counts successful figures (option formationWeakness: per-successful-figure);
   * `invulnerable`: the target ignores this weapon, nothing more is rolled.
   */
  | {
      readonly type: 'attack';
      readonly kind: AttackKind;
      readonly group: string;
      readonly model: number | null;
      readonly figures: number;
      readonly target: string;
      readonly targetModel: number | null;
      readonly def: number;
      /** ATK dice rolled; `faces` is empty when their total was drawn from its table (method `tables`). */
      readonly dice: number;
      readonly faces: readonly number[];
      /** Wounds rolled; with `drawnWhole`, the Wounds left after Weakness and the Shield roll, drawn in one pick. */
      readonly wounds: number;
      readonly drawnWhole: boolean;
      readonly redirected: number;
      readonly figureWounds: readonly number[];
      readonly invulnerable: boolean;
    }
  | { readonly type: 'weakness'; readonly target: string; readonly bonus: number; readonly wounds: number }
  /**
   * Shield roll(s) on rules.shieldSave+: `model` null for the whole target (a single model, or one die per
   * model of a formation); `saves`: the Wounds they ignore (rules.shieldWounds per success).
   */
  | {
      readonly type: 'shield';
      readonly target: string;
      readonly model: number | null;
      readonly faces: readonly number[];
      readonly saves: number;
      readonly wounds: number;
    }
  /** Resistance ignored `ignored` Wounds (rules.resistanceReduction at most; rulings §3). */
  | { readonly type: 'resistance'; readonly target: string; readonly model: number; readonly ignored: number; readonly wounds: number }
  /** Wounds applied to one model (`lost`: beyond its MIGHT, rulings §5). */
  | {
      readonly type: 'wound';
      readonly target: string;
      readonly model: number;
      readonly wounds: number;
      readonly lost: number;
      readonly total: number;
      readonly might: number;
      readonly vanquished: boolean;
    }
  /** A formation left with fewer than `minimum` (rules.formationMinimum) models broke (rulings §8). */
  | { readonly type: 'formationBroken'; readonly group: string; readonly models: number; readonly minimum: number }
  | {
      readonly type: 'heal';
      readonly group: string;
      readonly model: number;
      readonly healed: number;
      readonly wounds: number;
      readonly might: number;
    }
  /** `winner`: 0 none, 1 or 2 the side (as the `winner` metric); `modelsLeft` per side. */
  | {
      readonly type: 'end';
      readonly rounds: number;
      readonly winner: number;
      readonly winnerName: string | null;
      readonly modelsLeft: readonly [number, number];
    };

export type AttackKind = 'formation' | 'single' | 'split' | 'aoe';

/** The kernel state the tracer reads: views of the kernel's arrays, never written here. */
export interface HeroicTraceState {
  /** Per model. */
  readonly wounds: Int32Array;
  readonly alive: Int32Array;
  /** Per group. */
  readonly aliveCount: Int32Array;
  readonly inFormation: Int32Array;
  /** Per side. */
  readonly sideAlive: Int32Array;
}

/**
 * Builds the events from the kernel's integer state. The kernel calls it only when a sink is set
 * (`this.tracer?.…`), so an untraced trial builds nothing; what the tracer can read from the state
 * it reads, so each call site in the kernel stays short.
 */
export class HeroicTracer {
  private recorder: RecordingDice | null = null;
  private figureWounds: number[] = [];

  constructor(
    private readonly scenario: CompiledScenario,
    private readonly state: HeroicTraceState,
    private readonly sink: TraceSink<HeroicTraceEvent>,
  ) {}

  private count(array: Int32Array, index: number): number {
    return array[index] ?? 0;
  }

  /** The dice a traced trial rolls: `dice` itself, recorded. */
  record(dice: Dice): Dice {
    this.recorder = new RecordingDice(dice);
    this.figureWounds = [];
    return this.recorder;
  }

  private faces(): number[] {
    return this.recorder === null ? [] : this.recorder.take();
  }

  private id(group: number): string {
    return this.scenario.groups[group]?.id ?? `#${group}`;
  }

  round(round: number): void {
    this.sink.event({ type: 'round', round });
  }

  activation(group: CompiledGroup): void {
    const { aliveCount, inFormation } = this.state;
    const formation = inFormation[group.index] === 1;
    this.sink.event({
      type: 'activation',
      group: group.id,
      unit: group.unit.name,
      side: group.side,
      models: this.count(aliveCount, group.index),
      formation,
    });
  }

  exhausted(group: CompiledGroup): void {
    this.sink.event({ type: 'exhausted', group: group.id });
  }

  regeneration(group: CompiledGroup, model: number, healed: number): void {
    const wounds = this.count(this.state.wounds, model);
    this.sink.event({ type: 'regeneration', group: group.id, model: model - group.first + 1, healed, wounds, might: group.might });
  }

  /** Called right after the test's D6, which is the last face drawn. */
  willTest(group: CompiledGroup, model: number, target: number, passed: boolean): void {
    const roll = this.faces().at(-1) ?? 0;
    const targetModels = this.count(this.state.aliveCount, target);
    const torment = !passed && group.heroic;
    const tormentGained = torment ? this.scenario.rules.chargeTorment : 0;
    this.sink.event({
      type: 'willTest',
      group: group.id,
      model: model - group.first + 1,
      target: this.id(target),
      targetModels,
      will: group.will,
      roll,
      passed,
      torment,
      tormentGained,
    });
  }

  /** Per-successful-figure Weakness: one figure's dice scored `wounds`. */
  figureRolled(wounds: number): void {
    this.figureWounds.push(wounds);
  }

  /** Called right after the ATK dice; `model` −1 for a formation, `targetModel` −1 unless AoE. */
  /** `drawnWhole`: `wounds` are what is left after Weakness and Shield, drawn in one pick (method tables). */
  attack(
    group: CompiledGroup,
    model: number,
    figures: number,
    target: CompiledGroup,
    targetModel: number,
    wounds: number,
    diceCount: number,
    drawnWhole: boolean,
  ): void {
    const faces = this.faces();
    const figureWounds = this.figureWounds;
    this.figureWounds = [];
    const kind: AttackKind = targetModel >= 0 ? 'aoe' : group.split.length > 0 ? 'split' : model < 0 ? 'formation' : 'single';
    this.sink.event({
      type: 'attack',
      kind,
      group: group.id,
      model: model < 0 ? null : model - group.first + 1,
      figures,
      target: target.id,
      targetModel: targetModel < 0 ? null : targetModel - target.first + 1,
      def: target.def,
      dice: diceCount,
      faces,
      wounds,
      drawnWhole,
      redirected: kind === 'split' ? diceCount - this.declaredSplitDice(group, target.index) : 0,
      figureWounds,
      invulnerable: this.scenario.immune[group.index * this.scenario.groups.length + target.index] === 1,
    });
  }

  /** Dice a split declared for `target` (the kernel adds dice declared for targets already gone). */
  private declaredSplitDice(group: CompiledGroup, target: number): number {
    for (let i = 0; i < group.split.length; i += 2) if (group.split[i] === target) return group.split[i + 1] ?? 0;
    return 0;
  }

  weakness(target: CompiledGroup, bonus: number, wounds: number): void {
    this.sink.event({ type: 'weakness', target: target.id, bonus, wounds });
  }

  /** Called right after the Shield dice (one D6, or a pool); `model` −1 for the whole target. */
  shield(target: CompiledGroup, model: number, saves: number, wounds: number): void {
    const model1 = model < 0 ? null : model - target.first + 1;
    this.sink.event({ type: 'shield', target: target.id, model: model1, faces: this.faces(), saves, wounds });
  }

  resistance(target: CompiledGroup, model: number, ignored: number, wounds: number): void {
    this.sink.event({ type: 'resistance', target: target.id, model: model - target.first + 1, ignored, wounds });
  }

  /** `wounds` allocated to `model`, of which it took `dealt` (the rest beyond its MIGHT). */
  wound(target: CompiledGroup, model: number, wounds: number, dealt: number): void {
    this.sink.event({
      type: 'wound',
      target: target.id,
      model: model - target.first + 1,
      wounds: dealt,
      lost: wounds - dealt,
      total: this.count(this.state.wounds, model),
      might: target.might,
      vanquished: this.state.alive[model] === 0,
    });
  }

  formationBroken(group: number): void {
    const minimum = this.scenario.rules.formationMinimum;
    this.sink.event({ type: 'formationBroken', group: this.id(group), models: this.count(this.state.aliveCount, group), minimum });
  }

  heal(group: CompiledGroup, model: number, healed: number): void {
    const wounds = this.count(this.state.wounds, model);
    this.sink.event({ type: 'heal', group: group.id, model: model - group.first + 1, healed, wounds, might: group.might });
  }

  end(rounds: number, winner: number): void {
    const winnerName = winner === 0 ? null : (this.scenario.sideNames[winner - 1] ?? null);
    const modelsLeft: [number, number] = [this.count(this.state.sideAlive, 0), this.count(this.state.sideAlive, 1)];
    this.sink.event({ type: 'end', rounds, winner, winnerName, modelsLeft });
    this.recorder = null;
  }
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const wounds = (count: number): string => plural(count, 'Wound');
const facesText = (faces: readonly number[]): string => `[${faces.join(' ')}]`;
/** Faces as rolled; none when the total was drawn whole from its table (method `tables`). */
const diceText = (count: number, faces: readonly number[]): string =>
  `${count} ${count === 1 ? 'die' : 'dice'} ${faces.length === count ? facesText(faces) : '(total drawn from its table)'}`;
const modelName = (group: string, model: number | null): string => (model === null ? group : `${group} #${model}`);

function activationText(event: Extract<HeroicTraceEvent, { type: 'activation' }>): string {
  const size = event.formation ? `formation of ${event.models}` : plural(event.models, 'model');
  return `${event.group} (${event.unit}, ${size}) activates`;
}

function attackText(event: Extract<HeroicTraceEvent, { type: 'attack' }>): string {
  const attacker = event.kind === 'formation' ? `${event.group} (${plural(event.figures, 'figure')})` : modelName(event.group, event.model);
  const verb = event.kind === 'aoe' ? 'AoE hits' : event.kind === 'formation' ? 'attack' : 'attacks';
  const split =
    event.kind === 'split'
      ? ` (split${event.redirected > 0 ? `, ${event.redirected} dice redirected from a target already gone` : ''})`
      : '';
  const perFigure = event.figureWounds.length > 0 ? ` (per figure: ${event.figureWounds.join(' ')})` : '';
  const immune = event.invulnerable ? ` — ${event.target} is Invulnerable to it: no Wounds` : '';
  // Drawn whole (method tables): the total after Weakness and Shield, no faces.
  const dice = event.drawnWhole ? `${event.dice} ${event.dice === 1 ? 'die' : 'dice'}` : diceText(event.dice, event.faces);
  const whole = event.drawnWhole ? ' after Weakness and Shield (drawn whole from its exact table)' : '';
  return `${attacker} ${verb} ${modelName(event.target, event.targetModel)}${split}: ${dice} vs DEF ${event.def} → ${wounds(event.wounds)}${whole}${perFigure}${immune}`;
}

function endText(event: Extract<HeroicTraceEvent, { type: 'end' }>): string {
  const [leftA, leftB] = event.modelsLeft;
  const left = `models left ${leftA} vs ${leftB}`;
  if (event.winnerName !== null) return `outcome: ${event.winnerName} won in round ${event.rounds} (every enemy model vanquished; ${left})`;
  if (leftA === 0 && leftB === 0) return `outcome: no winner, both sides wiped out in round ${event.rounds}`;
  return `outcome: no winner after ${plural(event.rounds, 'round')} (${left})`;
}

/** One event as [depth, text]: depth 0 round, 1 activation, 2 its actions, 3 an Attack Action's steps. */
export function describeHeroicEvent(event: HeroicTraceEvent): readonly [number, string] {
  switch (event.type) {
    case 'round':
      return [0, `round ${event.round}`];
    case 'activation':
      return [1, activationText(event)];
    case 'exhausted':
      return [2, 'exhausted: a card of this combined formation already acted, so it does not act (rulings §8)'];
    case 'regeneration':
      return [2, `Regeneration: ${event.group} #${event.model} heals ${wounds(event.healed)} (${event.wounds}/${event.might})`];
    case 'willTest': {
      const outcome = event.passed ? 'charges' : `refuses to charge${event.torment ? ` (+${event.tormentGained} Torment)` : ''}`;
      const test = `WILL test (needs ≤ ${event.will}) to charge ${event.target} (formation of ${event.targetModels})`;
      return [2, `${event.group} #${event.model} ${test}: rolled ${event.roll} → ${outcome}`];
    }
    case 'attack':
      return [2, attackText(event)];
    case 'weakness':
      return [3, `Weakness: +${event.bonus} → ${wounds(event.wounds)}`];
    case 'shield': {
      const whose = event.model === null ? '' : ` of ${event.target} #${event.model}`;
      const dice =
        event.faces.length === 0
          ? '(drawn from its table)'
          : event.model === null
            ? diceText(event.faces.length, event.faces)
            : facesText(event.faces);
      // A model's own Shield die comes during allocation: what it leaves is still to allocate.
      return [3, `Shield${whose}: ${dice} saves ${event.saves} → ${wounds(event.wounds)}${event.model === null ? '' : ' left'}`];
    }
    case 'resistance':
      return [3, `Resistance of ${event.target} #${event.model} ignores ${wounds(event.ignored)} → ${wounds(event.wounds)} left`];
    case 'wound': {
      const lost = event.lost > 0 ? `; ${wounds(event.lost)} beyond MIGHT lost` : '';
      return [
        3,
        `${event.target} #${event.model} takes ${wounds(event.wounds)} (${event.total}/${event.might})${event.vanquished ? ' — vanquished' : ''}${lost}`,
      ];
    }
    case 'formationBroken':
      return [3, `${event.group}: formation broken, ${plural(event.models, 'model')} left (fewer than ${event.minimum})`];
    case 'heal':
      return [2, `Healing: ${event.group} #${event.model} heals ${wounds(event.healed)} (${event.wounds}/${event.might})`];
    case 'end':
      return [0, endText(event)];
  }
}

/** A trace as readable lines, indented two spaces per depth. */
export function formatHeroicTrace(events: readonly HeroicTraceEvent[]): string[] {
  return events.map((event) => {
    const [depth, text] = describeHeroicEvent(event);
    return `${'  '.repeat(depth)}${text}`;
  });
}
