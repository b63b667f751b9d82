import { type Dice, RecordingDice } from '../dice/index.js';
import type { TraceSink } from '../kernel.js';
import { CONTACT_KINDS } from './codes.js';
import { type CompiledScenario, NO_SAVE } from './compile.js';

/**
 * Trace events of the Warmaster kernel: what one traced trial did, in order (`crucible replay`).
 * Units are named by their scenario id, sides by name. Each roll lists its faces: an attack's first
 * `dice` faces are its hit rolls, the rest the target's saves. Plain JSON values only.
 */
export type WarmasterTraceEvent =
  | {
      readonly type: 'shooting';
      readonly shooter: string;
      readonly target: string;
      readonly dice: number;
      readonly hitOn: number;
      readonly saveOn: number | null;
      readonly faces: readonly number[];
      readonly hits: number;
      readonly taken: number;
    }
  | { readonly type: 'round'; readonly round: number; readonly turn: number; readonly roundOfEngagement: number }
  /** `face`: the Attacks the charge dice add (their total, when rules.chargeBonusD6Dice is more than 1). */
  | { readonly type: 'chargeDice'; readonly unit: string; readonly dice: number; readonly face: number }
  | {
      readonly type: 'attack';
      readonly unit: string;
      readonly target: string;
      readonly stands: number;
      readonly contact: string;
      /** Each stand's Attacks after modifiers (before a character's or one stand's bonus). */
      readonly perStand: number;
      readonly dice: number;
      readonly lastDitch: boolean;
      readonly hitOn: number;
      readonly saveOn: number | null;
      readonly faces: readonly number[];
      readonly hits: number;
      readonly taken: number;
    }
  | {
      readonly type: 'result';
      readonly round: number;
      readonly results: readonly [number, number];
      readonly supports: readonly [number, number];
      readonly outcome: string;
    }
  /** `regenerated`: outstanding hits regenerated after the stands were removed (rulings §18). */
  | {
      readonly type: 'casualties';
      readonly unit: string;
      readonly hits: number;
      readonly removed: number;
      readonly outstanding: number;
      readonly regenerated: number;
      readonly destroyed: boolean;
    }
  | {
      readonly type: 'retreat';
      readonly unit: string;
      readonly cm: number;
      readonly destroyed: 'artillery' | 'blocked' | null;
      readonly standsLost: number;
    }
  | { readonly type: 'pursue'; readonly unit: string; readonly targets: readonly string[] }
  | { readonly type: 'unresolved'; readonly turn: number }
  | { readonly type: 'fallBack'; readonly side: string; readonly faces: readonly number[]; readonly cm: number }
  | { readonly type: 'advance'; readonly units: readonly string[]; readonly reserve: string }
  | { readonly type: 'end'; readonly winner: string; readonly rounds: number; readonly turns: number };

/** Builds the events; the kernel calls it only when a sink is set (one null check otherwise). */
export class WarmasterTracer {
  private recorder: RecordingDice | null = null;

  constructor(
    private readonly scenario: CompiledScenario,
    private readonly sink: TraceSink<WarmasterTraceEvent>,
  ) {}

  /** The dice a traced trial rolls: `dice` itself, recorded. */
  record(dice: Dice): Dice {
    this.recorder = new RecordingDice(dice);
    return this.recorder;
  }

  private faces(): number[] {
    return this.recorder?.take() ?? [];
  }

  private id(unit: number): string {
    return this.scenario.units[unit]?.id ?? `#${unit}`;
  }

  /** The target's save, its Armour `armourWorse` faces worse; null: none. */
  private saveOn(target: number, armourWorse: number): number | null {
    const save = (this.scenario.armour[target] ?? NO_SAVE) + armourWorse;
    return save < NO_SAVE ? save : null;
  }

  shooting(shooter: number, target: number, dice: number, hitOn: number, armourWorse: number, hits: number, taken: number): void {
    this.sink.event({
      type: 'shooting',
      shooter: this.id(shooter),
      target: this.id(target),
      dice,
      hitOn,
      saveOn: this.saveOn(target, armourWorse),
      faces: this.faces(),
      hits,
      taken,
    });
  }

  round(round: number, turn: number, roundOfEngagement: number): void {
    this.sink.event({ type: 'round', round, turn, roundOfEngagement });
  }

  /** The last `dice` faces rolled were the charge dice. */
  chargeDice(unit: number, dice: number): void {
    const faces = this.faces();
    const face = faces.slice(-dice).reduce((total, one) => total + one, 0);
    this.sink.event({ type: 'chargeDice', unit: this.id(unit), dice, face });
  }

  attack(
    unit: number,
    target: number,
    group: number,
    stands: number,
    perStand: number,
    dice: number,
    lastDitch: boolean,
    hitOn: number,
    armourWorse: number,
    hits: number,
    taken: number,
  ): void {
    this.sink.event({
      type: 'attack',
      unit: this.id(unit),
      target: this.id(target),
      stands,
      contact: CONTACT_KINDS[this.scenario.groupKind[group] ?? 0] ?? 'front',
      perStand,
      dice,
      lastDitch,
      hitOn,
      saveOn: this.saveOn(target, armourWorse),
      faces: this.faces(),
      hits,
      taken,
    });
  }

  result(round: number, result0: number, result1: number, supports0: number, supports1: number, outcome: string): void {
    this.sink.event({ type: 'result', round, results: [result0, result1], supports: [supports0, supports1], outcome });
  }

  casualties(unit: number, hits: number, removed: number, outstanding: number, regenerated: number, destroyed: boolean): void {
    this.sink.event({ type: 'casualties', unit: this.id(unit), hits, removed, outstanding, regenerated, destroyed });
  }

  retreat(unit: number, cm: number, destroyed: 'artillery' | 'blocked' | null, standsLost: number): void {
    this.faces(); // a blocked-retreat chance draws two packed pools: not shown
    this.sink.event({ type: 'retreat', unit: this.id(unit), cm, destroyed, standsLost });
  }

  pursue(unit: number, targets: readonly number[]): void {
    this.sink.event({ type: 'pursue', unit: this.id(unit), targets: targets.map((target) => this.id(target)) });
  }

  unresolved(turn: number): void {
    this.sink.event({ type: 'unresolved', turn });
  }

  fallBack(side: number, cm: number): void {
    this.sink.event({ type: 'fallBack', side: this.scenario.sideNames[side] ?? `side ${side}`, faces: this.faces(), cm });
  }

  advance(units: readonly number[], reserve: number): void {
    this.faces(); // the reach chance, if any
    this.sink.event({ type: 'advance', units: units.map((unit) => this.id(unit)), reserve: this.id(reserve) });
  }

  end(winner: string, rounds: number, turns: number): void {
    this.sink.event({ type: 'end', winner, rounds, turns });
    this.recorder = null;
  }
}

const dice = (faces: readonly number[]): string => (faces.length === 0 ? 'no dice' : faces.join(' '));
const PLURALS: Readonly<Record<string, string>> = { die: 'dice' };
const plural = (count: number, word: string): string => `${count} ${count === 1 ? word : (PLURALS[word] ?? `${word}s`)}`;

/** One event as [depth, text]: depth 0 round or outcome, 1 its steps. */
export function describeWarmasterEvent(event: WarmasterTraceEvent): readonly [number, string] {
  switch (event.type) {
    case 'shooting': {
      const saves = event.saveOn === null ? 'no save' : `saves on ${event.saveOn}+`;
      return [
        1,
        `${event.shooter} shoots at charging ${event.target}: ${plural(event.dice, 'die')} hit on ${event.hitOn}+, ${saves}: ${dice(event.faces)} → ${plural(event.taken, 'hit')} (counts toward round 1)`,
      ];
    }
    case 'round':
      return [0, `round ${event.round} (turn ${event.turn}, round ${event.roundOfEngagement} of the engagement)`];
    case 'chargeDice':
      return [1, `${event.unit} charges: +${event.face} Attacks (${event.dice === 1 ? '' : event.dice}D6)`];
    case 'attack': {
      const who = event.lastDitch
        ? `${event.unit}, ${plural(event.stands, 'stand')} at 0 (the last-ditch die)`
        : `${event.unit}, ${plural(event.stands, 'stand')} ${event.contact} at ${event.perStand}`;
      const saves = event.saveOn === null ? 'no save' : `saves on ${event.saveOn}+`;
      return [
        1,
        `${who} → ${event.target}: ${plural(event.dice, 'die')} hit on ${event.hitOn}+, ${saves}: ${dice(event.faces)} → ${plural(event.hits, 'hit')}, ${event.taken} taken`,
      ];
    }
    case 'result': {
      const [a, b] = event.results;
      const [supportA, supportB] = event.supports;
      return [1, `result ${a}–${b} (supports ${supportA}–${supportB}): ${event.outcome}`];
    }
    case 'casualties': {
      const after = event.destroyed
        ? 'destroyed'
        : `${plural(event.outstanding, 'hit')} carried${event.regenerated > 0 ? ` after regenerating ${event.regenerated}` : ''}`;
      return [1, `${event.unit}: ${plural(event.hits, 'hit')} → ${plural(event.removed, 'stand')} removed, ${after}`];
    }
    case 'retreat': {
      const fate =
        event.destroyed === 'artillery'
          ? ': artillery that retreats is destroyed'
          : event.destroyed === 'blocked'
            ? `: blocked, ${plural(event.standsLost, 'stand')} destroyed`
            : '';
      return [1, `${event.unit} retreats ${event.cm} cm${fate}`];
    }
    case 'pursue':
      return [1, `${event.unit} pursues ${event.targets.join(', ')}`];
    case 'unresolved':
      return [1, `the combat is unresolved: it goes on in turn ${event.turn}`];
    case 'fallBack':
      return [1, `${event.side} falls back up to ${event.cm} cm${event.faces.length === 0 ? '' : ` (${dice(event.faces)})`}`];
    case 'advance':
      return [1, `${event.units.join(', ')} advance${event.units.length === 1 ? 's' : ''} into ${event.reserve}`];
    case 'end':
      return [0, `outcome: ${event.winner} after ${plural(event.rounds, 'round')} in ${plural(event.turns, 'turn')}`];
  }
}

export function formatWarmasterTrace(events: readonly WarmasterTraceEvent[]): string[] {
  return events.map((event) => {
    const [depth, text] = describeWarmasterEvent(event);
    return `${'  '.repeat(depth)}${text}`;
  });
}
