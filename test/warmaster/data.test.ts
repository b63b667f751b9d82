import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type ArmyFile,
  armyFileJsonSchemaText,
  armyFileSchema,
  type CombatFlag,
  combatFlagsTableSchema,
  regimentsOfRenownAlliesSchema,
  type WarmasterUnit,
} from '../../engine/warmaster/units.js';
import { main as convertMain } from '../../scripts/convert-warmaster.js';
import { copyWithChange, runInProcess, runScript, type ScriptRun } from '../helpers/converter-run.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The generated Warmaster army files against their source TSVs. The TSVs are read here with a
 * deliberately simple parser of its own (not the converter's), so a converter bug shows up as a
 * mismatch instead of being repeated on both sides.
 */

const repository = REPOSITORY;
const sourceDirectory = path.join(repository, 'data/warmaster/source');
const armiesDirectory = path.join(repository, 'data/warmaster/armies');
const ALLIES_TSV = 'regiments-of-renown-allies-table.tsv';
const DASH = '\u2013';

const armyNames = readdirSync(sourceDirectory)
  .filter((name) => name.endsWith('.tsv') && name !== ALLIES_TSV)
  .map((name) => name.replace(/\.tsv$/, ''))
  .sort();

const readYaml = (file: string): unknown => parse(readFileSync(file, 'utf8'));
const loadArmy = (army: string): ArmyFile => armyFileSchema.parse(readYaml(path.join(armiesDirectory, `${army}.yaml`)));
const armies = new Map(armyNames.map((army) => [army, loadArmy(army)]));

function unitOf(army: string, id: string): WarmasterUnit {
  const unit = armies.get(army)?.units.find((candidate) => candidate.id === id);
  if (unit === undefined) throw new Error(`${army} has no unit ${id}`);
  return unit;
}

/** Rows of a TSV as trimmed cells, with the section they sit in (before or after the {nbsp} row). */
function simpleRows(army: string): { cells: string[]; character: boolean }[] {
  const lines = readFileSync(path.join(sourceDirectory, `${army}.tsv`), 'utf8')
    .split('\n')
    .slice(1);
  let character = false;
  const rows: { cells: string[]; character: boolean }[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const cells = line.split('\t').map((cell) => cell.trim());
    if (cells[0] === '{nbsp}') character = true;
    else rows.push({ cells, character });
  }
  return rows;
}

const numberOrNull = (text: string): number | null => (text === DASH ? null : Number(text));
/** `4+` → 4; `–` and `0` → null. */
const save = (text: string): number | null => (text === DASH || text === '0' ? null : Number(text.replace('+', '')));

/** The fields a TSV row should give, worked out the plain way. */
function expectedFields(cells: string[], character: boolean): Record<string, unknown> {
  const [name = '', type = '', attacks = '', hits = '', armour = '', command = '', size = '', points = '', limits = '', special = ''] =
    cells;
  const fields: Record<string, unknown> = { name, kind: character ? 'character' : 'troop', type: type.toLowerCase().split(' ').join('-') };
  if (character) {
    const [close = '', shooting] = attacks.split('/');
    fields.attackBonus = close === DASH ? null : Number(close.replace('+', ''));
    if (shooting !== undefined) fields.shootingAttackBonus = Number(shooting.replace('+', ''));
    fields.command = numberOrNull(command);
    fields.unitSize = numberOrNull(size);
  } else {
    const [close = '', shooting] = attacks.split('/');
    const closeNumber = Number(close);
    fields.attacks = close === DASH || Number.isNaN(closeNumber) ? null : closeNumber;
    if (close !== DASH && Number.isNaN(closeNumber)) fields.attacksSpecial = close;
    if (shooting !== undefined) {
      if (Number.isNaN(Number(shooting))) fields.shootingSpecial = shooting.trim();
      else fields.shootingAttacks = Number(shooting);
    }
    fields.hits = numberOrNull(hits);
    const options = armour.includes('/') ? armour.split('/') : armour.split(' or ');
    fields.armour = save(options[0] ?? '');
    if (options.length === 2) fields.armourOption = save(options[1] ?? '');
    fields.unitSize = Number(size);
  }
  fields.points = Number(points.replace('+', ''));
  if (points.startsWith('+')) fields.pointsAdded = true;
  const pair = limits.includes('/') ? limits.split('/') : limits.length > 1 ? limits.split(DASH) : [limits, limits];
  fields.min = numberOrNull(pair[0] ?? '');
  fields.max = numberOrNull(pair[1] ?? '');
  fields.specialRules = special === DASH ? [] : special.split(',').map((rule) => Number(rule.trim().replace('*', '')));
  return fields;
}

describe('Warmaster army files', () => {
  it('there is one army file per army TSV, and no other', () => {
    expect(armyNames.length).toBe(26);
    const files = readdirSync(armiesDirectory).filter((name) => name.endsWith('.yaml'));
    expect(files.map((name) => name.replace(/\.yaml$/, '')).sort()).toEqual(armyNames);
  });

  it.each(armyNames)('%s loads through the schema and says where it comes from', (army) => {
    const text = readFileSync(path.join(armiesDirectory, `${army}.yaml`), 'utf8');
    expect(text.startsWith(`# Generated by scripts/convert-warmaster.ts from data/warmaster/source/${army}.tsv:`)).toBe(true);
    expect(existsSync(path.join(sourceDirectory, `${army}.tsv`))).toBe(true);
    expect(text).toContain('commit 44e9a2bf');
    expect(text).toContain('$schema=../../../schema/warmaster-units.schema.json');
    const file = armies.get(army);
    expect(file?.army).toBe(army);
    expect(file?.source).toContain(`${army}.tsv`);
  });

  it.each(armyNames)("every unit of %s matches its TSV row, in the TSV's order", (army) => {
    const rows = simpleRows(army);
    const units = armies.get(army)?.units ?? [];
    expect(units.length).toBe(rows.length);
    rows.forEach(({ cells, character }, index) => {
      const unit = units[index] as WarmasterUnit;
      const { id, flags, flagsConfidence, ...stats } = unit;
      expect(stats, `${army} row ${index + 1} (${cells[0]})`).toEqual(expectedFields(cells, character));
      expect(id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    });
    expect(new Set(units.map((unit) => unit.id)).size).toBe(units.length);
  });

  it('no cell was left unparsed (raw)', () => {
    const unparsed = [...armies.values()].flatMap((file) =>
      file.units.filter((unit) => unit.raw !== undefined).map((unit) => `${file.army}/${unit.id}`),
    );
    expect(unparsed).toEqual([]);
  });

  it('the committed JSON Schema matches the zod schema', () => {
    const committed = readFileSync(path.join(repository, 'schema/warmaster-units.schema.json'), 'utf8');
    expect(committed, 'schema/warmaster-units.schema.json is stale: run npx tsx scripts/convert-warmaster.ts').toBe(
      armyFileJsonSchemaText(),
    );
  });
});

describe('Warmaster TSV quirks, case by case', () => {
  it('Attacks: close/shooting and the compound shooting forms', () => {
    expect(unitOf('empire', 'handgunners')).toMatchObject({ attacks: 3, shootingAttacks: 1 }); // 3/1
    expect(unitOf('empire', 'cannon')).toMatchObject({ attacks: 1, shootingSpecial: '2+bounce' }); // 1/2+bounce
    expect(unitOf('empire', 'cannon')).not.toHaveProperty('shootingAttacks');
    expect(unitOf('regiments-of-renown', 'bronzinos-galloper-guns')).toMatchObject({ attacks: 1, shootingSpecial: '2 + bounce' });
    expect(unitOf('empire', 'helblaster')).toMatchObject({ attacks: 1, shootingSpecial: `8${DASH}4${DASH}2` }); // 1/8–4–2
    expect(unitOf('chaos-dwarfs', 'death-rocket')).toMatchObject({ shootingSpecial: 'D6' });
    expect(unitOf('cathay', 'rocket-launcher')).toMatchObject({ shootingSpecial: '1D6' });
    expect(unitOf('dwarfs', 'flame-cannon')).toMatchObject({ shootingSpecial: '2D6' });
    expect(unitOf('chaos-dwarfs', 'bolt-thrower')).toMatchObject({ shootingSpecial: '2+skewer' });
    expect(unitOf('goblins', 'spear-chukka')).toMatchObject({ shootingSpecial: '2 per stand' });
    expect(unitOf('goblins', 'pump-wagon')).toMatchObject({ attacks: null, attacksSpecial: 'D6' }); // D6 in close combat
    expect(unitOf('skaven', 'screaming-bell')).toMatchObject({ attacks: null }); // –
    expect(unitOf('skaven', 'screaming-bell')).not.toHaveProperty('attacksSpecial');
  });

  it('Attacks of characters and mounts: +2, +0, +2/+2, –', () => {
    expect(unitOf('empire', 'general')).toMatchObject({ kind: 'character', attackBonus: 2, command: 9 });
    expect(unitOf('empire', 'wizard')).toMatchObject({ attackBonus: 0 });
    expect(unitOf('araby', 'djinn')).toMatchObject({ attackBonus: 2, shootingAttackBonus: 2 });
    expect(unitOf('high-elves', 'dragon')).toMatchObject({ attackBonus: 3, shootingAttackBonus: 3 });
    expect(unitOf('cathay', 'sorcerer')).toMatchObject({ attackBonus: null });
  });

  it('Armour: n+, – and 0 as none, either/or forms', () => {
    expect(unitOf('empire', 'knights')).toMatchObject({ armour: 4 });
    expect(unitOf('empire', 'skirmishers')).toMatchObject({ armour: null, armourOption: 6 }); // –/6+
    expect(unitOf('kislev', 'war-wagon')).toMatchObject({ armour: 4, armourOption: null }); // 4+/–
    expect(unitOf('wood-elves', 'wardancers')).toMatchObject({ armour: null, armourOption: 5 }); // 0 or 5+
    expect(unitOf('dark-elves', 'witch-elves')).toMatchObject({ armour: null }); // 0
    expect(unitOf('regiments-of-renown', 'marksmen-of-miragliano')).toMatchObject({ armour: null }); // 0 with a trailing space
    expect(unitOf('dark-elves', 'witch-elves')).not.toHaveProperty('armourOption');
  });

  it('Min/max: 2/–, –/1, –/–, 2/4, 0–1, 1', () => {
    expect(unitOf('empire', 'halberdiers')).toMatchObject({ min: 2, max: null });
    expect(unitOf('empire', 'flagellants')).toMatchObject({ min: null, max: 1 });
    expect(unitOf('empire', 'knights')).toMatchObject({ min: null, max: null });
    expect(unitOf('chaos-dwarfs', 'chaos-dwarfs')).toMatchObject({ min: 2, max: 4 });
    expect(unitOf('empire', 'war-altar')).toMatchObject({ min: 0, max: 1 });
    expect(unitOf('empire', 'general')).toMatchObject({ min: 1, max: 1 });
  });

  it('Points: +80 is added to the character; 0 is a cost, not none', () => {
    expect(unitOf('empire', 'griffon')).toMatchObject({
      type: 'monstrous-mount',
      points: 80,
      pointsAdded: true,
      unitSize: null,
      command: null,
    });
    expect(unitOf('empire', 'general')).not.toHaveProperty('pointsAdded');
    expect(unitOf('albion', 'fenbeast')).toMatchObject({ points: 0 });
  });

  it('names: trailing spaces dropped, curly apostrophes kept in the name and dropped from the id', () => {
    expect(unitOf('regiments-of-renown', 'pirazzos-lost-legion').name).toBe('Pirazzo\u2019s Lost Legion');
    expect(unitOf('regiments-of-renown', 'the-cursed-company').name).toBe('The Cursed Company');
    expect(unitOf('dark-elves', 'spearmen').name).toBe('Spearmen');
    expect(unitOf('nippon', 'mikata-ronin-monks').name).toBe('Mikata (Ronin & Monks)');
  });

  it('special rules, types and the odd cells the source prints', () => {
    expect(unitOf('bretonnia', 'grail-knights').specialRules).toEqual([2, 3]); // *2, *3
    expect(unitOf('wood-elves', 'wild-riders').specialRules).toEqual([4, 5]); // *4,*5
    expect(unitOf('bretonnia', 'grail-reliquae')).toMatchObject({ type: 'special-bonus', attackBonus: null });
    expect(unitOf('cathay', 'maneaters')).toMatchObject({ kind: 'troop', hits: null }); // the TSV prints – for Hits
    expect(unitOf('lizardmen', 'slann-mage-palanquin')).toMatchObject({ type: 'general', command: null });
  });
});

describe('combat flags table', () => {
  const table = combatFlagsTableSchema.parse(readYaml(path.join(repository, 'data/warmaster/combat-flags.yaml')));

  it('every unit row names an existing unit and a special rule its row lists, and its flags reach the army file', () => {
    for (const row of table.units) {
      const unit = unitOf(row.army, row.unit);
      expect(unit.specialRules, `${row.army}/${row.unit}`).toEqual(expect.arrayContaining(row.rules));
      expect(row.source).toMatch(/\*\d+/);
      for (const flag of Object.keys(row.flags) as CombatFlag[]) expect(unit.flags?.[flag], `${row.army}/${row.unit}.${flag}`).toBe(true);
      if (row.confidence === 'low') expect(unit.flagsConfidence).toBe('low');
    }
  });

  it('every army rule names an existing army and units, and reaches each unit it covers', () => {
    for (const row of table.armyRules) {
      const file = armies.get(row.army);
      expect(file, row.army).toBeDefined();
      for (const id of row.except)
        expect(
          file?.units.some((unit) => unit.id === id),
          `${row.army}/${id}`,
        ).toBe(true);
      for (const unit of file?.units ?? []) {
        const covered = !row.except.includes(unit.id) && (row.appliesTo === 'all' || unit.kind === 'troop');
        for (const flag of Object.keys(row.flags) as CombatFlag[])
          if (covered) expect(unit.flags?.[flag], `${row.army}/${unit.id}.${flag}`).toBe(true);
      }
    }
  });

  it('the flags the issue names are set where the rules say', () => {
    expect(unitOf('orcs', 'trolls').flags).toMatchObject({ regenerates: true });
    expect(unitOf('empire', 'steam-tank').flags).toEqual({ alwaysDefended: true, shotsMakeArmourOneWorse: true });
    expect(unitOf('albion', 'giant').flags).toEqual({ terror: true });
    expect(unitOf('vampire-counts', 'skeletons').flags).toEqual({ immuneToTerror: true });
    expect(unitOf('vampire-counts', 'ghouls')).not.toHaveProperty('flags');
    expect(unitOf('cathay', 'celestial-dragon')).toMatchObject({ flags: { terror: true }, flagsConfidence: 'low' });
  });
});

describe('Regiments of Renown allies', () => {
  const allies = regimentsOfRenownAlliesSchema.parse(readYaml(path.join(repository, 'data/warmaster/regiments-of-renown-allies.yaml')));
  const lines = readFileSync(path.join(sourceDirectory, ALLIES_TSV), 'utf8').trim().split('\n').slice(1);

  it('lists each army of the table, with as many regiments as it has + marks', () => {
    expect(allies.armies.length).toBe(lines.length);
    allies.armies.forEach((entry, index) => {
      const marks = (lines[index] ?? '')
        .split('\t')
        .slice(1)
        .map((mark) => mark.trim());
      expect(entry.regiments.length, entry.name).toBe(marks.filter((mark) => mark === '+').length);
      expect(armies.has(entry.army), entry.army).toBe(true);
      for (const id of entry.regiments) unitOf('regiments-of-renown', id);
    });
  });

  it('spot check: the Empire may hire everything but four regiments', () => {
    const empire = allies.armies.find((entry) => entry.army === 'empire')?.regiments ?? [];
    const all = armies.get('regiments-of-renown')?.units.map((unit) => unit.id) ?? [];
    expect(all.filter((id) => !empire.includes(id))).toEqual([
      'rugluds-armoured-orcs',
      'al-muktars-desert-dogs',
      'oglah-khans-wolfboyz',
      'birdmen-of-catrazza',
    ]);
  });
});

/** The converter's command line, run in this process (one test runs the script itself, as CI does). */
const converter = (...args: string[]): Promise<ScriptRun> => runInProcess(convertMain, ...args);

describe('scripts/convert-warmaster.ts', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'crucible-warmaster-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  const sourcesWith = (file: string, change: (text: string) => string): Promise<string> =>
    copyWithChange(scratch, sourceDirectory, file, change);

  it('--check passes on the committed files (the script run as CI runs it, in a child process)', async () => {
    const result = await runScript(repository, 'scripts/convert-warmaster.ts', '--check');
    expect(result.stderr.replace(/^npm warn.*\n/gm, '')).toBe('');
    expect(result.stdout).toBe('up to date: 26 army files, 390 units\n');
    expect(result.status).toBe(0);
  });

  it('--check fails, naming the file, when a stat changes (and writes nothing)', async () => {
    const source = await sourcesWith('empire.tsv', (text) => text.replace('Halberdiers\tInfantry\t3\t3', 'Halberdiers\tInfantry\t4\t3'));
    const result = await converter('--check', source);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('data/warmaster/armies/empire.yaml: differs from what the converter writes');
    expect(existsSync(path.join(armiesDirectory, 'empire.yaml'))).toBe(true);
    expect((await converter('--check')).status).toBe(0);
  });

  it('a source folder that is missing or a file is exit 2, named, with the usage and no stack trace', async () => {
    const missing = path.join(scratch, 'no-such-folder');
    const result = await converter('--check', missing);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: `${missing}: (root): no such directory: give the folder of source files\nusage: npx tsx scripts/convert-warmaster.ts [--check] [source-directory]\n`,
    });
    const file = path.join(sourceDirectory, 'empire.tsv');
    expect((await converter(file)).stderr).toContain(`${file}: (root): not a directory`);
  });

  it('a broken row stops it, naming file, line and column', async () => {
    const source = await sourcesWith('orcs.tsv', (text) => text.replace('Trolls\tInfantry', 'Trolls\tInfantrie'));
    const result = await converter('--check', source);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${path.join(source, 'orcs.tsv')}: line 5, column Type: troop type must be one of`);
  });

  it('an unknown cell form is kept in raw with a warning, never guessed', async () => {
    const source = await sourcesWith('empire.tsv', (text) => text.replace('Knights\tCavalry\t3\t3\t4+', 'Knights\tCavalry\t3\t3\t4++'));
    const result = await converter('--check', source);
    expect(result.stderr).toContain(
      `warning: ${path.join(source, 'empire.tsv')}: line 7, column Armour: unrecognised form "4++": kept in raw, field left null`,
    );
    expect(result.status).toBe(1); // the file would change
  });
});
