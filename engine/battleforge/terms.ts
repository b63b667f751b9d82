/**
 * The Battle Forge words a scenario chooses from, as small-integer codes in their list order. They
 * sit apart from schema.ts so that the kernel's modules (compile.ts, and through it the worker
 * threads) do not load zod just to read them.
 */

export const COVERS = ['none', 'soft', 'hard', 'fortified', 'negative'] as const;
export type Cover = (typeof COVERS)[number];

/**
 * Plans: what a unit does with its two actions (engine/battleforge/README.md, "Plans"). Every plan
 * fights when the unit is engaged in melee.
 */
export const PLANS = [
  'shoot-and-hold',
  'focus-then-shoot',
  'move-and-shoot',
  'shoot-then-charge',
  'charge-and-fight',
  'hold-for-overwatch',
  'evade-and-shoot',
] as const;
export type Plan = (typeof PLANS)[number];

export const SHOOTING_REACTIONS = ['none', 'counter-attack', 'dodge', 'escape'] as const;
export const CHARGE_REACTIONS = ['none', 'overwatch', 'escape'] as const;

/** Which stats a Focus (or Evade) changes, as bits: both (the text, rulings §24) or one (the token option). */
export const FOCUS_ACCURACY = 1;
export const FOCUS_STRENGTH = 2;
export const FOCUS_BOTH = FOCUS_ACCURACY | FOCUS_STRENGTH;

/**
 * The small-integer code of `word`: its index in `list`, as compile.ts encodes a scenario's choice.
 * The kernel derives its constants with it (`codeOf(PLANS, 'charge-and-fight')`), so reordering a
 * list cannot leave a hand-counted code behind.
 */
export function codeOf<const Words extends readonly string[]>(list: Words, word: Words[number]): number {
  const code = list.indexOf(word);
  if (code < 0) throw new Error(`codeOf: ${word} is not in the list`);
  return code;
}
