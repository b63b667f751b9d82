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
export const PLANS = ['shoot-and-hold', 'focus-then-shoot', 'move-and-shoot', 'shoot-then-charge', 'charge-and-fight', 'hold-for-overwatch', 'evade-and-shoot'] as const;
export type Plan = (typeof PLANS)[number];

export const SHOOTING_REACTIONS = ['none', 'counter-attack', 'dodge', 'escape'] as const;
export const CHARGE_REACTIONS = ['none', 'overwatch', 'escape'] as const;
