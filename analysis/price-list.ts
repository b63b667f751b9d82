import type { Interval } from '../statistics/intervals.js';
import { type PriceVerdict, priceVerdict, type Tolerance, tolerancePoints } from './price-verdict.js';

/**
 * A price list a designer can hand over: for every unit its published cost, the cost it deserves
 * (the proposal) with its 95% interval, the change in percent, the verdict at the designer's
 * tolerance, and — when the roster plays several situations — what it deserves in each, which
 * situation drives the verdict, and whether its right price depends on the mix. Whole units
 * (analysis/whole-unit-costs.ts) and units bought by count (analysis/count-costs.ts) both end in
 * these rows; each adds its own columns.
 */

export interface SituationPrice {
  readonly situation: string;
  /** Its share of the games. */
  readonly share: number;
  /** What the unit deserves if every game were this situation; undefined when it cannot be read. */
  readonly deserved?: number | undefined;
  readonly interval?: Interval | undefined;
}

export interface PriceRow {
  readonly id: string;
  readonly name: string;
  readonly published: number;
  /** The proposed cost: what the unit deserves over the roster's mix of situations. */
  readonly deserved?: number | undefined;
  readonly interval?: Interval | undefined;
  /** (deserved − published) / published, in percent. */
  readonly changePercent?: number | undefined;
  readonly verdict?: PriceVerdict | undefined;
  /** With several situations: the deserved cost in each. */
  readonly situations?: readonly SituationPrice[] | undefined;
  /** The deserved costs of the situations differ by more than twice the tolerance: the right price depends on the mix. */
  readonly mixSensitive?: boolean | undefined;
  /** The situation that pulls the verdict hardest: the largest share × distance beyond the proposal, in the verdict's direction. */
  readonly drivenBy?: string | undefined;
  /** Why no price could be read off, in words. */
  readonly problem?: string | undefined;
}

/** The shared columns of a row from a unit's deserved cost, its interval and its per-situation costs. */
export function priceRow(
  unit: { id: string; name: string; published: number },
  deserved: number | undefined,
  interval: Interval | undefined,
  tolerance: Tolerance,
  situations?: readonly SituationPrice[],
): PriceRow {
  const known = deserved !== undefined && Number.isFinite(deserved) && deserved > 0;
  const verdict = known && interval !== undefined ? priceVerdict(unit.published, deserved, interval, tolerance) : undefined;
  const priced = (situations ?? []).filter(
    (entry): entry is SituationPrice & { deserved: number } =>
      entry.deserved !== undefined && Number.isFinite(entry.deserved) && entry.deserved > 0,
  );
  const several = situations !== undefined && situations.length > 1;
  const spread =
    priced.length > 1 ? Math.max(...priced.map((entry) => entry.deserved)) - Math.min(...priced.map((entry) => entry.deserved)) : 0;
  // A situation pulls by how much of the games it is and how far beyond the proposal it prices the unit, in the verdict's direction.
  const direction = verdict === 'under-costed' ? 1 : verdict === 'over-costed' ? -1 : 0;
  const pullOf = (entry: SituationPrice & { deserved: number }) =>
    known ? entry.share * direction * Math.log(entry.deserved / deserved) : 0;
  const pulling = priced.filter((entry) => pullOf(entry) > 0);
  const driver =
    several && direction !== 0 && pulling.length > 0
      ? pulling.reduce((best, entry) => (pullOf(entry) > pullOf(best) ? entry : best))
      : undefined;
  return {
    id: unit.id,
    name: unit.name,
    published: unit.published,
    ...(known ? { deserved, changePercent: ((deserved - unit.published) / unit.published) * 100 } : {}),
    ...(interval === undefined ? {} : { interval }),
    ...(verdict === undefined ? {} : { verdict }),
    ...(several ? { situations, mixSensitive: spread > 2 * tolerancePoints(tolerance, unit.published) } : {}),
    ...(driver === undefined ? {} : { drivenBy: driver.situation }),
  };
}
