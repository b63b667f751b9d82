/**
 * Troop types of the army lists' rows before the characters' separator, lower-case kebab. In its
 * own module so the kernel's compile step (run in every worker) does not load zod.
 */
export const TROOP_TYPES = ['infantry', 'cavalry', 'chariot', 'monster', 'artillery', 'machine'] as const;
export type TroopType = (typeof TROOP_TYPES)[number];
