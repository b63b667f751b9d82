import type { MetricSpec } from '../kernel.js';
import { COUNT_INPUTS, type CompiledScenario, MARKERS_PER_TURN } from './compile.js';

/** Row positions: one per turn (formations that rallied), then per formation (README "Metrics"). */
export const TURN_METRICS = 0;
/** Per formation, after the turns' metrics: brokenAtEnd, markers, turnsBroken, unitsLost, destroyed, rallies, breaks. */
export const FORMATION_WIDTH = 7;
export const formationMetricsStart = (scenario: CompiledScenario): number => TURN_METRICS + scenario.turns;

/**
 * The most Blast markers a formation can hold: its start, plus C = units × markersPerUnitOnRally ×
 * (rallyRemovalDivisor − 1), plus each turn's most. Only the Action phase adds markers beyond a
 * rally's; a Broken formation's rally turns m into at most (m + units × perUnit)(d − 1)/d, which
 * stays at or below any bound B ≥ C. At the text's values C is the formation's units.
 */
function maxMarkers(scenario: CompiledScenario, formation: number): number {
  const start = scenario.countStart[formation * COUNT_INPUTS + MARKERS_PER_TURN]!;
  const end = scenario.countStart[formation * COUNT_INPUTS + MARKERS_PER_TURN + 1]!;
  let most = 0;
  for (let k = start; k < end; k++) most = Math.max(most, scenario.countValues[k]!);
  const { markersPerUnitOnRally, rallyRemovalDivisor } = scenario.rules;
  const rallied = scenario.units[formation]! * markersPerUnitOnRally * (rallyRemovalDivisor - 1);
  return scenario.markers[formation]! + rallied + scenario.turns * most;
}

export function epicMetrics(scenario: CompiledScenario): MetricSpec[] {
  const formations = scenario.formations.length;
  const metrics: MetricSpec[] = [];
  for (let turn = 1; turn <= scenario.turns; turn++) {
    metrics.push({
      name: `turn${turn}.rallied`,
      kind: 'count',
      max: formations,
      description: `formations that passed a Rally test in the End phase of turn ${turn}`,
    });
  }
  for (const formation of scenario.formations) {
    const { id, name, index } = formation;
    metrics.push(
      { name: `${id}.brokenAtEnd`, kind: 'flag', max: 1, labels: ['no', 'yes'], description: `Broken after the last End phase (${name})` },
      { name: `${id}.markers`, kind: 'count', max: maxMarkers(scenario, index), description: `Blast markers at the end (${name})` },
      {
        name: `${id}.turnsBroken`,
        kind: 'count',
        max: scenario.turns,
        description: `Action phases it spent Broken, unable to activate (${name})`,
      },
      {
        name: `${id}.unitsLost`,
        kind: 'count',
        max: scenario.units[index]!,
        description: `units lost: to the battle and to withdrawals (${name})`,
      },
      { name: `${id}.destroyed`, kind: 'flag', max: 1, labels: ['no', 'yes'], description: `no units left (${name})` },
      { name: `${id}.rallies`, kind: 'count', max: scenario.turns, description: `Rally tests passed (${name})` },
      { name: `${id}.breaks`, kind: 'count', max: scenario.turns, description: `times it broke (${name})` },
    );
  }
  return metrics;
}
