import { GROUPS_LIMIT_REASON, MAX_GROUPS_PER_SIDE, overLimit, quote, unknownNameHint, type ValidationIssue } from '../validation.js';
import type { Army, CountInput, Scenario } from './schema.js';

/**
 * Checks zod cannot make alone: army ids, unique formation ids and player names, distributions that
 * add up to 1, and starting states the rules allow. compileScenario assumes these hold.
 */
export function validateEpic(scenario: Scenario, armies: ReadonlyMap<string, Army>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const ids = new Map<string, string>();
  const [first, second] = scenario.players;
  if (first !== undefined && second !== undefined && first.name === second.name) {
    issues.push({ path: ['players', 1, 'name'], message: `both players are named ${quote(first.name)}: give them different names` });
  }
  const tooMany: ValidationIssue[] = [];
  // Checked first and alone: a trial rallies every formation each turn.
  scenario.players.forEach((player, p) => {
    if (player.formations.length > MAX_GROUPS_PER_SIDE) {
      tooMany.push({
        path: ['players', p, 'formations'],
        message: overLimit(
          `the number of formations of player ${quote(player.name)}`,
          player.formations.length,
          MAX_GROUPS_PER_SIDE,
          'MAX_GROUPS_PER_SIDE',
          GROUPS_LIMIT_REASON,
        ),
      });
    }
  });
  if (tooMany.length > 0) return [...issues, ...tooMany];
  scenario.players.forEach((player, p) => {
    if (!armies.has(player.army)) {
      issues.push({
        path: ['players', p, 'army'],
        message: `unknown army ${quote(player.army)}${unknownNameHint(player.army, [...armies.keys()], 'armies', 'the armies file')}`,
      });
    }
    player.formations.forEach((formation, f) => {
      const path = ['players', p, 'formations', f];
      const previous = ids.get(formation.id);
      if (previous !== undefined)
        issues.push({ path: [...path, 'id'], message: `duplicate formation id ${quote(formation.id)} (already used by ${previous})` });
      else ids.set(formation.id, `players[${p}].formations[${f}]`);
      if (formation.broken && formation.markers > 0 && scenario.options.markersOnBreak === 'removed') {
        issues.push({
          path: [...path, 'markers'],
          message: 'a Broken formation has no Blast markers (they went when it broke; option markersOnBreak: kept allows them)',
        });
      }
      // It breaks at rules.breakMarkersPerUnit markers per unit (rulings §28).
      const breaksAt = formation.units * scenario.rules.breakMarkersPerUnit;
      if (!formation.broken && formation.markers >= breaksAt) {
        issues.push({
          path: [...path, 'markers'],
          message: `${formation.markers} Blast markers on ${formation.units} units would already have broken it (it breaks at ${breaksAt}): set broken: true, or fewer markers`,
        });
      }
      const counts: [string, CountInput][] = [
        ['markersPerTurn', formation.markersPerTurn],
        ['unitsLostPerTurn', formation.unitsLostPerTurn],
        ['unitsLostWhileBroken', formation.unitsLostWhileBroken],
        ['withdrawalCost', formation.withdrawalCost],
      ];
      for (const [field, count] of counts) {
        if (typeof count === 'number') continue;
        const total = count.reduce((sum, entry) => sum + entry.p, 0);
        if (Math.abs(total - 1) > 1e-9) issues.push({ path: [...path, field], message: `the probabilities add up to ${total}, not 1` });
      }
    });
  });
  return issues;
}
