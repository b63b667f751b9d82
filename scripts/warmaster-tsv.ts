import {
  CHARACTER_TYPES,
  type Character,
  type CharacterType,
  type Troop,
  TROOP_TYPES,
  type TroopType,
  type WarmasterUnit,
} from '../engine/warmaster/units.js';

/**
 * Parsing one warmaster.info army-list TSV (see data/warmaster/source/README.md for its quirks) into the
 * project's unit rows. Structural faults — a wrong header, a short row, an unknown troop type, a
 * duplicate id — are problems that stop the conversion. A cell whose form is unknown is never
 * guessed at: its field is left null and the text kept verbatim in `raw`, with a warning.
 */

export const COLUMNS = [
  'Troop',
  'Type',
  'Attacks',
  'Hits',
  'Armour',
  'Command',
  'Unit size',
  'Points per unit',
  'Min/max',
  'Special',
] as const;
export type Column = (typeof COLUMNS)[number];

/** U+2013, which the lists print for "none". */
export const NONE = '–';
/** The first cell of the row separating troops from characters (AsciiDoc attributes, not text). */
const SEPARATOR_MARK = '{nbsp}';
const SEPARATOR_FILL = '{empty}';

/** Something wrong at a place in a source file: `<file>: <where>: <message>`. */
export interface SourceProblem {
  readonly file: string;
  readonly where: string;
  readonly message: string;
}

export const formatSourceProblem = (problem: SourceProblem): string => `${problem.file}: ${problem.where}: ${problem.message}`;

export interface ParsedTable {
  readonly units: WarmasterUnit[];
  /** Stop the conversion. */
  readonly problems: SourceProblem[];
  /** Cells kept in `raw`: reported, but the conversion goes on. */
  readonly warnings: SourceProblem[];
}

/** Lines split into trimmed cells; `line` counts from 1 as an editor does. */
export function tsvLines(text: string): { line: number; cells: string[] }[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, index) => ({ line: index + 1, cells: line.split('\t').map((cell) => cell.trim()) }));
}

/** "Pirazzo’s Lost Legion" → "pirazzos-lost-legion"; apostrophes vanish rather than split words. */
export function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const typeName = (text: string): string => text.toLowerCase().replace(/\s+/g, '-');
const isTroopType = (type: string): type is TroopType => (TROOP_TYPES as readonly string[]).includes(type);
const isCharacterType = (type: string): type is CharacterType => (CHARACTER_TYPES as readonly string[]).includes(type);

/** `undefined` from a cell parser means "form not recognised". */
type Cell<T> = T | undefined;

const WHOLE = /^\d+$/;

/** `–` → null, `3` → 3. */
function countOrNone(text: string): Cell<number | null> {
  if (text === NONE) return null;
  return WHOLE.test(text) ? Number(text) : undefined;
}

function positiveOrNone(text: string): Cell<number | null> {
  const value = countOrNone(text);
  return value === 0 ? undefined : value;
}

/** A dice roll as the lists write it: D6, 1D6, 2D6. */
const DICE = /^\d*D\d+$/;
/** Compound shooting forms seen in the lists: 2+bounce, 2 + bounce, 2+skewer, 8–4–2, D6, 2 per stand. */
const SHOOTING_FORMS = [/^\d+\s*\+\s*[a-z]+$/, /^\d+(–\d+)+$/, DICE, /^\d+ per stand$/];

type TroopAttacks = Pick<Troop, 'attacks' | 'attacksSpecial' | 'shootingAttacks' | 'shootingSpecial'>;

/** `3`, `3/1`, `1/2+bounce`, `1/8–4–2`, `1/D6`, `D6` (Pump Wagon), `–` (Screaming Bell). */
function troopAttacks(text: string): Cell<TroopAttacks> {
  if (text === NONE) return { attacks: null };
  if (DICE.test(text)) return { attacks: null, attacksSpecial: text };
  const [close = '', shooting, ...more] = text.split('/').map((part) => part.trim());
  if (!WHOLE.test(close) || more.length > 0) return undefined;
  const attacks = Number(close);
  if (shooting === undefined) return { attacks };
  if (WHOLE.test(shooting)) return { attacks, shootingAttacks: Number(shooting) };
  return SHOOTING_FORMS.some((form) => form.test(shooting)) ? { attacks, shootingSpecial: shooting } : undefined;
}

type CharacterAttacks = Pick<Character, 'attackBonus' | 'shootingAttackBonus'>;

/** `+2`, `+0`, `+2/+2` (Djinn: shooting too), `–`. */
function characterAttacks(text: string): Cell<CharacterAttacks> {
  if (text === NONE) return { attackBonus: null };
  const match = /^\+(\d+)(?:\/\+(\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, close, shooting] = match;
  return shooting === undefined ? { attackBonus: Number(close) } : { attackBonus: Number(close), shootingAttackBonus: Number(shooting) };
}

/** One save: `4+`; `–` and `0` are none. */
function singleArmour(text: string): Cell<number | null> {
  if (text === NONE || text === '0') return null;
  const match = /^([2-6])\+$/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

type ArmourFields = Pick<Troop, 'armour' | 'armourOption'>;

/** `5+`, `–`, `0`, and the either/or forms `–/6+`, `4+/–`, `0 or 5+`. */
function armourCell(text: string): Cell<ArmourFields> {
  const either = /^(.+?)\s*(?:\/|\bor\b)\s*(.+)$/.exec(text);
  if (either === null) {
    const armour = singleArmour(text);
    return armour === undefined ? undefined : { armour };
  }
  const first = singleArmour(either[1] ?? '');
  const second = singleArmour(either[2] ?? '');
  return first === undefined || second === undefined ? undefined : { armour: first, armourOption: second };
}

type Limits = Pick<Troop, 'min' | 'max'>;

/** `2/–`, `–/1`, `–/–`, `2/4`, `0–1` (either none or one), `1` (exactly one). */
function minMax(text: string): Cell<Limits> {
  if (WHOLE.test(text)) return { min: Number(text), max: Number(text) };
  const range = /^(\d+)–(\d+)$/.exec(text);
  if (range !== null) return { min: Number(range[1]), max: Number(range[2]) };
  const [low, high, ...more] = text.split('/').map((part) => part.trim());
  if (low === undefined || high === undefined || more.length > 0) return undefined;
  const min = countOrNone(low);
  const max = countOrNone(high);
  return min === undefined || max === undefined ? undefined : { min, max };
}

/** `–`, `*1`, `*2, *3`, `*4,*5`. */
function specialRules(text: string): Cell<number[]> {
  if (text === NONE) return [];
  if (!/^\*\d+(\s*,\s*\*\d+)*$/.test(text)) return undefined;
  return text.split(',').map((part) => Number(part.trim().slice(1)));
}

/** `125`, or `+80` for what a mount or upgrade adds to its character. */
function points(text: string): Cell<{ points: number; added: boolean }> {
  const match = /^(\+?)(\d+)$/.exec(text);
  return match === null ? undefined : { points: Number(match[2]), added: match[1] === '+' };
}

/** Parse one army-list TSV. `file` names it in problems. */
export function parseArmyTable(file: string, text: string): ParsedTable {
  const problems: SourceProblem[] = [];
  const warnings: SourceProblem[] = [];
  const units: WarmasterUnit[] = [];
  const [header, ...rows] = tsvLines(text);
  const headerCells = header?.cells ?? [];
  if (headerCells.length !== COLUMNS.length || COLUMNS.some((column, index) => headerCells[index] !== column)) {
    problems.push({ file, where: 'line 1', message: `header must be ${COLUMNS.join(' | ')}, got ${headerCells.join(' | ')}` });
    return { units, problems, warnings };
  }
  const ids = new Map<string, number>();
  let inCharacters = false;
  for (const { line, cells } of rows) {
    const at = (column: Column): string => `line ${line}, column ${column}`;
    if (cells.length !== COLUMNS.length) {
      problems.push({ file, where: `line ${line}`, message: `expected ${COLUMNS.length} tab-separated cells, got ${cells.length}` });
      continue;
    }
    if (cells[0] === SEPARATOR_MARK) {
      if (inCharacters) problems.push({ file, where: `line ${line}`, message: 'a second separator row: the characters already began' });
      else if (cells.slice(1).some((cell) => cell !== SEPARATOR_FILL))
        problems.push({ file, where: `line ${line}`, message: `a separator row must have ${SEPARATOR_FILL} in every other cell` });
      inCharacters = true;
      continue;
    }
    const cell = (column: Column): string => cells[COLUMNS.indexOf(column)] ?? '';
    const raw: Record<string, string> = {};
    /** A known field: its parsed value, or null kept verbatim in `raw` (warned). */
    const nullable = <T>(column: Column, parsed: Cell<T>, fallback: T): T => {
      if (parsed !== undefined) return parsed;
      raw[column] = cell(column);
      warnings.push({
        file,
        where: at(column),
        message: `unrecognised form ${JSON.stringify(cell(column))}: kept in raw, field left null`,
      });
      return fallback;
    };
    /** A field the format cannot leave empty: an unknown form stops the conversion. */
    const required = <T>(column: Column, parsed: Cell<T>, what: string): T | undefined => {
      if (parsed === undefined)
        problems.push({ file, where: at(column), message: `expected ${what}, got ${JSON.stringify(cell(column))}` });
      return parsed;
    };

    const name = cell('Troop');
    const id = slug(name);
    const type = typeName(cell('Type'));
    const rules = required('Special', specialRules(cell('Special')), '– or rule numbers like *1, *2');
    const cost = required('Points per unit', points(cell('Points per unit')), 'points like 110 or +80');
    if (id === '') problems.push({ file, where: at('Troop'), message: `a unit needs a name, got ${JSON.stringify(name)}` });
    const firstLine = ids.get(id);
    if (firstLine !== undefined)
      problems.push({ file, where: at('Troop'), message: `id ${JSON.stringify(id)} is already used on line ${firstLine}` });
    ids.set(id, line);
    const limits = nullable('Min/max', minMax(cell('Min/max')), { min: null, max: null });
    const common = { id, name };

    if (!inCharacters) {
      if (!isTroopType(type)) {
        problems.push({
          file,
          where: at('Type'),
          message: `troop type must be one of ${TROOP_TYPES.join(', ')} (characters come after the ${SEPARATOR_MARK} row), got ${JSON.stringify(cell('Type'))}`,
        });
        continue;
      }
      if (cost?.added === true)
        problems.push({ file, where: at('Points per unit'), message: "only characters' mounts and upgrades cost +N points" });
      nullable('Command', cell('Command') === NONE ? null : undefined, null); // troops have no Command value
      const attacks = nullable('Attacks', troopAttacks(cell('Attacks')), { attacks: null });
      const hits = nullable('Hits', positiveOrNone(cell('Hits')), null);
      const armour = nullable('Armour', armourCell(cell('Armour')), { armour: null });
      const unitSize = required('Unit size', positiveOrNone(cell('Unit size')) ?? undefined, 'a number of stands');
      if (rules === undefined || cost === undefined || unitSize === undefined) continue;
      units.push({
        ...common,
        kind: 'troop',
        type,
        ...attacks,
        hits,
        ...armour,
        unitSize,
        points: cost.points,
        ...limits,
        specialRules: rules,
        ...rawField(raw),
      });
    } else {
      if (!isCharacterType(type)) {
        problems.push({
          file,
          where: at('Type'),
          message: `character type must be one of ${CHARACTER_TYPES.join(', ')}, got ${JSON.stringify(cell('Type'))}`,
        });
        continue;
      }
      // Characters have no Hits or Armour of their own: anything else is a form we do not know.
      nullable('Hits', cell('Hits') === NONE ? null : undefined, null);
      nullable('Armour', cell('Armour') === NONE ? null : undefined, null);
      const attacks = nullable('Attacks', characterAttacks(cell('Attacks')), { attackBonus: null });
      const command = nullable('Command', positiveOrNone(cell('Command')), null);
      const unitSize = nullable('Unit size', positiveOrNone(cell('Unit size')), null);
      if (rules === undefined || cost === undefined) continue;
      const added = cost.added ? { pointsAdded: true as const } : {};
      units.push({
        ...common,
        kind: 'character',
        type,
        ...attacks,
        command,
        unitSize,
        points: cost.points,
        ...added,
        ...limits,
        specialRules: rules,
        ...rawField(raw),
      });
    }
  }
  return { units, problems, warnings };
}

const rawField = (raw: Record<string, string>): { raw?: Record<string, string> } => (Object.keys(raw).length > 0 ? { raw } : {});

/** Regiments of Renown each army may hire: a grid of `+` (may) and `/` (may not). */
export interface AlliesGrid {
  /** Regiment names, in column order, as the header prints them (trimmed). */
  readonly regiments: string[];
  readonly armies: { line: number; name: string; available: boolean[] }[];
  readonly problems: SourceProblem[];
}

export function parseAlliesTable(file: string, text: string): AlliesGrid {
  const problems: SourceProblem[] = [];
  const [header, ...rows] = tsvLines(text);
  const headerCells = header?.cells ?? [];
  if (headerCells[0] !== SEPARATOR_MARK)
    problems.push({
      file,
      where: 'line 1',
      message: `the header must start with ${SEPARATOR_MARK}, got ${JSON.stringify(headerCells[0] ?? '')}`,
    });
  const regiments = headerCells.slice(1);
  const armies = rows.map(({ line, cells }) => {
    const [name = '', ...marks] = cells;
    if (marks.length !== regiments.length)
      problems.push({
        file,
        where: `line ${line}`,
        message: `expected ${regiments.length} marks after the army name, got ${marks.length}`,
      });
    marks.forEach((mark, index) => {
      if (mark !== '+' && mark !== '/')
        problems.push({
          file,
          where: `line ${line}, column ${regiments[index] ?? index + 2}`,
          message: `expected + or /, got ${JSON.stringify(mark)}`,
        });
    });
    return { line, name, available: marks.map((mark) => mark === '+') };
  });
  return { regiments, armies, problems };
}
