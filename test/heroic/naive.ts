import { mulberry32 } from '../helpers/mulberry32.js';

/**
 * The two bench scenarios written the obvious way a hobbyist would: an object per model, an array
 * per roll, `.filter`/`.map`/`.reduce`, closures, and a seeded `Math.random`-style generator. It is
 * the yardstick the engine is measured against (bench/run.ts) and a second, independent reading of
 * the same rules (test/heroic/naive-agrees.test.ts), so it must follow rulings §1, 2, 5, 8, 9 exactly —
 * but it is deliberately NOT optimised. Do not "fix" its allocations: they are the point.
 */

/** The scenarios the naive code knows, by the names test/heroic/bench-scenarios.ts also uses. */
export type BenchScenarioName = 'pooled' | 'engagement';

/** What a naive run returns: how many trials gave each value of each metric. */
export interface NaiveSummary {
  trials: number;
  /** metric name (as the engine names it: `A.woundsDealt`, `winner`, `rounds`) → value → trials. */
  histograms: Record<string, Record<number, number>>;
}

interface Model {
  name: string;
  def: number;
  shield: boolean;
  might: number;
  atk: number;
  regenerates: boolean;
  wounds: number;
  alive: boolean;
}

function makeD6(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.floor(random() * 6) + 1;
}

const sylvanKnight = (): Model => ({
  name: 'Sylvan Knight',
  def: 4,
  shield: true,
  might: 2,
  atk: 3,
  regenerates: false,
  wounds: 0,
  alive: true,
});

const shieldedTarget = (): Model => ({
  name: 'Shielded Target',
  def: 4,
  shield: true,
  might: 20,
  atk: 1,
  regenerates: false,
  wounds: 0,
  alive: true,
});

const ogre = (): Model => ({
  name: 'Ogre',
  def: 3,
  shield: false,
  might: 8,
  atk: 4,
  regenerates: true,
  wounds: 0,
  alive: true,
});

const rollDice = (count: number, d6: () => number): number[] => Array.from({ length: count }, () => d6());

/** Rulings §1: a die ≥ DEF is 1 Wound, a natural 6 always succeeds and is worth 2. */
const woundsRolled = (rolls: number[], def: number): number =>
  rolls.map((face): number => (face === 6 ? 2 : face >= def ? 1 : 0)).reduce((sum, wounds) => sum + wounds, 0);

const living = (models: Model[]): Model[] => models.filter((model) => model.alive);

const mostDamagedFirst = (models: Model[]): Model[] => [...living(models)].sort((a, b) => b.wounds - a.wounds);

/** Apply Wounds to one model; those beyond its MIGHT are lost (rulings §5). Returns Wounds taken. */
function woundModel(model: Model, wounds: number): number {
  const taken = Math.min(wounds, model.might - model.wounds);
  model.wounds += taken;
  if (model.wounds >= model.might) model.alive = false;
  return taken;
}

/** One Attack Action of `attackers`' pooled dice at a single model (one Shield die, rulings §2). */
function attackSingleModel(attackers: Model[], target: Model, d6: () => number): number {
  const rolls = attackers.flatMap((attacker) => rollDice(attacker.atk, d6));
  let wounds = woundsRolled(rolls, target.def);
  if (wounds > 0 && target.shield && d6() >= 5) wounds -= 1;
  return woundModel(target, wounds);
}

/**
 * One Attack Action of a single model at a formation: one Shield die per living model, each 5+
 * cancels one Wound (rulings §2); the rest is allocated to the most damaged model first and
 * spills over to the next when it is Vanquished (rulings §5).
 */
function attackFormation(attacker: Model, formation: Model[], d6: () => number): number {
  let wounds = woundsRolled(rollDice(attacker.atk, d6), formation[0]?.def ?? 0);
  if (wounds === 0) return 0;
  const shields = living(formation)
    .filter((model) => model.shield)
    .map(() => d6());
  wounds -= Math.min(wounds, shields.filter((face) => face >= 5).length);
  let taken = 0;
  for (const model of mostDamagedFirst(formation)) {
    const dealt = woundModel(model, wounds);
    wounds -= dealt;
    taken += dealt;
  }
  return taken;
}

/** Pooled attack: 4 Knights in formation, 12 dice in one Attack Action at a DEF 4 (S) target. */
function pooledAttackTrial(d6: () => number): Record<string, number> {
  const knights = Array.from({ length: 4 }, sylvanKnight);
  const target = shieldedTarget();
  return { 'A.woundsDealt': attackSingleModel(living(knights), target, d6) };
}

/**
 * Engagement: 3 Knights in formation vs a regenerating Ogre, Knights first, until one side is
 * Vanquished or 20 rounds. Below 3 models the formation is broken (rulings §8): each Knight then
 * attacks on its own, and the Ogre attacks the most damaged Knight as a single model.
 */
function engagementTrial(d6: () => number): Record<string, number> {
  const knights = Array.from({ length: 3 }, sylvanKnight);
  const theOgre = ogre();
  let inFormation = true;
  for (let round = 1; round <= 20; round++) {
    if (inFormation) {
      attackSingleModel(living(knights), theOgre, d6);
    } else {
      for (const knight of living(knights)) if (theOgre.alive) attackSingleModel([knight], theOgre, d6);
    }
    if (!theOgre.alive) return { winner: 1, rounds: round };

    // Rulings §9: regeneration at the start of the Ogre's activation.
    if (theOgre.regenerates && theOgre.wounds > 0) theOgre.wounds -= 1;
    if (inFormation) {
      attackFormation(theOgre, knights, d6);
    } else {
      const target = mostDamagedFirst(knights)[0];
      if (target) attackSingleModel([theOgre], target, d6);
    }
    if (living(knights).length < 3) inFormation = false;
    if (living(knights).length === 0) return { winner: 2, rounds: round };
  }
  return { winner: 0, rounds: 20 };
}

const trialsByScenario: Record<BenchScenarioName, (d6: () => number) => Record<string, number>> = {
  pooled: pooledAttackTrial,
  engagement: engagementTrial,
};

/** Run `trials` naive trials of a scenario from `seed`, counting each metric's values. */
export function runNaive(scenario: BenchScenarioName, seed: number, trials: number): NaiveSummary {
  const d6 = makeD6(seed);
  const trial = trialsByScenario[scenario];
  const histograms: Record<string, Record<number, number>> = {};
  for (let t = 0; t < trials; t++) {
    const result = trial(d6);
    for (const [metric, value] of Object.entries(result)) {
      const histogram = histograms[metric] ?? {};
      histogram[value] = (histogram[value] ?? 0) + 1;
      histograms[metric] = histogram;
    }
  }
  return { trials, histograms };
}
