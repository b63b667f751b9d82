import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../engine/battleforge/terms.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A bundled scenario's name and description say what it sets, and must keep saying it: a
 * description that claims "shoot then charge" over `plan: shoot-and-hold` misleads every reader of
 * the file and of the reports quoting it. Checked two ways, on the scenario as loaded (defaults
 * filled in, with the data it reads):
 *
 * - mechanically, what a description can name in the scenario's own words: a Battle Forge plan in
 *   words ("shoot and hold", "charges and fights") is a plan a side or unit follows; `options.x: y`
 *   and a field with its number (`maxRounds 1`) are what the scenario sets; a file it names exists;
 * - by a list of facts for each bundled scenario: a phrase of its name or description, and the value
 *   behind it. Every bundled scenario has an entry: a new one, or a changed phrase, asks for its facts.
 */

/** A phrase of the name or description, the field path it speaks of (`refs.` for the data the scenario reads), and the value. */
type Fact = readonly [phrase: string, path: string, value: unknown];

const FACTS: Readonly<Record<string, readonly Fact[]>> = {
  'battleforge/battlemage-vs-orc-warriors.yaml': [
    ['casts Fireball (cast 7, 3 hits AP1 within 12")', 'sides[0].units[0].powers[0]', 'fireball'],
    ['casts Fireball (cast 7, 3 hits AP1 within 12")', 'refs.powers.human_kingdoms/fireball.cast', 7],
    ['casts Fireball (cast 7, 3 hits AP1 within 12")', 'refs.powers.human_kingdoms/fireball.hits', 3],
    ['casts Fireball (cast 7, 3 hits AP1 within 12")', 'refs.powers.human_kingdoms/fireball.ap', 1],
    ['casts Fireball (cast 7, 3 hits AP1 within 12")', 'refs.powers.human_kingdoms/fireball.range', 12],
    ['beside a unit of Bowmen', 'sides[0].units[1].unit', 'human_kingdoms/bowmen'],
    ['The Orcs bring a Goblin Shaman', 'sides[1].units[1].unit', 'orcs_and_goblins/goblin_shaman'],
    ['The Orcs charge', 'sides[1].plan', 'charge-and-fight'],
  ],
  'battleforge/bowmen-hold-vs-orc-charge.yaml': [
    ['10 Human Kingdoms Bowmen', 'sides[0].units[0].models', 10],
    ['in soft cover', 'sides[0].units[0].cover', 'soft'],
    ['24" from', 'distance', 24],
    ['10 Orc Warriors who charge and fight', 'sides[1].units[0].models', 10],
    ['10 Orc Warriors who charge and fight', 'sides[1].plan', 'charge-and-fight'],
    ['Here the Bowmen shoot and hold', 'sides[0].plan', 'shoot-and-hold'],
  ],
  'battleforge/men-at-arms-vs-orc-warriors.yaml': [
    ['10 Men-at-arms charge 10 Orc Warriors', 'sides[0].units[0].models', 10],
    ['10 Men-at-arms charge 10 Orc Warriors', 'sides[1].units[0].models', 10],
    ['18" apart', 'distance', 18],
    ['both sides charge and fight', 'sides[0].plan', 'charge-and-fight'],
    ['both sides charge and fight', 'sides[1].plan', 'charge-and-fight'],
    ['up to six rounds', 'rounds', 6],
  ],
  'epic/broken-guard-company-rallies.yaml': [
    ['a Broken formation of seven units', 'players[0].formations[0].units', 7],
    ['a Broken formation of seven units', 'players[0].formations[0].broken', true],
    ['1 (enemy within 30 cm)', 'players[0].formations[0].enemyWithin30', true],
    ["the Guard's Initiative 2+", 'refs.armies.imperial-guard.initiative', 2],
    ['One End phase', 'turns', 1],
  ],
  'epic/guard-company-under-fire.yaml': [
    ['The same company, Broken', 'players[0].formations[0].broken', true],
    ['The same company, Broken', 'players[0].formations[0].units', 7],
    ['over four turns', 'turns', 4],
    ['within 30 cm at four rallies in five', 'players[0].formations[0].enemyWithin30', 0.8],
    [
      'takes 1–3 Blast markers',
      'players[0].formations[0].markersPerTurn',
      [
        { value: 1, p: 0.3 },
        { value: 2, p: 0.4 },
        { value: 3, p: 0.3 },
      ],
    ],
    ['loses a unit a turn a third of the time', 'players[0].formations[0].unitsLostWhileBroken[1]', { value: 1, p: 0.3333 }],
    ['each withdrawal costs a unit half the time', 'players[0].formations[0].withdrawalCost[1]', { value: 1, p: 0.5 }],
  ],
  'epic/marines-vs-orks-under-fire.yaml': [
    ['A 6-unit Tactical detachment', 'players[0].formations[0].units', 6],
    ['(Initiative 1+, Strategy Rating 5', 'refs.armies.space-marines.initiative', 1],
    ['(Initiative 1+, Strategy Rating 5', 'refs.armies.space-marines.strategyRating', 5],
    ['a 12-unit Ork warband (Initiative 3+)', 'players[1].formations[0].units', 12],
    ['a 12-unit Ork warband (Initiative 3+)', 'refs.armies.orks.initiative', 3],
    ['for four turns', 'turns', 4],
    ["the Orks' enemy is always within 30 cm", 'players[1].formations[0].enemyWithin30', true],
  ],
  'heroic/draugr-fire-and-frost.yaml': [
    ['MIGHT 2', 'refs.units[id=draugr].might', 2],
    ['an Ice shard', 'sides[0].groups[0].weapon', 'Ice shard'],
    ["followed by Vesdra's Firebolt", 'sides[0].groups[1].weapon', 'Firebolt'],
    ['in the same round', 'mode', 'attack'],
  ],
  'heroic/fire-cannon-skeletons.yaml': [
    ['six Skeletons', 'sides[1].groups[0].models', 6],
    ['one Fire Cannon', 'sides[0].groups[0].weapon', 'Fire Cannon'],
    ['break their formation', 'sides[1].groups[0].formation', true],
  ],
  'heroic/gino-spiced-brew.yaml': [
    ['heals 2 Wounds', 'sides[0].groups[0].heal.wounds', 2],
    ['two Orc Barbarians', 'sides[1].groups[0].models', 2],
    ['two Orc Barbarians', 'sides[1].groups[0].unit', 'orc-barbarian'],
  ],
  'heroic/goblin-charges-formation-exceeds-will.yaml': [
    ['with 3 models against WILL 3', 'sides[1].groups[0].models', 3],
    ['with 3 models against WILL 3', 'refs.units[id=goblin].will', 3],
  ],
  'heroic/goblin-charges-formation.yaml': [
    ['the WILL test to charge', 'sides[0].groups[0].charging', true],
    ['a shielded knight', 'refs.units[id=sylvan-knight].shield', true],
    ['a formation of three Sylvan Knights', 'sides[1].groups[0].models', 3],
    ['a formation of three Sylvan Knights', 'sides[1].groups[0].formation', true],
  ],
  'heroic/knights-vs-regenerating-ogre.yaml': [
    ['The Ogre strikes first', 'sides[0].groups[0].unit', 'ogre-regenerating'],
    ['the two sides take turns', 'mode', 'engagement'],
    ["break the knights' formation", 'sides[1].groups[0].formation', true],
  ],
  'heroic/orc-barbarians-combined-exhausted.yaml': [
    ['the combined\nformation, and the 2 Orcs of that card, start exhausted', 'sides[0].groups[0].exhausted', true],
    ['the combined\nformation, and the 2 Orcs of that card, start exhausted', 'sides[0].groups[1].exhausted', true],
    ['the combined\nformation, and the 2 Orcs of that card, start exhausted', 'sides[0].groups[1].models', 2],
  ],
  'heroic/orc-barbarians-combined.yaml': [
    ['A combined formation of 4 Orc Barbarians (3 from one card, 1 from the other)', 'sides[0].groups[0].models', 4],
    ['A combined formation of 4 Orc Barbarians (3 from one card, 1 from the other)', 'sides[0].groups[0].cards', [3, 1]],
    ['a formation of\n3 Blackrazor Soldiers', 'sides[1].groups[0].models', 3],
    ['a formation of\n3 Blackrazor Soldiers', 'sides[1].groups[0].formation', true],
    ['the last 2 Orcs fight an Ogre', 'sides[0].groups[1].target', 'ogre'],
  ],
  'heroic/slathaai-split-formation.yaml': [
    ['The formation of 3', 'sides[0].groups[0].models', 3],
    ['The formation of 3', 'sides[0].groups[0].formation', true],
    ['the 2 independent Slathaai', 'sides[0].groups[1].models', 2],
    ['the 2 independent Slathaai', 'sides[0].groups[1].formation', false],
  ],
  'heroic/sylvan-knights-formation.yaml': [
    ['three Sylvan Knights, formed up', 'sides[0].groups[0].models', 3],
    ['three Sylvan Knights, formed up', 'sides[0].groups[0].formation', true],
    ['a\nshielded Ogre', 'refs.units[id=ogre].shield', true],
  ],
  'heroic/sylvan-knights-singly.yaml': [
    ['but not in formation', 'sides[0].groups[0].formation', false],
    ['The same three Sylvan Knights', 'sides[0].groups[0].models', 3],
  ],
  'heroic/thunderbeak-breath-allocated-shields.yaml': [['3 Blackrazor Soldiers', 'sides[1].groups[0].models', 3]],
  'heroic/thunderbeak-breath-blackrazors.yaml': [
    ['shielded Blackrazor Soldiers', 'refs.units[id=blackrazor-soldier].shield', true],
    ['break\ntheir formation', 'sides[1].groups[0].formation', true],
    ['one Shield die per model (the default reading)', 'options.shieldRolls', 'every-model'],
  ],
  'heroic/uldar-splits-dice.yaml': [
    ['1 die for the Kobold', 'sides[0].groups[0].split[0]', { target: 'kobold', dice: 1 }],
    ['3 for the Ogre', 'sides[0].groups[0].split[1]', { target: 'ogre', dice: 3 }],
  ],
  'warmaster/cavalry-charge-infantry-open.yaml': [
    ['Empire Knights charge the front of a line of Orc Warriors', 'sides[0].units[0].charging', true],
    ['Empire Knights charge the front of a line of Orc Warriors', 'sides[1].units[0].unit', 'orcs/orc-warriors'],
    ['both pursue whenever they may', 'sides[0].policy', 'pursue'],
    ['both pursue whenever they may', 'sides[1].policy', 'pursue'],
  ],
  'warmaster/infantry-attack-defended-infantry.yaml': [
    ['the Dwarfs are defended', 'sides[1].units[0].position', 'defended'],
    ['Orc Warriors charge Dwarf Warriors', 'sides[0].units[0].charging', true],
    ['The Orcs pursue only while they\nhave lost no more stands than the Dwarfs', 'sides[0].policy', 'pursue-while-ahead'],
  ],
  'warmaster/knights-charge-supported-orcs-first-round.yaml': [
    ['Empire Knights charge the front of Orc Warriors', 'sides[0].units[0].charging', true],
    ['supported by a second unit behind them', 'sides[1].units[1].supporting', 'orcs'],
  ],
  'warmaster/knights-charge-supported-orcs.yaml': [
    ['all three stands supporting', 'sides[1].units[1].supports', 3],
    ['The Knights pursue whenever they may; the\nOrcs too', 'sides[0].policy', 'pursue'],
    ['The Knights pursue whenever they may; the\nOrcs too', 'sides[1].policy', 'pursue'],
  ],
  'warmaster/monster-charge.yaml': [
    ['A terrifying Giant (A8, H8)', 'refs.units.orcs/giant.attacks', 8],
    ['A terrifying Giant (A8, H8)', 'refs.units.orcs/giant.hits', 8],
    ['A terrifying Giant (A8, H8) charges', 'sides[0].units[0].charging', true],
    ['Two stands touch it', 'sides[1].units[0].contact.front', 2],
  ],
  'warmaster/pursuit-into-second-unit.yaml': [
    ['Goblins (two stands left)', 'sides[1].units[0].stands', 2],
    ['reached 80% of the time', 'sides[1].units[1].reserve.chance', 0.8],
  ],
  'warmaster/supported-line.yaml': [
    ['Two units of Chaos Marauders charge', 'sides[0].units[0].charging', true],
    ['Two units of Chaos Marauders charge', 'sides[0].units[1].charging', true],
    ['supports with all three stands', 'sides[1].units[2].supports', 3],
  ],
};

const BUNDLED = readdirSync(path.join(REPOSITORY, 'data'))
  .flatMap((system) => {
    const folder = path.join(REPOSITORY, 'data', system, 'scenarios');
    return existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => /\.ya?ml$/.test(name))
          .map((name) => `${system}/${name}`)
      : [];
  })
  .sort();

/** The value at `sides[0].units[1].models`, `refs.units[id=ogre].shield` or `refs.powers.human_kingdoms/fireball.cast`. */
function valueAt(root: unknown, fieldPath: string): unknown {
  let value = root;
  for (const part of fieldPath.match(/[^.[\]]+|\[[^\]]*\]/g) ?? []) {
    if (value === null || typeof value !== 'object') return undefined;
    const selector = /^\[(\w+)=(.*)\]$/.exec(part);
    if (selector !== null) value = (value as Record<string, unknown>[]).find((item) => item[selector[1] as string] === selector[2]);
    else value = (value as Record<string, unknown>)[part.startsWith('[') ? part.slice(1, -1) : part];
  }
  return value;
}

/** A plan in words, as a description writes it: `shoot-then-charge` as "shoot then charge", "shoots and then charges". */
const planWords = (plan: string): RegExp =>
  new RegExp(
    `\\b${plan
      .split('-')
      .map((word) => (word === 'then' ? '(?:and\\s+)?then' : word === 'and' || word === 'for' ? word : `${word}(?:e?s)?`))
      .join('\\s+')}\\b`,
    'i',
  );

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

describe('the bundled scenarios say what they set', () => {
  it('every bundled scenario has its list of facts, and every list a scenario', () => {
    expect(BUNDLED.length).toBeGreaterThan(20);
    expect(Object.keys(FACTS).sort()).toEqual(BUNDLED);
  });

  for (const name of BUNDLED) {
    it(name, async () => {
      const loaded = await loadScenarioFile(
        path.join(REPOSITORY, 'data', name.split('/')[0] as string, 'scenarios', name.split('/')[1] as string),
      );
      const scenario = loaded.scenario as unknown as Record<string, unknown>;
      const text = oneLine(`${String(scenario.name)} — ${String(scenario.description ?? '')}`);
      const root = { ...scenario, refs: loaded.refs };
      const wrong: string[] = [];

      for (const [phrase, fieldPath, value] of FACTS[name] ?? []) {
        if (!text.includes(oneLine(phrase))) wrong.push(`the phrase "${oneLine(phrase)}" is not in its name or description`);
        else if (JSON.stringify(valueAt(root, fieldPath)) !== JSON.stringify(value))
          wrong.push(`"${oneLine(phrase)}": ${fieldPath} is ${JSON.stringify(valueAt(root, fieldPath))}, not ${JSON.stringify(value)}`);
      }

      // Battle Forge plans named in words are plans the scenario's sides or units follow.
      if (loaded.system.id === 'battleforge') {
        const sides = scenario.sides as { plan: string; units: { plan?: string }[] }[];
        const followed = new Set(sides.flatMap((side) => [side.plan, ...side.units.map((unit) => unit.plan ?? side.plan)]));
        for (const plan of PLANS)
          if (planWords(plan).test(text) && !followed.has(plan))
            wrong.push(
              `it names the plan ${plan} ("${planWords(plan).exec(text)?.[0]}"), which no side or unit follows (${[...followed].join(', ')})`,
            );
      }

      // `options.x: y` and `maxRounds 1`: the scenario's own fields, as it sets them.
      for (const match of text.matchAll(/\boptions\.(\w+): ([\w-]+)/g)) {
        const actual = valueAt(scenario, `options.${match[1]}`);
        if (actual !== match[2]) wrong.push(`it says options.${match[1]}: ${match[2]}, the scenario has ${JSON.stringify(actual)}`);
      }
      for (const match of text.matchAll(/\b([a-z]+[A-Z]\w*) (\d+)\b/g)) {
        const field = match[1] as string;
        if (field in scenario && scenario[field] !== Number(match[2]))
          wrong.push(`it says ${field} ${match[2]}, the scenario has ${JSON.stringify(scenario[field])}`);
      }

      // Files it names exist: another scenario beside it, or a path in the repository.
      for (const match of text.matchAll(/(?<![\w/.-])([\w-]+(?:\/[\w.-]+)*\.(?:yaml|ts))\b/g)) {
        const named = match[1] as string;
        const where = named.includes('/')
          ? path.join(REPOSITORY, named)
          : path.join(REPOSITORY, 'data', name.split('/')[0] as string, 'scenarios', named);
        if (!existsSync(where)) wrong.push(`it names ${named}, which does not exist`);
      }

      expect(wrong).toEqual([]);
    });
  }

  it('reads a plan in words as descriptions write it', () => {
    expect(planWords('shoot-then-charge').test('the Bowmen shoot and then charge')).toBe(true);
    expect(planWords('shoot-then-charge').test('Here: shoot then charge.')).toBe(true);
    expect(planWords('shoot-and-hold').test('a unit of Bowmen that shoots and holds')).toBe(true);
    expect(planWords('hold-for-overwatch').test('against Hold for Overwatch')).toBe(true);
    expect(planWords('charge-and-fight').test('The Orcs charge; who breaks first?')).toBe(false);
  });
});
