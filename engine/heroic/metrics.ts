import type { MetricSpec } from '../kernel.js';
import type { CompiledScenario } from './compile.js';

/** Row positions of the side metrics; group metrics follow from GROUP_METRICS_START. */
export const WINNER = 0;
export const ROUNDS = 1;
export const WOUNDS_DEALT = 2; // + side
export const MODELS_LOST = 4; // + side
export const CHARGES_REFUSED = 6; // + side
export const TORMENT = 8; // + side
export const GROUP_METRICS_START = 10;

const SIDE_KEYS = ['A', 'B'] as const;

/** Where each group's metrics sit in the row (formationBroken only for groups declared in formation). */
export interface GroupMetricSlots {
  readonly woundsTaken: number;
  readonly modelsLost: number;
  readonly vanquished: number;
  readonly formationBroken: number; // −1 when the group is not a formation
}

/**
 * The most Wounds a group can take in one trial: every model's MIGHT, plus what Regeneration and
 * Healing can give back each round (rulings §9), which can then be taken again.
 */
function maxWoundsTaken(scenario: CompiledScenario, groupIndex: number): number {
  const group = scenario.groups[groupIndex];
  if (group === undefined) return 0;
  const perRound = (group.regenerates ? group.count : 0) + group.heal;
  return group.count * group.might + scenario.rounds * perRound;
}

export function heroicMetrics(scenario: CompiledScenario): { metrics: MetricSpec[]; slots: GroupMetricSlots[] } {
  const sideGroups = (side: number) => scenario.groups.filter((group) => group.side === side);
  const metrics: MetricSpec[] = [
    {
      name: 'winner',
      kind: 'category',
      max: 2,
      labels: ['none', ...scenario.sideNames],
      description: 'side whose enemies were all vanquished (none: round limit reached, or both sides wiped out)',
    },
    { name: 'rounds', kind: 'count', max: scenario.rounds, description: 'rounds started' },
  ];
  const sideMetric = (key: string, description: string, max: (side: number) => number) => {
    SIDE_KEYS.forEach((sideKey, side) => {
      metrics.push({ name: `${sideKey}.${key}`, kind: 'count', max: max(side), description: `${description} (${scenario.sideNames[side]})` });
    });
  };
  sideMetric('woundsDealt', 'Wounds inflicted on enemy models, after every reduction', (side) =>
    sideGroups(1 - side).reduce((sum, group) => sum + maxWoundsTaken(scenario, group.index), 0),
  );
  sideMetric('modelsLost', 'own models vanquished', (side) => sideGroups(side).reduce((sum, group) => sum + group.count, 0));
  const chargeTries = (side: number) =>
    sideGroups(side).reduce((sum, group) => sum + (group.charging ? group.count * scenario.rounds : 0), 0);
  sideMetric('chargesRefused', 'failed WILL tests to charge a formation', chargeTries);
  sideMetric('torment', 'Torment gained by Heroic models failing a charge WILL test', chargeTries);

  const slots = scenario.groups.map((group): GroupMetricSlots => {
    const start = metrics.length;
    metrics.push(
      { name: `${group.id}.woundsTaken`, kind: 'count', max: maxWoundsTaken(scenario, group.index), description: `Wounds taken by ${group.id}` },
      { name: `${group.id}.modelsLost`, kind: 'count', max: group.count, description: `models of ${group.id} vanquished` },
      { name: `${group.id}.vanquished`, kind: 'flag', max: 1, labels: ['no', 'yes'], description: `every model of ${group.id} vanquished` },
    );
    if (group.formation) {
      metrics.push({
        name: `${group.id}.formationBroken`,
        kind: 'flag',
        max: 1,
        labels: ['no', 'yes'],
        description: `formation ${group.id} fell below 3 models`,
      });
    }
    return { woundsTaken: start, modelsLost: start + 1, vanquished: start + 2, formationBroken: group.formation ? start + 3 : -1 };
  });
  return { metrics, slots };
}
