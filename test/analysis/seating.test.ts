import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readFile } from 'node:fs/promises';
import { matchups } from '../../analysis/matchups.js';
import { loadRoster } from '../../input/roster.js';
import { InputError } from '../../input/errors.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Seating: every pairing is played with the row unit first and second, and nothing depends on
 * which side of the template a unit was written on. Mirrors come out fair in every rule system
 * with a roster, and the matrix is zero-sum (score(u, v) + score(v, u) = 1).
 */

const SEED = 20261122;
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-seating-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A copy of a bundled roster in the temp folder, its template changed by `edit` (relative paths made absolute). */
async function rosterCopy(relative: string, name: string, edit: (roster: Record<string, unknown>) => void): Promise<string> {
  const source = path.join(REPOSITORY, relative);
  const roster = parse(await readFile(source, 'utf8')) as Record<string, unknown>;
  const template = roster.template as Record<string, unknown>;
  for (const key of ['unitsFile', 'data'])
    if (typeof template[key] === 'string') template[key] = path.resolve(path.dirname(source), template[key] as string);
  edit(roster);
  const file = path.join(directory, name);
  await writeFile(file, stringify(roster));
  return file;
}

const ROSTERS = [
  { ruleset: 'heroic', file: 'data/heroic/rosters/core.yaml', only: ['sylvan-knight', 'goblin', 'orc-barbarian'] },
  {
    ruleset: 'battleforge',
    file: 'data/battleforge/rosters/core-infantry.yaml',
    only: ['human_kingdoms/bowmen', 'orcs_and_goblins/orc_warriors'],
  },
  {
    ruleset: 'warmaster',
    file: 'data/warmaster/rosters/four-armies.yaml',
    only: ['empire/halberdiers', 'orcs/orc-warriors', 'dwarfs/warriors'],
  },
] as const;

describe('matchups seating', () => {
  it.each(ROSTERS)(
    '$ruleset: mirrors score exactly ½ over both seatings, and the matrix is zero-sum',
    async ({ file, only }) => {
      const result = await matchups(await loadRoster(path.join(REPOSITORY, file)), { only, trials: 400, seed: SEED });
      expect(result.cells).toHaveLength(only.length ** 2);
      for (const cell of result.cells) {
        const mirror = result.cells.find((other) => other.row === cell.column && other.column === cell.row);
        expect(cell.combined.score.value + (mirror?.combined.score.value ?? Number.NaN)).toBeCloseTo(1, 12);
        if (cell.row === cell.column) {
          expect(cell.combined.score.value).toBe(0.5);
          expect(cell.combined.score.interval.low).toBeLessThanOrEqual(0.5);
          expect(cell.combined.score.interval.high).toBeGreaterThanOrEqual(0.5);
          // Going first and going second are the same run seen from either side.
          expect(cell.first?.win.value).toBe(cell.second?.loss.value);
        }
        // W + D + L = 1 in every seating.
        for (const outcome of [cell.first, cell.second, cell.combined]) {
          expect((outcome?.win.value ?? 0) + (outcome?.draw.value ?? 0) + (outcome?.loss.value ?? 0)).toBeCloseTo(1, 12);
        }
      }
    },
    30_000,
  );

  it('a template with $A on the second side gives the same numbers: the unit is read from its own side', async () => {
    const reversed = await rosterCopy('data/heroic/rosters/core.yaml', 'reversed.yaml', (roster) => {
      const template = roster.template as { sides: unknown[] };
      template.sides.reverse();
    });
    const only = ['sylvan-knight', 'ogre'];
    const options = { only, trials: 300, seed: SEED };
    const straight = await matchups(await loadRoster(path.join(REPOSITORY, 'data/heroic/rosters/core.yaml')), options);
    const swapped = await matchups(await loadRoster(reversed), options);
    // Same scenarios (side names aside) with the same seed: identical counts, seating by seating.
    for (const cell of straight.cells) {
      const other = swapped.cells.find((entry) => entry.row === cell.row && entry.column === cell.column);
      expect(other?.first?.win.value).toBe(cell.first?.win.value);
      expect(other?.second?.win.value).toBe(cell.second?.win.value);
      expect(other?.combined.score.value).toBe(cell.combined.score.value);
    }
    // And the first seat matters in heroic (side A activates first), so the check has teeth.
    const knightsVsOgre = straight.cells.find((cell) => cell.row === 'sylvan-knight' && cell.column === 'ogre');
    expect(knightsVsOgre?.first?.win.value).not.toBe(knightsVsOgre?.second?.win.value);
  });

  it('the loader refuses a template that does not put $A and $B on different sides, naming the field', async () => {
    const both = await rosterCopy('data/heroic/rosters/core.yaml', 'both.yaml', (roster) => {
      const template = roster.template as { sides: { groups: { unit: string }[] }[] };
      const [, second] = template.sides;
      if (second?.groups[0] !== undefined) second.groups[0].unit = '$A';
    });
    await expect(loadRoster(both)).rejects.toThrow(InputError);
    await expect(loadRoster(both)).rejects.toThrow(/template\.sides.*both sides use \$A|no side fields \$B/);
    const one = await rosterCopy('data/heroic/rosters/core.yaml', 'one-side.yaml', (roster) => {
      const template = roster.template as { sides: unknown[] };
      template.sides = [template.sides[0]];
    });
    await expect(loadRoster(one)).rejects.toThrow(/template\.sides: a roster template needs exactly two sides/);
  });
});
