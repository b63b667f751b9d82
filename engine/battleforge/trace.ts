import { type Dice, RecordingDice } from '../dice/index.js';
import type { TraceSink } from '../kernel.js';
import type { CompiledScenario } from './compile.js';
import { PLANS } from './terms.js';

/**
 * Trace events of the Battle Forge kernel: what one traced trial did, in order (`crucible replay`).
 * Units are named by their scenario id, sides by name. `faces` are the D10s a step rolled; they are
 * empty where method `tables` drew the outcome whole (a volley's hits, a save, a test's pass or
 * fail). `on` is what a die must show or less to pass, after the automatic pass and failure.
 * Plain JSON values only, so `--json` prints the events as they are.
 */
export type BattleforgeTraceEvent =
  | { readonly type: 'round'; readonly round: number }
  /**
   * Bidding Phase (rulings §25): the bids declared and as counted (0 when forfeited), who activates
   * first and how many; `rollOff`: the D10s of a roll-off (A's, B's, again on a tie), [] when its
   * winner was drawn whole (method `tables`), null when there was none.
   */
  | {
      readonly type: 'bidding';
      readonly sides: readonly [string, string];
      readonly declared: readonly [number, number];
      readonly counted: readonly [number, number];
      readonly first: string;
      readonly firstActivations: number;
      readonly rollOff: readonly number[] | null;
    }
  | { readonly type: 'activation'; readonly unit: string; readonly plan: string; readonly shock: number }
  /** Removing Shock (or a Rally action): one Courage test per Shock, each pass removes one. */
  | {
      readonly type: 'shockTests';
      readonly unit: string;
      readonly rally: boolean;
      readonly on: number;
      readonly tests: number;
      readonly faces: readonly number[];
      readonly removed: number;
      readonly shock: number;
    }
  | { readonly type: 'action'; readonly unit: string; readonly action: ActionName; readonly target: string | null }
  /** A move toward (or, `away`, from) a unit: the inches moved and the distance left between them. */
  | {
      readonly type: 'move';
      readonly unit: string;
      readonly from: string;
      readonly away: boolean;
      readonly inches: number;
      readonly distance: number;
    }
  /** A charge: the distance and the reach (with a Rush), and whether it made base contact. */
  | {
      readonly type: 'charge';
      readonly unit: string;
      readonly target: string;
      readonly distance: number;
      readonly reach: number;
      readonly contact: boolean;
    }
  | {
      readonly type: 'test';
      readonly unit: string;
      readonly test: 'initiative' | 'courage';
      readonly purpose: TestPurpose;
      readonly on: number;
      readonly faces: readonly number[];
      readonly passed: boolean;
    }
  /** A reaction tried (rulings §23): its Initiative test (`on` null: automatic, on Hold) and whether it worked. */
  | {
      readonly type: 'reaction';
      readonly unit: string;
      readonly reaction: ReactionName;
      readonly against: string;
      readonly on: number | null;
      readonly faces: readonly number[];
      readonly succeeded: boolean;
    }
  | { readonly type: 'attack'; readonly attacker: string; readonly target: string; readonly attack: AttackKind; readonly distance: number }
  /** One weapon's hit dice (all its models' attacks × copies). */
  | {
      readonly type: 'hits';
      readonly unit: string;
      readonly weapon: string;
      readonly dice: number;
      readonly on: number;
      readonly faces: readonly number[];
      readonly hits: number;
    }
  /** The saves of hits given to `target` (rulings §20): one `on` per pooled roll or per hit. */
  | {
      readonly type: 'saves';
      readonly target: string;
      readonly hits: number;
      /** Saves rolled: fewer than the hits when the unit was gone before the last of them. */
      readonly rolled: number;
      readonly ap: number;
      readonly on: readonly number[];
      readonly faces: readonly number[];
      readonly saved: number;
      readonly woundsLost: number;
      readonly modelsLost: number;
    }
  | { readonly type: 'shock'; readonly unit: string; readonly gained: number; readonly shock: number; readonly cause: ShockCause }
  /** A unit that failed its break test (rulings §22): it leaves the fight, surrenders, or was destroyed falling back. */
  | { readonly type: 'broken'; readonly unit: string; readonly fate: 'leaves' | 'surrenders' | 'destroyed' }
  | { readonly type: 'destroyed'; readonly unit: string }
  /** A power cast (Using Powers): the D10, the roll with Shock added, the cast value. */
  | {
      readonly type: 'power';
      readonly unit: string;
      readonly power: string;
      readonly target: string;
      readonly face: number;
      readonly rolled: number;
      readonly cast: number;
      readonly outcome: 'miscast' | 'failed' | 'cast';
    }
  | {
      readonly type: 'stop';
      readonly unit: string;
      readonly power: string;
      readonly face: number;
      readonly rolled: number;
      readonly stopped: boolean;
    }
  | { readonly type: 'end'; readonly winner: string; readonly rounds: number; readonly decisiveRound: number };

export type ActionName = 'shoot' | 'fight' | 'charge' | 'move' | 'focus' | 'evade' | 'hold' | 'rally' | 'power';
export type ReactionName = 'counter-attack' | 'dodge' | 'escape' | 'overwatch';
export type AttackKind = 'shoot' | 'fight' | 'free fight' | 'overwatch' | 'counter-attack' | 'free attack' | 'power';
export type TestPurpose = 'rush' | 'fall back' | 'break';
export type ShockCause = 'bid' | 'hit' | 'destroyed nearby' | 'failed reaction' | 'failed rush' | 'miscast' | 'power';

/** Builds the events; the kernel calls it only when a sink is set (one null check otherwise). */
export class BattleforgeTracer {
  private recorder: RecordingDice | null = null;
  private saveTargets: number[] = [];
  /** Bid Shock given out (unit, its Shock after), reported after the bidding event. */
  private bidShock: number[] = [];

  constructor(
    private readonly scenario: CompiledScenario,
    private readonly sink: TraceSink<BattleforgeTraceEvent>,
  ) {}

  /** The dice a traced trial rolls: `dice` itself, recorded. */
  record(dice: Dice): Dice {
    this.recorder = new RecordingDice(dice);
    this.saveTargets = [];
    this.bidShock = [];
    return this.recorder;
  }

  /** The faces drawn since the last event. */
  private faces(): number[] {
    return this.recorder?.take() ?? [];
  }

  private id(unit: number): string {
    return this.scenario.units[unit]?.id ?? `#${unit}`;
  }

  round(round: number): void {
    this.sink.event({ type: 'round', round });
  }

  /** One bid Shock given to `unit` (now at `shock`): reported with the bidding. */
  bidShockGiven(unit: number, shock: number): void {
    this.bidShock.push(unit, shock);
  }

  bidding(
    declared0: number,
    declared1: number,
    counted0: number,
    counted1: number,
    firstSide: number,
    firstActivations: number,
    rolledOff: boolean,
    drawnWhole: boolean,
  ): void {
    const faces = this.faces(); // a roll-off drawn whole (a fair coin) takes D6 pools: not D10s, not shown
    this.sink.event({
      type: 'bidding',
      sides: this.scenario.sideNames,
      declared: [declared0, declared1],
      counted: [counted0, counted1],
      first: this.scenario.sideNames[firstSide] ?? `side ${firstSide}`,
      firstActivations,
      rollOff: rolledOff ? (drawnWhole ? [] : faces) : null,
    });
    const given = this.bidShock;
    this.bidShock = [];
    for (let i = 0; i < given.length; i += 2) this.shock(given[i] ?? 0, 1, given[i + 1] ?? 0, 'bid');
  }

  activation(unit: number, plan: number, shock: number): void {
    this.sink.event({ type: 'activation', unit: this.id(unit), plan: PLANS[plan] ?? `plan ${plan}`, shock });
  }

  shockTests(unit: number, rally: boolean, on: number, tests: number, removed: number, shock: number): void {
    this.sink.event({ type: 'shockTests', unit: this.id(unit), rally, on, tests, faces: this.faces(), removed, shock });
  }

  action(unit: number, action: ActionName, target: number): void {
    this.sink.event({ type: 'action', unit: this.id(unit), action, target: target < 0 ? null : this.id(target) });
  }

  move(unit: number, from: number, away: boolean, inches: number, distance: number): void {
    this.sink.event({ type: 'move', unit: this.id(unit), from: this.id(from), away, inches, distance });
  }

  charge(unit: number, target: number, distance: number, reach: number, contact: boolean): void {
    this.sink.event({ type: 'charge', unit: this.id(unit), target: this.id(target), distance, reach, contact });
  }

  test(unit: number, test: 'initiative' | 'courage', purpose: TestPurpose, on: number, passed: boolean): void {
    this.sink.event({ type: 'test', unit: this.id(unit), test, purpose, on, faces: this.faces(), passed });
  }

  reaction(unit: number, reaction: ReactionName, against: number, on: number | null, succeeded: boolean): void {
    this.sink.event({ type: 'reaction', unit: this.id(unit), reaction, against: this.id(against), on, faces: this.faces(), succeeded });
  }

  attack(attacker: number, target: number, attack: AttackKind, distance: number): void {
    this.sink.event({ type: 'attack', attacker: this.id(attacker), target: this.id(target), attack, distance });
  }

  hits(unit: number, weapon: number, dice: number, on: number, hits: number): void {
    if (dice === 0) return; // a weapon without attacks (a Shield): nothing rolled
    this.sink.event({
      type: 'hits',
      unit: this.id(unit),
      weapon: this.scenario.weaponName[weapon] ?? `weapon ${weapon}`,
      dice,
      on,
      faces: this.faces(),
      hits,
    });
  }

  /** The target number of the next save roll (a pooled roll, or one hit's): collected for `saves`. */
  saveOn(on: number): void {
    this.saveTargets.push(on);
  }

  saves(target: number, hits: number, rolled: number, ap: number, saved: number, woundsLost: number, modelsLost: number): void {
    const on = this.saveTargets;
    this.saveTargets = [];
    this.sink.event({ type: 'saves', target: this.id(target), hits, rolled, ap, on, faces: this.faces(), saved, woundsLost, modelsLost });
  }

  shock(unit: number, gained: number, shock: number, cause: ShockCause): void {
    this.sink.event({ type: 'shock', unit: this.id(unit), gained, shock, cause });
  }

  broken(unit: number, fate: 'leaves' | 'surrenders' | 'destroyed'): void {
    this.faces(); // the surrender chance (option surrender) takes D6 pools: not shown
    this.sink.event({ type: 'broken', unit: this.id(unit), fate });
  }

  destroyed(unit: number): void {
    this.sink.event({ type: 'destroyed', unit: this.id(unit) });
  }

  power(unit: number, power: number, target: number, rolled: number, outcome: 'miscast' | 'failed' | 'cast'): void {
    const face = this.faces()[0] ?? 0;
    const name = this.scenario.powerName[power] ?? `power ${power}`;
    this.sink.event({
      type: 'power',
      unit: this.id(unit),
      power: name,
      target: this.id(target),
      face,
      rolled,
      cast: this.scenario.powerCast[power] ?? 0,
      outcome,
    });
  }

  stop(unit: number, power: number, rolled: number, stopped: boolean): void {
    this.sink.event({
      type: 'stop',
      unit: this.id(unit),
      power: this.scenario.powerName[power] ?? `power ${power}`,
      face: this.faces()[0] ?? 0,
      rolled,
      stopped,
    });
  }

  end(winner: string, rounds: number, decisiveRound: number): void {
    this.sink.event({ type: 'end', winner, rounds, decisiveRound });
    this.recorder = null;
  }
}

const PLURALS: Readonly<Record<string, string>> = {
  die: 'dice',
  Wound: 'Wounds',
  model: 'models',
  hit: 'hits',
  round: 'rounds',
  unit: 'units',
};
const plural = (count: number, word: string): string => `${count} ${count === 1 ? word : (PLURALS[word] ?? `${word}s`)}`;
const inches = (value: number): string => `${Number.isInteger(value) ? value : value.toFixed(1)}"`;
/** Faces rolled, or how the outcome was drawn when it has none. */
const rolled = (faces: readonly number[]): string => (faces.length === 0 ? 'drawn whole' : faces.join(' '));
const passFail = (passed: boolean): string => (passed ? 'passed' : 'failed');
const ACTION_TEXT: Readonly<Record<ActionName, string>> = {
  shoot: 'shoot at',
  fight: 'fight',
  charge: 'charge',
  move: 'move toward',
  focus: 'focus',
  evade: 'evade',
  hold: 'hold',
  rally: 'rally',
  power: 'use powers',
};
const TEST_TEXT: Readonly<Record<TestPurpose, string>> = { rush: 'Rush', 'fall back': 'falling back', break: 'break test' };

/** One event as [depth, text]: 0 a round or the outcome, 1 the bidding and activations, 2 actions, 3 their steps, 4 dice of an attack. */
export function describeBattleforgeEvent(event: BattleforgeTraceEvent): readonly [number, string] {
  switch (event.type) {
    case 'round':
      return [0, `round ${event.round}`];
    case 'bidding': {
      const bids = event.sides.map(
        (name, side) => `${name} ${event.declared[side]}${event.counted[side] !== event.declared[side] ? ' (forfeited)' : ''}`,
      );
      const rollOff =
        event.rollOff === null ? '' : event.rollOff.length === 0 ? '; roll-off drawn whole' : `; roll-off ${event.rollOff.join(' ')}`;
      return [1, `bidding: ${bids.join(', ')}${rollOff}: ${event.first} activates ${plural(event.firstActivations, 'unit')} first`];
    }
    case 'activation':
      return [1, `${event.unit} activates (${event.plan}, Shock ${event.shock})`];
    case 'shockTests':
      return [
        2,
        `${event.rally ? 'rallies: ' : ''}${plural(event.tests, 'Courage test')} on ≤${event.on}: ${rolled(event.faces)} → ${event.removed} Shock removed, ${event.shock} left`,
      ];
    case 'action':
      return [2, event.target === null ? ACTION_TEXT[event.action] : `${ACTION_TEXT[event.action]} ${event.target}`];
    case 'move':
      return [
        3,
        `${event.unit} moves ${inches(event.inches)} ${event.away ? 'away from' : 'toward'} ${event.from}: ${inches(event.distance)} apart`,
      ];
    case 'charge':
      return [
        3,
        `${event.unit} charges ${event.target} ${inches(event.distance)} away, reach ${inches(event.reach)}: ${event.contact ? 'base contact' : 'falls short'}`,
      ];
    case 'test':
      return [
        3,
        `${event.unit}: ${TEST_TEXT[event.purpose]}, ${event.test === 'initiative' ? 'Initiative' : 'Courage'} on ≤${event.on}: ${rolled(event.faces)} → ${passFail(event.passed)}`,
      ];
    case 'reaction': {
      const test = event.on === null ? 'automatic (on Hold)' : `Initiative on ≤${event.on}: ${rolled(event.faces)}`;
      return [3, `${event.unit} reacts to ${event.against} with ${event.reaction}: ${test} → ${event.succeeded ? 'done' : 'failed'}`];
    }
    case 'attack':
      return [3, `${event.attacker} → ${event.target}: ${event.attack} at ${inches(event.distance)}`];
    case 'hits':
      return [
        4,
        `${event.weapon}: ${plural(event.dice, 'die')} hitting on ≤${event.on}: ${rolled(event.faces)} → ${plural(event.hits, 'hit')}`,
      ];
    case 'saves': {
      const distinct = [...new Set(event.on)];
      const on = distinct.length === 1 ? `≤${distinct[0]}` : `≤${event.on.join('/')}`;
      const gone = event.rolled < event.hits ? ` (${event.rolled} rolled: then no model was left)` : '';
      return [
        4,
        `${event.target} saves ${plural(event.hits, 'hit')}${gone} (AP ${event.ap}) on ${on}: ${rolled(event.faces)} → ${event.saved} saved, ${plural(event.woundsLost, 'Wound')} lost, ${plural(event.modelsLost, 'model')} removed`,
      ];
    }
    case 'shock':
      return [event.cause === 'bid' ? 2 : 3, `${event.unit} gains ${event.gained} Shock (${event.cause}): ${event.shock}`];
    case 'broken':
      return [
        3,
        event.fate === 'leaves'
          ? `${event.unit} breaks and leaves the fight`
          : event.fate === 'surrenders'
            ? `${event.unit} breaks and surrenders: destroyed`
            : `${event.unit} breaks, destroyed as it falls back`,
      ];
    case 'destroyed':
      return [3, `${event.unit} is destroyed`];
    case 'power': {
      const outcome = event.outcome === 'miscast' ? 'miscast' : event.outcome === 'failed' ? 'fails' : 'cast';
      return [
        3,
        `${event.unit} casts ${event.power} at ${event.target}: ${event.face} + Shock = ${event.rolled} against ${event.cast} → ${outcome}`,
      ];
    }
    case 'stop':
      return [
        4,
        `${event.unit} tries to stop ${event.power}: ${event.face} against ${event.rolled} → ${event.stopped ? 'stopped' : 'not stopped'}`,
      ];
    case 'end':
      return [
        0,
        `outcome: ${event.winner} after ${plural(event.rounds, 'round')}${event.decisiveRound > 0 ? ` (decided in round ${event.decisiveRound})` : ''}`,
      ];
  }
}

/** A traced trial as text, one indented line per event (`crucible replay`). */
export function formatBattleforgeTrace(events: readonly BattleforgeTraceEvent[]): string[] {
  return events.map((event) => {
    const [depth, text] = describeBattleforgeEvent(event);
    return `${'  '.repeat(depth)}${text}`;
  });
}
