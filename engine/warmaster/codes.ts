/**
 * The scenario format's enumerations and the small integer codes the kernel reads for them. A code
 * is its value's index in the tuple the schema's `z.enum` is built from, so the two cannot drift
 * apart. Kept free of zod: the kernel's compile step, run in every worker, imports it.
 */

/** The winner's choices (schema `policy`, rulings §17). */
export const WINNER_POLICIES = ['pursue', 'pursue-while-ahead', 'stand', 'fall-back'] as const;
export type WinnerPolicy = (typeof WINNER_POLICIES)[number];

/** Where a unit stands (schema `position`; Defended & fortified troops). */
export const POSITIONS = ['open', 'defended', 'fortified'] as const;
export type Position = (typeof POSITIONS)[number];

/** The edges by which a unit's stands touch an enemy, in the order its remaining stands fill them (rulings §14). */
export const CONTACT_KINDS = ['front', 'corner', 'flank', 'rear'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/** The code of `value`: its index in `values`. */
export function codeOf<Value extends string>(values: readonly Value[], value: Value): number {
  const code = values.indexOf(value);
  if (code < 0) throw new RangeError(`${value} is not one of ${values.join(', ')}`);
  return code;
}

export const POLICY_PURSUE = codeOf(WINNER_POLICIES, 'pursue');
export const POLICY_PURSUE_WHILE_AHEAD = codeOf(WINNER_POLICIES, 'pursue-while-ahead');
export const POLICY_FALL_BACK = codeOf(WINNER_POLICIES, 'fall-back');

export const OPEN = codeOf(POSITIONS, 'open');
export const DEFENDED = codeOf(POSITIONS, 'defended');
export const FORTIFIED = codeOf(POSITIONS, 'fortified');

export const FRONT = codeOf(CONTACT_KINDS, 'front');
export const FLANK = codeOf(CONTACT_KINDS, 'flank');
export const REAR = codeOf(CONTACT_KINDS, 'rear');
