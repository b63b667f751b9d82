/**
 * The Fantasy Realms rules that change a model's Save, by rule id (on the model, its unit or one of
 * its weapons, e.g. a Shield "weapon" carrying the `shield` rule): what each adds to the Save against
 * shooting and against fighting. Read from the module's rule texts (index.json and the faction
 * files, wargame-engine/fantasy-realms 6dc5455); every other rule of the module is not modelled
 * (engine/battleforge/README.md, "Left out").
 */
export const SAVE_RULES: Readonly<Record<string, { readonly shooting: number; readonly melee: number }>> = {
  shield: { shooting: 1, melee: 1 },
  heavy_shield: { shooting: 1, melee: 1 },
  enchanted_shield: { shooting: 1, melee: 1 },
  tower_shield: { shooting: 1, melee: 1 },
  relic_shield: { shooting: 1, melee: 1 },
  shield_dragon: { shooting: 1, melee: 1 },
  light_armor: { shooting: 1, melee: 1 },
  heavy_armor: { shooting: 2, melee: 2 },
  mastercrafted_armor: { shooting: 1, melee: 1 },
  change_mark: { shooting: 1, melee: 1 },
  change_mark_monster: { shooting: 1, melee: 1 },
  buckler: { shooting: 0, melee: 1 },
  heavy_buckler: { shooting: 0, melee: 1 },
  phoenix_armor: { shooting: 0, melee: 2 },
  cloak: { shooting: 2, melee: 0 },
  cloak_dragon: { shooting: 2, melee: 0 },
  cloak_hero: { shooting: 2, melee: 0 },
};

/** The Save bonuses of a set of rule ids (each rule counted once). */
export function saveBonuses(ruleIds: Iterable<string>): { shooting: number; melee: number } {
  let shooting = 0;
  let melee = 0;
  for (const id of new Set(ruleIds)) {
    const rule = SAVE_RULES[id];
    if (rule === undefined) continue;
    shooting += rule.shooting;
    melee += rule.melee;
  }
  return { shooting, melee };
}
