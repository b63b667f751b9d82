import type { MetricSpec } from '../kernel.js';
import type { CompiledScenario } from './compile.js';

/** Row positions: fixed metrics, then per side, then per unit (see README "Metrics"). */
export const WINNER = 0;
export const ROUNDS = 1;
export const DECISIVE_ROUND = 2;
export const SIDE_METRICS = 3;
/** Per side: modelsLost, woundsLost, unitsDestroyed, unitsBroken. */
export const SIDE_WIDTH = 4;
export const UNIT_METRICS = SIDE_METRICS + 2 * SIDE_WIDTH;
/** Per unit: modelsLost, woundsLost, shock, broke, destroyed. */
export const UNIT_WIDTH = 5;
export const WINNER_NONE = 2;

/**
 * A bound on a unit's Shock at the end: what it started with plus, each round, what bidding may
 * leave on it (compile.ts bidCap), and Shock from events, each worth at most the largest of the
 * rules' Shock amounts (1 by the text; a miscast's counts as two events): per enemy unit up to 6
 * attacks against it (a shot, a fight, a free fight, an overwatch, a counter attack, free attacks as
 * it leaves melee) with their failed reactions, 1 per unit destroyed near it, a failed reaction and
 * a failed Rush per action.
 */
function maxShock(scenario: CompiledScenario, unit: number): number {
  const rules = scenario.rules;
  const perEvent = Math.max(
    1,
    rules.shockWhenHit,
    rules.shockFromDestroyed,
    rules.failedReactionShock,
    rules.failedRushShock,
    Math.ceil(rules.miscastShock / 2),
  );
  const enemies = scenario.units.filter((other) => other.side !== scenario.side[unit]).length;
  const bidding = Math.max(0, (scenario.bidCap[unit] ?? 0) + 1);
  return (
    (scenario.startShock[unit] ?? 0) +
    scenario.rounds * (bidding + perEvent * (6 * enemies + scenario.units.length + rules.actionsPerActivation))
  );
}

export function battleforgeMetrics(scenario: CompiledScenario): MetricSpec[] {
  const [nameA, nameB] = scenario.sideNames;
  const metrics: MetricSpec[] = [
    {
      name: 'winner',
      kind: 'category',
      max: 2,
      labels: [nameA, nameB, 'none'],
      description: 'side with units left (neither destroyed nor broken) when the other has none',
    },
    { name: 'rounds', kind: 'count', max: scenario.rounds, description: 'rounds played' },
    // A category, not a count: 0 means "no side lost", so a mean of it would mean nothing.
    {
      name: 'decisiveRound',
      kind: 'category',
      max: scenario.rounds,
      labels: ['none', ...Array.from({ length: scenario.rounds }, (_, r) => `in round ${r + 1}`)],
      description: "when the loser's last unit was destroyed or broke",
    },
  ];
  ['A', 'B'].forEach((key, side) => {
    const units = scenario.units.filter((unit) => unit.side === side);
    const models = units.reduce((sum, unit) => sum + (scenario.models[unit.index] ?? 0), 0);
    const wounds = units.reduce((sum, unit) => sum + (scenario.woundsTotal[unit.index] ?? 0), 0);
    const name = scenario.sideNames[side] ?? key;
    metrics.push(
      { name: `${key}.modelsLost`, kind: 'count', max: models, description: `models lost (${name})` },
      { name: `${key}.woundsLost`, kind: 'count', max: wounds, description: `Wounds lost (${name})` },
      { name: `${key}.unitsDestroyed`, kind: 'count', max: units.length, description: `units destroyed (${name})` },
      { name: `${key}.unitsBroken`, kind: 'count', max: units.length, description: `units that broke (${name})` },
    );
  });
  for (const unit of scenario.units) {
    metrics.push(
      { name: `${unit.id}.modelsLost`, kind: 'count', max: scenario.models[unit.index] ?? 0, description: `models lost (${unit.name})` },
      {
        name: `${unit.id}.woundsLost`,
        kind: 'count',
        max: scenario.woundsTotal[unit.index] ?? 0,
        description: `Wounds lost (${unit.name})`,
      },
      { name: `${unit.id}.shock`, kind: 'count', max: maxShock(scenario, unit.index), description: `Shock at the end (${unit.name})` },
      { name: `${unit.id}.broke`, kind: 'flag', max: 1, labels: ['no', 'yes'], description: `failed a break test (${unit.name})` },
      { name: `${unit.id}.destroyed`, kind: 'flag', max: 1, labels: ['no', 'yes'], description: `lost every model (${unit.name})` },
    );
  }
  return metrics;
}
