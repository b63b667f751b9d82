import type { Dice } from '../dice/index.js';
import type { DrawMethod, Kernel, MetricSpec, TraceSink } from '../kernel.js';
import { Aftermath } from './aftermath.js';
import { POLICY_FALL_BACK, POLICY_PURSUE, POLICY_PURSUE_WHILE_AHEAD } from './codes.js';
import type { CompiledScenario } from './compile.js';
import {
  ADVANCES,
  PURSUITS,
  RECORDED_ROUNDS,
  RETREAT,
  ROUND_DRAW,
  ROUND_NOT_FOUGHT,
  ROUND_RESULTS,
  ROUNDS,
  SIDE_METRICS,
  SIDE_WIDTH,
  TURNS,
  UNIT_METRICS,
  UNIT_WIDTH,
  WINNER,
  WINNER_DRAW,
  WINNER_UNRESOLVED,
  warmasterMetrics,
} from './metrics.js';
import { WarmasterTracer, type WarmasterTraceEvent } from './trace.js';

export const WARMASTER_ENGINE_VERSION = 'warmaster-1.0.0';

const NO_OUTCOME = -1;

/**
 * One trial = one engagement and the chain it leads to, in the step order of README.md: rounds
 * (round.ts), each followed by a draw's fall back or the loser's retreat and the winner's choice
 * (aftermath.ts), turn after turn while the combat stays unresolved. The state (state.ts) is reset
 * by one copy per trial; nothing is allocated per trial.
 */
export class WarmasterKernel extends Aftermath implements Kernel<WarmasterTraceEvent> {
  readonly ruleset = 'warmaster';
  readonly engineVersion = WARMASTER_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];
  /** Rounds an engagement fights in one Combat phase before it is unresolved (rules.roundsPerTurn). */
  private readonly roundsPerTurn: number;

  /** `method`: strikes rolled die by die, or their hits after saves drawn whole (strike-tables.ts). */
  constructor(scenario: CompiledScenario, method: DrawMethod = 'dice') {
    super(scenario, method);
    this.metrics = warmasterMetrics(scenario);
    this.roundsPerTurn = scenario.rules.roundsPerTurn;
  }

  setTrace(sink: TraceSink<WarmasterTraceEvent> | null): void {
    this.tracer = sink === null ? null : new WarmasterTracer(this.scenario, sink);
  }

  trial(untracedDice: Dice, row: Int32Array): void {
    const scenario = this.scenario;
    const tracer = this.tracer;
    // Traced, the same dice are read through a recorder, so the trace can show every face.
    const dice = tracer === null ? untracedDice : tracer.record(untracedDice);
    this.resetState();
    let fallBack0 = 0;
    let fallBack1 = 0;
    let retreatCm = 0;
    let turn = 1;
    let lastTurnFought = 1;
    let roundInEngagement = 0;
    let roundInTurn = 0;
    let pursuits = 0;
    let advances = 0;
    let outcome = NO_OUTCOME;
    this.shootAtChargers(dice, false);

    for (;;) {
      const round = ++this.roundNumber;
      roundInEngagement++;
      roundInTurn++;
      lastTurnFought = turn;
      const firstRound = roundInEngagement === 1;
      tracer?.round(round, turn, roundInEngagement);
      outcome = this.fightRound(dice, round, firstRound);
      if (round <= RECORDED_ROUNDS) row[ROUND_RESULTS + round - 1] = outcome === WINNER_DRAW ? ROUND_DRAW : 1 + outcome;
      if (outcome === WINNER_DRAW) {
        // Draw: both sides fall back and the engagement ends (rulings §16); a side with nothing
        // left standing (both destroyed) has nothing to move.
        if (this.sideStanding(0)) fallBack0 = this.fallBack(dice, 0);
        if (this.sideStanding(1)) fallBack1 = this.fallBack(dice, 1);
        break;
      }
      const winner = outcome;
      const loser = 1 - winner;
      const retreat = this.retreat(dice, winner, loser);
      if (round === 1) retreatCm = retreat;
      // `maxRounds`: the engagement is cut after this round's retreat, before any pursuit or advance.
      if (round === scenario.maxRounds) break;
      const ahead = (this.lostInEngagement[winner] ?? 0) <= (this.lostInEngagement[loser] ?? 0);
      const policy = scenario.policy[winner] ?? POLICY_PURSUE;
      const wantsToPress = policy === POLICY_PURSUE || (policy === POLICY_PURSUE_WHILE_AHEAD && ahead);
      if (!this.sideStanding(loser)) {
        if (this.advance(dice, winner, loser, wantsToPress, firstRound)) {
          advances++;
          roundInEngagement = 0;
          roundInTurn = 0;
          continue;
        }
        break;
      }
      if (!this.pursue(winner, loser, wantsToPress, firstRound)) {
        if (policy === POLICY_FALL_BACK) {
          if (winner === 0) fallBack0 = this.fallBack(dice, 0);
          else fallBack1 = this.fallBack(dice, 1);
        }
        break;
      }
      pursuits++;
      if (roundInTurn === this.roundsPerTurn) {
        // The turn's last round pursued: the combat is unresolved and goes on next turn (Unresolved combats).
        if (turn === scenario.maxTurns) {
          outcome = WINNER_UNRESOLVED;
          break;
        }
        turn++;
        tracer?.unresolved(turn);
        roundInTurn = 0;
        for (let unit = 0; unit < this.unitCount; unit++) this.advanced[unit] = 0;
      }
    }

    tracer?.end(this.metrics[WINNER]?.labels?.[outcome] ?? String(outcome), this.roundNumber, lastTurnFought);
    this.writeRow(row, outcome, lastTurnFought, retreatCm, pursuits, advances, fallBack0, fallBack1);
  }

  /** Every metric is written here (or, for round results, as the round ends): no clearing pass. */
  private writeRow(
    row: Int32Array,
    outcome: number,
    turns: number,
    retreatCm: number,
    pursuits: number,
    advances: number,
    fallBack0: number,
    fallBack1: number,
  ): void {
    const scenario = this.scenario;
    row[WINNER] = outcome;
    for (let round = this.roundNumber + 1; round <= RECORDED_ROUNDS; round++) row[ROUND_RESULTS + round - 1] = ROUND_NOT_FOUGHT;
    row[ROUNDS] = this.roundNumber;
    row[TURNS] = turns;
    row[RETREAT] = retreatCm;
    row[PURSUITS] = pursuits;
    row[ADVANCES] = advances;
    let lost0 = 0;
    let lost1 = 0;
    let destroyed0 = 0;
    let destroyed1 = 0;
    const stands = this.stands;
    const destroyedRound = this.destroyedRound;
    for (let unit = 0; unit < this.unitCount; unit++) {
      const lost = scenario.stands[unit]! - stands[unit]!;
      const destroyed = destroyedRound[unit]!;
      row[UNIT_METRICS + unit * UNIT_WIDTH] = lost;
      row[UNIT_METRICS + unit * UNIT_WIDTH + 1] = destroyed;
      if (scenario.side[unit] === 0) {
        lost0 += lost;
        if (destroyed > 0) destroyed0++;
      } else {
        lost1 += lost;
        if (destroyed > 0) destroyed1++;
      }
    }
    row[SIDE_METRICS] = lost0;
    row[SIDE_METRICS + 1] = destroyed0;
    row[SIDE_METRICS + 2] = fallBack0;
    row[SIDE_METRICS + SIDE_WIDTH] = lost1;
    row[SIDE_METRICS + SIDE_WIDTH + 1] = destroyed1;
    row[SIDE_METRICS + SIDE_WIDTH + 2] = fallBack1;
  }
}
