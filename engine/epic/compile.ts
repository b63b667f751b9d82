import { OutcomeTable } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import type { Army, CountInput, EpicOptions, Rules, Scenario } from './schema.js';

/**
 * A validated scenario as flat numbers: formations in file order (the first player's first), each
 * with its player, Initiative and inputs. A count distribution is an OutcomeTable, drawn with one
 * `pick` (and walked branch by branch when enumerated); a fixed count needs no draw.
 */

/** Inputs per formation, each a count: where its values sit in `countValues`, and its table in `countTables`. */
export const MARKERS_PER_TURN = 0;
export const UNITS_LOST_PER_TURN = 1;
export const UNITS_LOST_WHILE_BROKEN = 2;
export const WITHDRAWAL_COST = 3;
export const COUNT_INPUTS = 4;

export interface CompiledFormation {
  readonly id: string;
  readonly name: string;
  readonly index: number;
  readonly player: number;
}

export interface CompiledScenario {
  readonly name: string;
  readonly playerNames: readonly string[];
  readonly turns: number;
  readonly options: EpicOptions;
  /** The rule text's numbers (schema.ts `rulesSchema`): every roll, modifier and marker count reads them. */
  readonly rules: Rules;
  /**
   * The die of a Rally test and of a roll-off when it is not a D6 (`rules.dieSides`): its faces 1..n
   * as a uniform table, drawn with one `pick` (and enumerated face by face); null for the text's D6,
   * rolled with `d6()`, so the default draws the very random numbers it always has.
   */
  readonly dieTable: OutcomeTable | null;
  readonly formations: readonly CompiledFormation[];
  /** Players in rally order (highest Strategy Rating first); `tie`: equal ratings, decided by a roll-off each End phase. */
  readonly rallyOrder: Int32Array;
  /** Per player, its army's Strategy Rating (shown in traces). */
  readonly strategyRatings: Int32Array;
  readonly tie: boolean;
  // Per formation.
  readonly player: Int32Array;
  readonly units: Int32Array;
  readonly initiative: Int32Array;
  readonly broken: Int32Array;
  readonly markers: Int32Array;
  /** Probability each End phase (0 never, 1 always). */
  readonly enemyWithin30: Float64Array;
  readonly offTable: Float64Array;
  /** countStart[formation × COUNT_INPUTS + input] .. countStart[… + 1]: that input's values and cumulative thresholds. */
  readonly countStart: Int32Array;
  readonly countValues: Int32Array;
  /** Per formation × input, its distribution as a table to `pick` (null: a fixed count). */
  readonly countTables: readonly (OutcomeTable | null)[];
  readonly method: DrawMethod;
}

const eachTurn = (value: boolean | number): number => (value === true ? 1 : value === false ? 0 : value);

/** The die `Dice` rolls as such (`d6()`): the text's, so its draws stay those of a D6. */
const D6 = 6;
function dieTable(sides: number): OutcomeTable | null {
  if (sides === D6) return null;
  const faces = Array.from({ length: sides }, (_, face) => face + 1);
  return new OutcomeTable(
    faces,
    faces.map(() => 1 / sides),
  );
}

/** `armies`: the armies file's entries by id (validate.ts has checked every id exists). */
export function compileScenario(scenario: Scenario, armies: ReadonlyMap<string, Army>, method: DrawMethod): CompiledScenario {
  const declared = scenario.players.flatMap((player, p) =>
    player.formations.map((formation) => ({ formation, p, army: armies.get(player.army) })),
  );
  const count = declared.length;
  const perFormation = () => new Int32Array(count);
  const player = perFormation();
  const units = perFormation();
  const initiative = perFormation();
  const broken = perFormation();
  const markers = perFormation();
  const enemyWithin30 = new Float64Array(count);
  const offTable = new Float64Array(count);
  const countStart = new Int32Array(count * COUNT_INPUTS + 1);
  const values: number[] = [];
  const addCount = (input: CountInput) => {
    if (typeof input === 'number') values.push(input);
    else for (const entry of input) values.push(entry.value);
  };
  const countTables: (OutcomeTable | null)[] = [];
  const formations: CompiledFormation[] = [];
  declared.forEach(({ formation, p, army }, index) => {
    player[index] = p;
    units[index] = formation.units;
    initiative[index] = formation.initiative ?? army?.initiative ?? 1;
    broken[index] = formation.broken ? 1 : 0;
    markers[index] = formation.markers;
    enemyWithin30[index] = eachTurn(formation.enemyWithin30);
    offTable[index] = eachTurn(formation.offTable);
    const inputs = [formation.markersPerTurn, formation.unitsLostPerTurn, formation.unitsLostWhileBroken, formation.withdrawalCost];
    inputs.forEach((input, i) => {
      countStart[index * COUNT_INPUTS + i] = values.length;
      addCount(input);
      // A single value (or a one-entry distribution) is fixed: nothing to draw.
      countTables.push(
        typeof input === 'number' || input.length === 1
          ? null
          : new OutcomeTable(
              input.map((entry) => entry.value),
              input.map((entry) => entry.p),
            ),
      );
    });
    formations.push({ id: formation.id, name: formation.name ?? formation.id, index, player: p });
  });
  countStart[count * COUNT_INPUTS] = values.length;
  const ratings = scenario.players.map((entry) => armies.get(entry.army)?.strategyRating ?? 0);
  const order = ratings.map((_, p) => p).sort((a, b) => (ratings[b] ?? 0) - (ratings[a] ?? 0) || a - b);
  return {
    name: scenario.name,
    playerNames: scenario.players.map((entry) => entry.name),
    turns: scenario.turns,
    options: scenario.options,
    rules: scenario.rules,
    dieTable: dieTable(scenario.rules.dieSides),
    formations,
    rallyOrder: Int32Array.from(order),
    strategyRatings: Int32Array.from(ratings),
    tie: ratings.length === 2 && ratings[0] === ratings[1] && scenario.options.firstInRallyTie === 'roll-off',
    player,
    units,
    initiative,
    broken,
    markers,
    enemyWithin30,
    offTable,
    countStart,
    countValues: Int32Array.from(values),
    countTables,
    method,
  };
}
