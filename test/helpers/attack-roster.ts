import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';

/**
 * A heroic roster in `directory` whose games have exact answers: `mode: attack` (only the first side
 * attacks, once; it wins when its Wounds vanquish the target, a draw otherwise), made-up units of
 * one melee weapon each, written as units.yaml and roster.yaml. Returns the roster's path.
 */
export interface AttackUnit {
  readonly id: string;
  readonly name: string;
  readonly def: number;
  readonly might: number;
  readonly atk: number;
}

export async function writeAttackRoster(
  directory: string,
  name: string,
  units: readonly AttackUnit[],
  entries: readonly Record<string, unknown>[],
): Promise<string> {
  await writeFile(
    path.join(directory, 'units.yaml'),
    stringify({
      units: units.map((unit) => ({
        id: unit.id,
        name: unit.name,
        madeUp: true,
        def: unit.def,
        might: unit.might,
        will: 3,
        weapons: [{ name: `${unit.name}'s weapon`, type: 'melee', atk: unit.atk }],
      })),
    }),
  );
  const file = path.join(directory, 'roster.yaml');
  await writeFile(
    file,
    stringify({
      name,
      template: {
        ruleset: 'heroic',
        name: '$A vs $B',
        unitsFile: 'units.yaml',
        mode: 'attack',
        sides: [
          { name: 'A: $A', groups: [{ id: 'a', unit: '$A', models: '$A.count', target: 'b' }] },
          { name: 'B: $B', groups: [{ id: 'b', unit: '$B', models: '$B.count' }] },
        ],
      },
      entries,
    }),
  );
  return file;
}
