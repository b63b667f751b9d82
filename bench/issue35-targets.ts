/**
 * Issue 35's targets, the one copy: the table's labels and verdicts (bench/targets.ts), the trial
 * rows' PASS flags (bench/profile.ts) and the round robin's own lines (bench/analysis.ts) read
 * them. A module of its own because targets.ts imports profile.ts's and analysis.ts's types.
 */
export const ISSUE_35 = {
  versionOverNode: 3,
  runOverNode: 5,
  twoWorkersOverOne: 1.85,
  /** "Never slower than one": a tie within 5% counts, as between two timings on this machine. */
  underLoadOverOne: 0.95,
  analysesOverhead: 0.25,
  /** Time ÷ trials, adaptive against fixed: "in proportion" read as within 10% of it. */
  adaptiveProportion: 1.1,
  /** mc never slower than mc-dice: a tie within 5% counts, as above. */
  mcNotSlowerTie: 0.95,
  /** Item 3, per core: a whole trial (trial + tally, as `runWithDice` runs it) ≤ 5× its own dice by mc-dice, ≤ 8× by mc. */
  wholeOverDiceByDice: 5,
  wholeOverDiceByTables: 8,
  /** The heroic pooled trial ≥ 35× aos-statshammer's 310 k ten-model volleys/s. */
  aosVolleysPerSecond: 310e3,
  overAos: 35,
} as const;

/** A ratio's allowance in whole percent, for the labels: 0.95 and 1.1 are 5% and 10%. */
export const allowancePercent = (ratio: number): number => Math.round(Math.abs(1 - ratio) * 100);
