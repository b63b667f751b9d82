import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * A roster of Warmaster troop units for the round-robin bench (bench/round-robin.ts; issue 35's
 * analyses rows run data/warmaster/rosters/four-armies.yaml itself, bench/analysis.ts): that
 * roster's template (the first unit charges, three stands in contact, fought to its end) over every
 * troop unit of three stands that can fight (numeric Hits) in the bundled army lists, taken evenly
 * across the armies when `units` is fewer. Written to a temporary folder; `remove` deletes it.
 */

const root = path.join(import.meta.dirname, '..');
const armiesFolder = path.join(root, 'data/warmaster/armies');

interface ArmyUnit {
  readonly id: string;
  readonly name?: string;
  readonly kind?: string;
  readonly type?: string;
  readonly hits?: unknown;
  readonly unitSize?: number;
  readonly points?: number;
}

/** Every troop unit of three stands with numeric Hits, army by army. */
function warmasterTroops(): { id: string; name: string; cost?: number }[] {
  return readdirSync(armiesFolder)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .flatMap((name) => {
      const army = name.slice(0, -'.yaml'.length);
      const list = parse(readFileSync(path.join(armiesFolder, name), 'utf8')) as { units: ArmyUnit[] };
      return list.units
        .filter(
          (unit) =>
            unit.kind === 'troop' &&
            (unit.unitSize ?? 3) === 3 &&
            typeof unit.hits === 'number' &&
            ['infantry', 'cavalry', 'chariot', 'monster'].includes(unit.type ?? ''),
        )
        .map((unit) => ({
          id: `${army}/${unit.id}`,
          name: `${unit.name ?? unit.id} (${army})`,
          ...(unit.points === undefined ? {} : { cost: unit.points }),
        }));
    });
}

export function writeWarmasterRoster(units: number): { readonly file: string; readonly remove: () => void } {
  const troops = warmasterTroops();
  if (!Number.isInteger(units) || units < 2 || units > troops.length)
    throw new Error(`units must be a whole number from 2 to ${troops.length} (the troop units of three stands in the bundled lists)`);
  const step = troops.length / units;
  const entries = Array.from({ length: units }, (_, i) => troops[Math.floor(i * step)]);
  const template = parse(readFileSync(path.join(root, 'data/warmaster/rosters/four-armies.yaml'), 'utf8')) as {
    template: Record<string, unknown>;
  };
  const folder = mkdtempSync(path.join(tmpdir(), 'crucible-round-robin-'));
  const file = path.join(folder, `warmaster-${units}.yaml`);
  writeFileSync(
    file,
    stringify({
      name: `${units} Warmaster troop units`,
      fielded: 'whole',
      template: { ...template.template, armies: armiesFolder },
      entries,
    }),
  );
  return { file, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
