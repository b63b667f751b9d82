import { type Dice, RecordingDice } from '../../engine/dice/index.js';
import type { TraceSink } from '../../engine/kernel.js';
import type { CompiledScenario, CompiledSide } from './compile.js';
import type { Reroll } from './schema.js';

/**
 * Trace events of the homebrew kernel (`crucible replay`): what one traced trial did, in order.
 * Sides are named by their scenario names. With method `dice` every roll lists its faces (the
 * rerolled dice apart); with `tables` an attack's unsaved wounds are drawn whole from its exact
 * table, so it has no faces, only that total. Plain JSON values only, so `--json` prints them as is.
 */
export type HomebrewTraceEvent =
  | { readonly type: 'round'; readonly round: number }
  /** `attacker`'s `models` models roll `dice` attack dice at `target`. */
  | { readonly type: 'attack'; readonly attacker: string; readonly target: string; readonly models: number; readonly dice: number }
  /** Hit dice on `need`+ (criticals from `criticalFace`, null: none), then the dice rerolled per `reroll`. */
  | {
      readonly type: 'hits';
      readonly need: number;
      readonly criticalFace: number | null;
      readonly reroll: Reroll;
      readonly faces: readonly number[];
      readonly rerollFaces: readonly number[];
      readonly hits: number;
      readonly criticals: number;
    }
  /** Wound dice on `need`+ for `rolled` hits, rerolls apart; `automatic`: critical hits that wound without a roll. */
  | {
      readonly type: 'wounds';
      readonly need: number;
      readonly reroll: Reroll;
      readonly rolled: number;
      readonly faces: readonly number[];
      readonly rerollFaces: readonly number[];
      readonly automatic: number;
      readonly wounds: number;
    }
  /** Save dice on `need`+ (null: no save possible, every wound goes through). */
  | {
      readonly type: 'saves';
      readonly need: number | null;
      readonly faces: readonly number[];
      readonly saved: number;
      readonly unsaved: number;
    }
  /** Method `tables`: the attack's unsaved wounds drawn in one pick from its exact distribution. */
  | { readonly type: 'drawn'; readonly unsaved: number }
  /** `unsaved` wounds of `damage` each on `target`: what they took off, models destroyed, and what is left. */
  | {
      readonly type: 'damage';
      readonly target: string;
      readonly unsaved: number;
      readonly damage: number;
      readonly dealt: number;
      readonly destroyed: number;
      readonly modelsLeft: number;
      /** Wounds left on the target's wounded model, null when none is wounded. */
      readonly woundedModelLeft: number | null;
    }
  /** `winner`: 0 none, 1 or 2 the side (as the `winner` metric). */
  | { readonly type: 'end'; readonly rounds: number; readonly winner: number; readonly winnerName: string | null };

/** The kernel's state the tracer reads (never writes): per side, models left and damage on its wounded model. */
export interface HomebrewTraceState {
  readonly alive: Int32Array;
  readonly damaged: Int32Array;
}

/** Builds the events; the kernel calls it only when a sink is set (`this.tracer?.…`: one null check otherwise). */
export class HomebrewTracer {
  private recorder: RecordingDice | null = null;
  /** The side attacking now, and its dice: the recorder's first `rolled` faces of a stage are its first roll. */
  private side: CompiledSide | null = null;
  private rolled = 0;

  constructor(
    private readonly scenario: CompiledScenario,
    private readonly state: HomebrewTraceState,
    private readonly sink: TraceSink<HomebrewTraceEvent>,
  ) {}

  /** The dice a traced trial rolls: `dice` itself, recorded (the same draws, faces kept). */
  record(dice: Dice): Dice {
    this.recorder = new RecordingDice(dice);
    return this.recorder;
  }

  /** Faces since the last call, split into the first `first` and the rerolls after them. */
  private faces(first: number): [number[], number[]] {
    const faces = this.recorder?.take() ?? [];
    return [faces.slice(0, first), faces.slice(first)];
  }

  round(round: number): void {
    this.sink.event({ type: 'round', round });
  }

  attack(s: number, models: number, dice: number): void {
    this.side = this.scenario.sides[s] as CompiledSide;
    this.rolled = dice;
    this.recorder?.take();
    const target = this.scenario.sides[1 - s] as CompiledSide;
    this.sink.event({ type: 'attack', attacker: this.side.name, target: target.name, models, dice });
  }

  hits(rerolled: number, hits: number, criticals: number): void {
    const side = this.side as CompiledSide;
    const [faces, rerollFaces] = this.faces(this.rolled);
    const criticalFace = this.scenario.rules.criticalFace <= 6 ? this.scenario.rules.criticalFace : null;
    if (rerollFaces.length !== rerolled)
      throw new Error(`homebrew trace: ${rerollFaces.length} reroll faces recorded, ${rerolled} rerolled`);
    this.sink.event({ type: 'hits', need: side.hit, criticalFace, reroll: side.rerollHits, faces, rerollFaces, hits, criticals });
  }

  wounds(rolled: number, rerolled: number, automatic: number, wounds: number): void {
    const side = this.side as CompiledSide;
    const [faces, rerollFaces] = this.faces(rolled);
    if (rerollFaces.length !== rerolled)
      throw new Error(`homebrew trace: ${rerollFaces.length} reroll faces recorded, ${rerolled} rerolled`);
    this.sink.event({ type: 'wounds', need: side.wound, reroll: side.rerollWounds, rolled, faces, rerollFaces, automatic, wounds });
  }

  saves(wounds: number, unsaved: number): void {
    const side = this.side as CompiledSide;
    const [faces] = this.faces(wounds);
    this.sink.event({ type: 'saves', need: side.saveOn === 0 ? null : side.saveOn, faces, saved: wounds - unsaved, unsaved });
  }

  drawnWhole(unsaved: number): void {
    this.sink.event({ type: 'drawn', unsaved });
  }

  damage(target: number, unsaved: number, damage: number, dealt: number, destroyed: number): void {
    const side = this.scenario.sides[target] as CompiledSide;
    const modelsLeft = this.state.alive[target] ?? 0;
    const damaged = this.state.damaged[target] ?? 0;
    this.sink.event({
      type: 'damage',
      target: side.name,
      unsaved,
      damage,
      dealt,
      destroyed,
      modelsLeft,
      woundedModelLeft: damaged === 0 ? null : side.wounds - damaged,
    });
  }

  end(rounds: number, winner: number): void {
    const winnerName = winner === 0 ? null : (this.scenario.sides[winner - 1]?.name ?? null);
    this.sink.event({ type: 'end', rounds, winner, winnerName });
  }
}

const REROLL_TEXT: Readonly<Record<Reroll, string>> = { none: '', ones: ', reroll 1s', failed: ', reroll failures' };
const facesText = (faces: readonly number[], rerolls: readonly number[]): string =>
  `${faces.join(' ') || '–'}${rerolls.length > 0 ? ` | rerolled: ${rerolls.join(' ')}` : ''}`;
const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** One line per event, indented under its round and attack: what `crucible replay` prints. */
export function formatHomebrewTrace(events: readonly HomebrewTraceEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'round':
        return `round ${event.round}`;
      case 'attack':
        return `  ${event.attacker} (${plural(event.models, 'model')}) attack ${event.target}: ${event.dice} ${event.dice === 1 ? 'die' : 'dice'}`;
      case 'hits': {
        const critical = event.criticalFace === null ? '' : `, critical ${event.criticalFace}+`;
        return `    hit ${event.need}+${critical}${REROLL_TEXT[event.reroll]}: ${facesText(event.faces, event.rerollFaces)} → ${plural(event.hits + event.criticals, 'hit')} (${event.criticals} critical)`;
      }
      case 'wounds': {
        const automatic = event.automatic > 0 ? ` + ${event.automatic} automatic` : '';
        return `    wound ${event.need}+${REROLL_TEXT[event.reroll]} (${event.rolled} rolled${automatic}): ${facesText(event.faces, event.rerollFaces)} → ${plural(event.wounds, 'wound')}`;
      }
      case 'saves':
        return event.need === null
          ? `    no save possible → ${event.unsaved} unsaved`
          : `    save ${event.need}+: ${facesText(event.faces, [])} → ${event.saved} saved, ${event.unsaved} unsaved`;
      case 'drawn':
        return `    ${plural(event.unsaved, 'unsaved wound')} (drawn whole from the attack's exact table)`;
      case 'damage': {
        const wounded = event.woundedModelLeft === null ? '' : `, one with ${plural(event.woundedModelLeft, 'wound')} left`;
        return `    ${event.target}: ${event.dealt} damage from ${event.unsaved} × ${event.damage}, ${plural(event.destroyed, 'model')} destroyed, ${event.modelsLeft} left${wounded}`;
      }
      case 'end':
        return `end after ${plural(event.rounds, 'round')}: ${event.winnerName === null ? 'no winner' : `winner ${event.winnerName}`}`;
    }
  });
}
