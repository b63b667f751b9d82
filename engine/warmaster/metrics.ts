import type { MetricSpec } from '../kernel.js';
import type { CompiledScenario } from './compile.js';

/** Row positions of the fixed metrics; side and unit metrics follow (see `warmasterMetrics`). */
export const WINNER = 0;
/** round1 … round4 occupy ROUND_RESULTS .. ROUND_RESULTS + RECORDED_ROUNDS − 1. */
export const ROUND_RESULTS = 1;
export const RECORDED_ROUNDS = 4;
export const ROUNDS = ROUND_RESULTS + RECORDED_ROUNDS;
export const TURNS = ROUNDS + 1;
export const RETREAT = TURNS + 1;
export const PURSUITS = RETREAT + 1;
export const ADVANCES = PURSUITS + 1;
/** Per side: standsLost, unitsDestroyed, fallBack. */
export const SIDE_METRICS = ADVANCES + 1;
export const SIDE_WIDTH = 3;
/** Per unit: standsLost, destroyedInRound. */
export const UNIT_METRICS = SIDE_METRICS + 2 * SIDE_WIDTH;
export const UNIT_WIDTH = 2;

/** Category values of `winner` and of each round's result. */
export const WINNER_DRAW = 2;
export const WINNER_UNRESOLVED = 3;
export const ROUND_NOT_FOUGHT = 0;
/** A round won by side s is recorded as 1 + s; a draw as ROUND_DRAW. */
export const ROUND_DRAW = 3;
/** `<unit>.destroyedInRound` 0 (its other values r: "in round r", counted over the chain). */
export const NOT_DESTROYED = 'not destroyed';

/** Rounds an engagement can last: rules.roundsPerTurn per turn, for the first engagement and each reserve met. */
export function maxRounds(scenario: CompiledScenario): number {
  const engagements = 1 + (scenario.reserves[0]?.length ?? 0) + (scenario.reserves[1]?.length ?? 0);
  return scenario.rules.roundsPerTurn * scenario.maxTurns * engagements;
}

/** The longest retreat: the largest difference of combat results (every hit any unit could take plus every support) in cm, or the minimum. */
function maxRetreat(scenario: CompiledScenario): number {
  const rules = scenario.rules;
  let total = 0;
  for (let unit = 0; unit < scenario.units.length; unit++) {
    total += (scenario.stands[unit] ?? 0) * (scenario.hitsPerStand[unit] ?? 0) + (scenario.supports[unit] ?? 0) * rules.supportBonus;
  }
  return Math.max(rules.minimumRetreat, total * rules.retreatCmPerHit);
}

export function warmasterMetrics(scenario: CompiledScenario): MetricSpec[] {
  const [nameA, nameB] = scenario.sideNames;
  const rounds = maxRounds(scenario);
  const metrics: MetricSpec[] = [
    {
      name: 'winner',
      kind: 'category',
      max: 3,
      labels: [nameA, nameB, 'draw', 'unresolved'],
      description: 'side that won the last round fought (unresolved: still fighting after the last turn)',
    },
  ];
  for (let round = 1; round <= RECORDED_ROUNDS; round++) {
    metrics.push({
      name: `round${round}`,
      kind: 'category',
      max: 3,
      labels: ['not fought', nameA, nameB, 'draw'],
      description: `result of round ${round}`,
    });
  }
  metrics.push(
    { name: 'rounds', kind: 'count', max: rounds, description: 'rounds fought, over the whole chain' },
    { name: 'turns', kind: 'count', max: scenario.maxTurns, description: 'Combat phases in which a round was fought' },
    {
      name: 'retreat',
      kind: 'count',
      max: maxRetreat(scenario),
      description: 'cm the loser of round 1 retreated (0: draw, or the loser was destroyed)',
    },
    { name: 'pursuits', kind: 'count', max: rounds, description: 'pursuits made: the length of the pursuit chain' },
    { name: 'advances', kind: 'count', max: rounds, description: 'advances into a further engagement' },
  );
  ['A', 'B'].forEach((key, side) => {
    const units = scenario.units.filter((unit) => unit.side === side);
    const stands = units.reduce((sum, unit) => sum + (scenario.stands[unit.index] ?? 0), 0);
    const name = scenario.sideNames[side] ?? key;
    metrics.push(
      { name: `${key}.standsLost`, kind: 'count', max: stands, description: `stands lost (${name})` },
      { name: `${key}.unitsDestroyed`, kind: 'count', max: units.length, description: `units destroyed (${name})` },
      {
        name: `${key}.fallBack`,
        kind: 'count',
        max: 6 * scenario.rules.fallBackDice,
        description: `${scenario.rules.fallBackDice}D6 cm it may fall back after a draw or as a winner falling back; 0 if it did not (${name})`,
      },
    );
  });
  // The round a unit fell in is an event, not a quantity: a mean of it (with 0 for "not destroyed")
  // would mean nothing, so it is a category — P(not destroyed), then P(destroyed in round r).
  const destroyedInRoundLabels = [NOT_DESTROYED, ...Array.from({ length: rounds }, (_, r) => `in round ${r + 1}`)];
  for (const unit of scenario.units) {
    metrics.push(
      { name: `${unit.id}.standsLost`, kind: 'count', max: scenario.stands[unit.index] ?? 0, description: `stands lost (${unit.name})` },
      {
        name: `${unit.id}.destroyedInRound`,
        kind: 'category',
        max: rounds,
        labels: destroyedInRoundLabels,
        description: `when it was destroyed (${unit.name})`,
      },
    );
  }
  return metrics;
}
