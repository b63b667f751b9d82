import type { TraceSink } from '../kernel.js';
import type { CompiledScenario } from './compile.js';

/**
 * Trace events of the Epic kernel: what one traced trial did, in order (`crucible replay`).
 * Formations are named by their scenario id, players by name. Every die of the rules is a single
 * value the kernel already holds (a Rally test's face, a roll-off's pair), so the tracer is handed
 * those values: a traced trial calls the same dice in the same order as an untraced one, and the
 * count inputs and per-turn chances (drawn whole, not dice of the rules) show as their outcomes.
 * Plain JSON values only.
 */
export type EpicTraceEvent =
  | { readonly type: 'turn'; readonly turn: number }
  /**
   * One formation's Action phase (rulings §28): a Broken one cannot activate and only loses units;
   * another loses units, then takes Blast markers. `units` and `markers` are what it has after.
   */
  | {
      readonly type: 'action';
      readonly formation: string;
      readonly broken: boolean;
      readonly unitsLost: number;
      readonly markersTaken: number;
      readonly units: number;
      readonly markers: number;
    }
  /** Its markers reached `breaksAt` (units × rules.breakMarkersPerUnit): Broken; `markersRemoved` by option markersOnBreak (rulings §27). */
  | {
      readonly type: 'break';
      readonly formation: string;
      readonly markers: number;
      readonly units: number;
      readonly breaksAt: number;
      readonly markersRemoved: number;
    }
  /** A withdrawal move: when it broke, or a Broken formation failed to rally (FAQ). */
  | { readonly type: 'withdrawal'; readonly formation: string; readonly unitsLost: number; readonly units: number }
  /**
   * The End phase opens: who rallies first (rulings §28) — the higher Strategy Rating, the roll-off's
   * pairs of faces (re-rolled while equal; the first die the first player's), a fair coin (method
   * `tables`), the first player (option firstInRallyTie), or the only player.
   */
  | {
      readonly type: 'endPhase';
      readonly turn: number;
      readonly first: string;
      readonly by: RallyOrderReason;
      readonly strategyRatings: readonly number[];
      readonly rollOff: readonly (readonly [number, number])[];
    }
  /**
   * A Rally test (rulings §26): `face` on a D`die`, plus `brokenModifier` and `enemyModifier` (0 when
   * they do not apply), is `score`, passed when at least `initiative`.
   */
  | {
      readonly type: 'rally';
      readonly formation: string;
      readonly player: string;
      readonly broken: boolean;
      readonly die: number;
      readonly face: number;
      readonly brokenModifier: number;
      readonly enemyWithin30: boolean;
      readonly offTable: boolean;
      readonly enemyModifier: number;
      readonly score: number;
      readonly initiative: number;
      readonly passed: boolean;
    }
  /** A passed test's markers (rulings §27): `added` for a Broken formation's units, then `removed`, leaving `markers`. */
  | {
      readonly type: 'rallied';
      readonly formation: string;
      readonly wasBroken: boolean;
      readonly added: number;
      readonly removed: number;
      readonly markers: number;
    }
  /** After the last End phase, every formation. */
  | { readonly type: 'end'; readonly turns: number; readonly formations: readonly EpicFormationEnd[] };

export type RallyOrderReason = 'strategy-rating' | 'roll-off' | 'coin' | 'first-player' | 'only-player';

export interface EpicFormationEnd {
  readonly formation: string;
  readonly units: number;
  readonly broken: boolean;
  readonly markers: number;
  readonly unitsLost: number;
}

/** The kernel state the tracer reads: views of the kernel's arrays, never written here. */
export interface EpicTraceState {
  readonly units: Int32Array;
  readonly broken: Int32Array;
  readonly markers: Int32Array;
  readonly unitsLost: Int32Array;
}

/** Builds the events; the kernel calls it only when a sink is set (one null check otherwise). */
export class EpicTracer {
  private turnNow = 0;
  private rollOffFaces: (readonly [number, number])[] = [];

  constructor(
    private readonly scenario: CompiledScenario,
    private readonly state: EpicTraceState,
    private readonly sink: TraceSink<EpicTraceEvent>,
  ) {}

  private id(formation: number): string {
    return this.scenario.formations[formation]?.id ?? `#${formation}`;
  }

  private playerName(player: number): string {
    return this.scenario.playerNames[player] ?? `player ${player + 1}`;
  }

  turn(turn: number): void {
    this.turnNow = turn;
    this.sink.event({ type: 'turn', turn });
  }

  action(formation: number, broken: boolean, unitsLost: number, markersTaken: number): void {
    const { units, markers } = this.state;
    this.sink.event({
      type: 'action',
      formation: this.id(formation),
      broken,
      unitsLost,
      markersTaken,
      units: units[formation] ?? 0,
      markers: markers[formation] ?? 0,
    });
  }

  /** Called as it breaks, before its markers go: `removed` is how many will. */
  breaks(formation: number, breaksAt: number, removed: number): void {
    const { units, markers } = this.state;
    this.sink.event({
      type: 'break',
      formation: this.id(formation),
      markers: markers[formation] ?? 0,
      units: units[formation] ?? 0,
      breaksAt,
      markersRemoved: removed,
    });
  }

  withdrawal(formation: number, unitsLost: number): void {
    this.sink.event({ type: 'withdrawal', formation: this.id(formation), unitsLost, units: this.state.units[formation] ?? 0 });
  }

  /** One pair of a roll-off, in the order rolled (the first die the first player's). */
  rollOff(first: number, second: number): void {
    this.rollOffFaces.push([first, second]);
  }

  /** After the roll-off, if any: `first` rallies first. */
  endPhase(first: number): void {
    const { scenario } = this;
    const rollOff = this.rollOffFaces;
    this.rollOffFaces = [];
    const ratings = Array.from(scenario.strategyRatings);
    let by: RallyOrderReason = 'strategy-rating';
    if (ratings.length === 1) by = 'only-player';
    else if (scenario.tie) by = scenario.method === 'tables' ? 'coin' : 'roll-off';
    else if (ratings[0] === ratings[1]) by = 'first-player';
    this.sink.event({ type: 'endPhase', turn: this.turnNow, first: this.playerName(first), by, strategyRatings: ratings, rollOff });
  }

  rally(formation: number, broken: boolean, face: number, offTable: boolean, enemyNear: boolean, score: number, passed: boolean): void {
    const { rules } = this.scenario;
    this.sink.event({
      type: 'rally',
      formation: this.id(formation),
      player: this.playerName(this.scenario.player[formation] ?? 0),
      broken,
      die: rules.dieSides,
      face,
      brokenModifier: broken ? rules.brokenModifier : 0,
      enemyWithin30: enemyNear,
      offTable,
      enemyModifier: enemyNear ? rules.enemyWithin30Modifier : 0,
      score,
      initiative: this.scenario.initiative[formation] ?? 0,
      passed,
    });
  }

  rallied(formation: number, wasBroken: boolean, added: number, removed: number): void {
    this.sink.event({
      type: 'rallied',
      formation: this.id(formation),
      wasBroken,
      added,
      removed,
      markers: this.state.markers[formation] ?? 0,
    });
  }

  end(): void {
    const { units, broken, markers, unitsLost } = this.state;
    const formations = this.scenario.formations.map(({ id, index }) => ({
      formation: id,
      units: units[index] ?? 0,
      broken: broken[index] === 1,
      markers: markers[index] ?? 0,
      unitsLost: unitsLost[index] ?? 0,
    }));
    this.sink.event({ type: 'end', turns: this.turnNow, formations });
  }
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const units = (count: number): string => plural(count, 'unit');
const markers = (count: number): string => plural(count, 'Blast marker');
/** −2 as "− 2", +1 as "+ 1": a modifier in a sum. */
const signed = (value: number): string => (value < 0 ? `− ${-value}` : `+ ${value}`);
const minus = (value: number): string => (value < 0 ? `−${-value}` : String(value));
const left = (count: number): string => (count === 0 ? 'destroyed' : `${units(count)} left`);

const ORDER_REASONS: Readonly<Record<RallyOrderReason, string>> = {
  'strategy-rating': 'higher Strategy Rating',
  'roll-off': 'roll-off',
  coin: 'equal Strategy Ratings: a fair coin, method tables',
  'first-player': 'equal Strategy Ratings: the first player, firstInRallyTie',
  'only-player': 'the only player',
};

/** One event as lines of [depth, text]: depth 0 a phase, 1 its steps, 2 what a step brings. */
export function describeEpicEvent(event: EpicTraceEvent): (readonly [number, string])[] {
  switch (event.type) {
    case 'turn':
      return [[0, `turn ${event.turn}: Action phase`]];
    case 'action': {
      if (event.broken) {
        const lost = event.unitsLost > 0 ? `; loses ${units(event.unitsLost)} (${left(event.units)})` : '';
        return [[1, `${event.formation}: Broken, cannot activate${lost}`]];
      }
      const steps = [];
      if (event.unitsLost > 0) steps.push(`loses ${units(event.unitsLost)}`);
      if (event.markersTaken > 0) steps.push(`takes ${markers(event.markersTaken)}`);
      const now = event.units === 0 ? 'destroyed' : `${units(event.units)}, ${markers(event.markers)}`;
      return [[1, `${event.formation}: ${steps.length === 0 ? 'no losses, no Blast markers' : steps.join(', ')} → ${now}`]];
    }
    case 'break': {
      const gone = event.markersRemoved > 0 ? `; its ${markers(event.markersRemoved)} are removed` : '';
      return [[1, `${event.formation} breaks: ${markers(event.markers)} on ${units(event.units)} (breaks at ${event.breaksAt})${gone}`]];
    }
    case 'withdrawal':
      return [
        [
          2,
          `${event.formation} withdraws: ${event.unitsLost === 0 ? 'no units lost' : `loses ${units(event.unitsLost)}`} (${left(event.units)})`,
        ],
      ];
    case 'endPhase': {
      const ratings = event.by === 'strategy-rating' ? ` ${event.strategyRatings.join(' v ')}` : '';
      const pairs = event.by === 'roll-off' ? ` ${event.rollOff.map(([a, b]) => `${a}–${b}`).join(', ')}` : '';
      return [[0, `turn ${event.turn}: End phase, first to rally: ${event.first} (${ORDER_REASONS[event.by]}${ratings}${pairs})`]];
    }
    case 'rally': {
      const terms = [`D${event.die} ${event.face}`];
      if (event.broken && event.brokenModifier !== 0) terms.push(`${signed(event.brokenModifier)} Broken`);
      if (event.enemyWithin30 && event.enemyModifier !== 0) terms.push(`${signed(event.enemyModifier)} enemy within 30 cm`);
      const off = event.offTable ? ' (off the table: no enemy within 30 cm)' : '';
      const outcome = event.passed ? 'rallies' : 'fails';
      return [
        [
          1,
          `${event.formation}${event.broken ? ' (Broken)' : ''}: ${terms.join(' ')} = ${minus(event.score)} vs Initiative ${event.initiative}+${off}: ${outcome}`,
        ],
      ];
    }
    case 'rallied': {
      const added = event.wasBroken ? `no longer Broken, takes ${markers(event.added)}; ` : '';
      return [[2, `${event.formation}: ${added}removes ${event.removed} of ${event.markers + event.removed} → ${markers(event.markers)}`]];
    }
    case 'end':
      return [
        [0, `end after turn ${event.turns}`],
        ...event.formations.map((f): readonly [number, string] => {
          const state = f.units === 0 ? 'destroyed' : `${f.broken ? 'Broken, ' : ''}${units(f.units)}, ${markers(f.markers)}`;
          return [1, `${f.formation}: ${state} (lost ${units(f.unitsLost)})`];
        }),
      ];
  }
}

/** A trace as indented lines, for `crucible replay`. */
export function formatEpicTrace(events: readonly EpicTraceEvent[]): string[] {
  return events.flatMap((event) => describeEpicEvent(event).map(([depth, text]) => `${'  '.repeat(depth)}${text}`));
}
