import type { Army, CountInput, Formation, Scenario } from '../../engine/epic/schema.js';
import { bernoulli, convolve, type Distribution, pointMass } from '../helpers/distribution.js';

/**
 * The exact distribution of every Epic metric after the last turn, written from the rule text
 * (Epic: Armageddon, Rally formations), rulings §26–28 and engine/epic/README.md's step order
 * — not from the engine's code. Formations are independent (rulings §28: the order of the rallies
 * only changes which die goes to whom, never a probability), so each one is a Markov chain of its
 * own over (units, markers, Broken, turns spent Broken, rallies, breaks), pushed turn by turn:
 *
 * - Action phase. Destroyed (0 units): nothing. Broken: one more turn spent Broken, loses
 *   `unitsLostWhileBroken`. Unbroken: loses `unitsLostPerTurn`; if units remain, takes
 *   `markersPerTurn` markers, and when markers ≥ units it breaks (markers removed, or kept with
 *   `markersOnBreak: kept`) and withdraws, losing `withdrawalCost` units.
 * - End phase: a formation with units that is Broken or has markers tests once. Off the table
 *   (probability `offTable`) it never takes the −1; otherwise enemy within 30 cm with probability
 *   `enemyWithin30`. Pass on D6 − 2·Broken − 1·enemy ≥ Initiative (no automatic result). Pass:
 *   a Broken one is no longer Broken and gains a marker per unit; then ⌈markers / 2⌉ go. Fail: a
 *   Broken one withdraws again; an unbroken one keeps its markers.
 * - Losses never take a formation below 0 units (`unitsLost` counts units actually lost). A
 *   destroyed formation keeps the Broken flag and markers it had when it lost its last unit.
 *
 * `turn<t>.rallied` is a sum of independent per-formation pass indicators: a convolution of
 * Bernoullis. Every probability is a sum of products of non-negative numbers (helpers/distribution.ts:
 * rounding far below the tests' tolerances).
 */

export const FORMATION_METRICS = ['brokenAtEnd', 'markers', 'turnsBroken', 'unitsLost', 'destroyed', 'rallies', 'breaks'] as const;
export type FormationMetric = (typeof FORMATION_METRICS)[number];

/** A count input as a distribution. */
export function countDistribution(count: CountInput): Distribution {
  if (typeof count === 'number') return pointMass(count);
  const out = new Float64Array(Math.max(...count.map(({ value }) => value)) + 1);
  for (const { value, p } of count) out[value] = (out[value] as number) + p;
  return out;
}

const chanceOf = (condition: boolean | number): number => (typeof condition === 'number' ? condition : condition ? 1 : 0);

/** Faces of a D6 that pass: D6 + modifier ≥ Initiative, no automatic failure or success. */
export function passingFaces(initiative: number, modifier: number): number {
  let faces = 0;
  for (let face = 1; face <= 6; face++) if (face + modifier >= initiative) faces++;
  return faces;
}

/** P(a formation passes its Rally test): rulings §26 with the off-table FAQ. */
export function rallyChance(initiative: number, broken: boolean, enemyWithin30: number, offTable: number): number {
  const base = broken ? -2 : 0;
  const clear = passingFaces(initiative, base) / 6;
  const near = passingFaces(initiative, base - 1) / 6;
  return offTable * clear + (1 - offTable) * (enemyWithin30 * near + (1 - enemyWithin30) * clear);
}

interface State {
  readonly units: number;
  readonly markers: number;
  readonly broken: boolean;
  readonly turnsBroken: number;
  readonly rallies: number;
  readonly breaks: number;
}

type Chain = Map<string, { state: State; p: number }>;

function add(chain: Chain, state: State, p: number): void {
  if (p === 0) return;
  const key = `${state.units},${state.markers},${state.broken ? 1 : 0},${state.turnsBroken},${state.rallies},${state.breaks}`;
  const entry = chain.get(key);
  if (entry === undefined) chain.set(key, { state, p });
  else entry.p += p;
}

/** Each value of `d` with its probability (impossible values left out). */
function* outcomes(d: Distribution): Generator<[number, number]> {
  for (let v = 0; v < d.length; v++) if ((d[v] as number) > 0) yield [v, d[v] as number];
}

interface FormationInputs {
  readonly initiative: number;
  readonly enemyWithin30: number;
  readonly offTable: number;
  readonly markersPerTurn: Distribution;
  readonly unitsLostPerTurn: Distribution;
  readonly unitsLostWhileBroken: Distribution;
  readonly withdrawalCost: Distribution;
  readonly keepMarkersOnBreak: boolean;
}

function actionPhase(chain: Chain, f: FormationInputs): Chain {
  const next: Chain = new Map();
  for (const { state, p } of chain.values()) {
    if (state.units === 0) add(next, state, p);
    else if (state.broken) {
      for (const [lost, q] of outcomes(f.unitsLostWhileBroken)) {
        add(next, { ...state, units: Math.max(0, state.units - lost), turnsBroken: state.turnsBroken + 1 }, p * q);
      }
    } else {
      for (const [lost, q] of outcomes(f.unitsLostPerTurn)) {
        const units = Math.max(0, state.units - lost);
        if (units === 0) {
          add(next, { ...state, units }, p * q);
          continue;
        }
        for (const [inflow, r] of outcomes(f.markersPerTurn)) {
          const markers = state.markers + inflow;
          if (markers < units) {
            add(next, { ...state, units, markers }, p * q * r);
            continue;
          }
          for (const [cost, s] of outcomes(f.withdrawalCost)) {
            const broke = { ...state, broken: true, breaks: state.breaks + 1, markers: f.keepMarkersOnBreak ? markers : 0 };
            add(next, { ...broke, units: Math.max(0, units - cost) }, p * q * r * s);
          }
        }
      }
    }
  }
  return next;
}

/** The End phase; returns the chain after it and P(this formation passed a Rally test). */
function endPhase(chain: Chain, f: FormationInputs): { chain: Chain; pPassed: number } {
  const next: Chain = new Map();
  let pPassed = 0;
  for (const { state, p } of chain.values()) {
    if (state.units === 0 || (!state.broken && state.markers === 0)) {
      add(next, state, p);
      continue;
    }
    const pass = rallyChance(f.initiative, state.broken, f.enemyWithin30, f.offTable);
    const markers = state.markers + (state.broken ? state.units : 0);
    add(next, { ...state, broken: false, markers: markers - Math.ceil(markers / 2), rallies: state.rallies + 1 }, p * pass);
    pPassed += p * pass;
    if (!state.broken) add(next, state, p * (1 - pass));
    else
      for (const [cost, s] of outcomes(f.withdrawalCost))
        add(next, { ...state, units: Math.max(0, state.units - cost) }, p * (1 - pass) * s);
  }
  return { chain: next, pPassed };
}

export interface FormationExact {
  readonly id: string;
  /** Exact distribution of each per-formation metric after the last turn. */
  readonly metrics: Readonly<Record<FormationMetric, Distribution>>;
  /** P(it passes a Rally test in turn t's End phase), t = 1..turns at index t − 1. */
  readonly passByTurn: readonly number[];
}

export function exactFormation(formation: Formation, army: Army, turns: number, keepMarkersOnBreak: boolean): FormationExact {
  const f: FormationInputs = {
    initiative: formation.initiative ?? army.initiative,
    enemyWithin30: chanceOf(formation.enemyWithin30),
    offTable: chanceOf(formation.offTable),
    markersPerTurn: countDistribution(formation.markersPerTurn),
    unitsLostPerTurn: countDistribution(formation.unitsLostPerTurn),
    unitsLostWhileBroken: countDistribution(formation.unitsLostWhileBroken),
    withdrawalCost: countDistribution(formation.withdrawalCost),
    keepMarkersOnBreak,
  };
  let chain: Chain = new Map();
  add(chain, { units: formation.units, markers: formation.markers, broken: formation.broken, turnsBroken: 0, rallies: 0, breaks: 0 }, 1);
  const passByTurn: number[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const end = endPhase(actionPhase(chain, f), f);
    chain = end.chain;
    passByTurn.push(end.pPassed);
  }
  const value: Record<FormationMetric, (s: State) => number> = {
    brokenAtEnd: (s) => (s.broken ? 1 : 0),
    markers: (s) => s.markers,
    turnsBroken: (s) => s.turnsBroken,
    unitsLost: (s) => formation.units - s.units,
    destroyed: (s) => (s.units === 0 ? 1 : 0),
    rallies: (s) => s.rallies,
    breaks: (s) => s.breaks,
  };
  const metrics = {} as Record<FormationMetric, Distribution>;
  for (const name of FORMATION_METRICS) {
    let out = new Float64Array(1);
    for (const { state, p } of chain.values()) {
      const v = value[name](state);
      if (v >= out.length) {
        const grown = new Float64Array(v + 1);
        grown.set(out);
        out = grown;
      }
      out[v] = (out[v] as number) + p;
    }
    metrics[name] = out;
  }
  return { id: formation.id, metrics, passByTurn };
}

/** Every metric of the scenario by name (`turn<t>.rallied`, `<id>.<metric>`), exactly. */
export function exactEpic(scenario: Scenario, armies: ReadonlyMap<string, Army>): Map<string, Distribution> {
  const keep = scenario.options.markersOnBreak === 'kept';
  const formations = scenario.players.flatMap((player) => {
    const army = armies.get(player.army);
    if (army === undefined) throw new Error(`no army ${player.army}`);
    return player.formations.map((formation) => exactFormation(formation, army, scenario.turns, keep));
  });
  const out = new Map<string, Distribution>();
  for (let turn = 1; turn <= scenario.turns; turn++) {
    out.set(
      `turn${turn}.rallied`,
      formations.reduce((sum, f) => convolve(sum, bernoulli(f.passByTurn[turn - 1] ?? 0)), pointMass(0)),
    );
  }
  for (const f of formations) for (const name of FORMATION_METRICS) out.set(`${f.id}.${name}`, f.metrics[name]);
  return out;
}
