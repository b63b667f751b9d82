/**
 * What every ruleset's validator shares: an issue naming the offending field by its path inside
 * the file, e.g. ['sides', 0, 'units', 1, 'unit'], and "did you mean" suggestions.
 */
export interface ValidationIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Up to `limit` candidates within a small edit distance of `name`, closest first ("did you mean"). */
export function closestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const wanted = name.toLowerCase();
  if (wanted === '') return [];
  const threshold = Math.max(2, Math.floor(wanted.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= threshold || candidate.toLowerCase().includes(wanted))
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Sizes a scenario can set, bounded so that building its outcome tables and playing one trial take
 * about a second and bounded memory (issue 17). Building the table of n dice is quadratic in n
 * (engine/dice/outcome-table.ts: 10,000 dice ≈ 0.6 s, 30,000 ≈ 3 s, 1e6 ≈ 48 min); each rule system's
 * validator checks the *total* one action rolls where it is formed (a formation's pooled ATK, a
 * unit's shooting dice), so `validate` and `run` refuse an oversized file before any work.
 */
export const MAX_DICE_PER_ACTION = 10_000;
/**
 * Groups (units, formations, detachments) per side: some compiled tables are groups × groups, and a
 * trial visits every group each round (heroic: 500 per side ≈ 0.1 s a trial, 4 MB of tables).
 */
export const MAX_GROUPS_PER_SIDE = 500;

/** The message of a size over its limit: what it is, the limit, and where the limit comes from. */
export const overLimit = (what: string, value: number, limit: number, name: string, why: string): string =>
  `${what} is ${value.toLocaleString('en-US')}, more than crucible's limit of ${limit.toLocaleString('en-US')} (${name}: ${why})`;
export const DICE_LIMIT_REASON = 'the outcome tables of a bigger pool take too long to build';
export const GROUPS_LIMIT_REASON = 'more would make each trial slow and its tables large';

export const quote = (name: string): string => JSON.stringify(name);
export const quotedList = (names: readonly string[]): string => names.map(quote).join(', ');

/** "(did you mean …?)" and, when short enough, the whole list of what is known (`where`: where to look otherwise). */
export function unknownNameHint(name: string, known: readonly string[], what: string, where = 'the units file'): string {
  const close = closestNames(name, known);
  const parts: string[] = [];
  if (close.length > 0) parts.push(`did you mean ${close.map(quote).join(' or ')}?`);
  if (known.length <= 12) parts.push(`known ${what}: ${known.length > 0 ? quotedList(known) : '(none)'}`);
  else if (close.length === 0) parts.push(`${known.length} ${what} are known; see ${where}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}
