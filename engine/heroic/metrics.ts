import type { MetricSpec } from '../kernel.js';
import type { CompiledScenario } from './compile.js';

/** Row positions of the first two metrics; the rest are placed by `heroicMetrics`. */
export const WINNER = 0;
export const ROUNDS = 1;

const SIDE_KEYS = ['A', 'B'] as const;

/**
 * Where each metric sits in the row, −1 where the scenario cannot produce it: charge metrics
 * exist only for a side with a charging group, formationBroken only for a group declared in
 * formation. The kernel counts each where it changes (engine/heroic/attack-action.ts).
 */
export interface MetricCells {
  /** Per side (A, B). */
  readonly woundsDealt: Int32Array;
  readonly sideModelsLost: Int32Array;
  readonly chargesRefused: Int32Array;
  readonly torment: Int32Array;
  /** Per group, by group index. */
  readonly woundsTaken: Int32Array;
  readonly modelsLost: Int32Array;
  readonly vanquished: Int32Array;
  readonly formationBroken: Int32Array;
}

/**
 * The most Wounds a group can take in one trial: every model's MIGHT, plus what Regeneration
 * (rules.regenerationHeal per model) and Healing can give back each round (rulings §9), which can
 * then be taken again.
 */
function maxWoundsTaken(scenario: CompiledScenario, groupIndex: number): number {
  const group = scenario.groups[groupIndex];
  if (group === undefined) return 0;
  const perRound = (group.regenerates ? group.count * scenario.rules.regenerationHeal : 0) + group.heal;
  return group.count * group.might + scenario.rounds * perRound;
}

export function heroicMetrics(scenario: CompiledScenario): { metrics: MetricSpec[]; cells: MetricCells } {
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
  const perSide = (): Int32Array => new Int32Array(SIDE_KEYS.length).fill(-1);
  const sideCells = { woundsDealt: perSide(), sideModelsLost: perSide(), chargesRefused: perSide(), torment: perSide() };
  const sideMetric = (
    cells: Int32Array,
    key: string,
    description: string,
    max: (side: number) => number,
    exists = (_side: number) => true,
  ) => {
    SIDE_KEYS.forEach((sideKey, side) => {
      if (!exists(side)) return;
      cells[side] = metrics.length;
      metrics.push({
        name: `${sideKey}.${key}`,
        kind: 'count',
        max: max(side),
        description: `${description} (${scenario.sideNames[side]})`,
      });
    });
  };
  sideMetric(sideCells.woundsDealt, 'woundsDealt', 'Wounds inflicted on enemy models, after every reduction', (side) =>
    sideGroups(1 - side).reduce((sum, group) => sum + maxWoundsTaken(scenario, group.index), 0),
  );
  sideMetric(sideCells.sideModelsLost, 'modelsLost', 'own models vanquished', (side) =>
    sideGroups(side).reduce((sum, group) => sum + group.count, 0),
  );
  const chargeTries = (side: number) =>
    sideGroups(side).reduce((sum, group) => sum + (group.charging ? group.count * scenario.rounds : 0), 0);
  const charges = (side: number) => chargeTries(side) > 0;
  sideMetric(sideCells.chargesRefused, 'chargesRefused', 'failed WILL tests to charge a formation', chargeTries, charges);
  sideMetric(
    sideCells.torment,
    'torment',
    'Torment gained by Heroic models failing a charge WILL test',
    (side) => chargeTries(side) * scenario.rules.chargeTorment,
    charges,
  );

  const perGroup = (): Int32Array => new Int32Array(scenario.groups.length).fill(-1);
  const groupCells = { woundsTaken: perGroup(), modelsLost: perGroup(), vanquished: perGroup(), formationBroken: perGroup() };
  for (const group of scenario.groups) {
    const start = metrics.length;
    metrics.push(
      {
        name: `${group.id}.woundsTaken`,
        kind: 'count',
        max: maxWoundsTaken(scenario, group.index),
        description: `Wounds taken by ${group.id}`,
      },
      { name: `${group.id}.modelsLost`, kind: 'count', max: group.count, description: `models of ${group.id} vanquished` },
      { name: `${group.id}.vanquished`, kind: 'flag', max: 1, labels: ['no', 'yes'], description: `every model of ${group.id} vanquished` },
    );
    if (group.formation) {
      metrics.push({
        name: `${group.id}.formationBroken`,
        kind: 'flag',
        max: 1,
        labels: ['no', 'yes'],
        description: `formation ${group.id} fell below ${scenario.rules.formationMinimum} models`,
      });
    }
    groupCells.woundsTaken[group.index] = start;
    groupCells.modelsLost[group.index] = start + 1;
    groupCells.vanquished[group.index] = start + 2;
    if (group.formation) groupCells.formationBroken[group.index] = start + 3;
  }
  return { metrics, cells: { ...sideCells, ...groupCells } };
}
