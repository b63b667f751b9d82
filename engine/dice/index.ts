export { type Dice, MAX_PACKED_D10, MAX_PACKED_DICE, POW10, POW6, packDice, unpackDie } from './dice.js';
export {
  atLeast,
  type D10Counter,
  D10TestTables,
  D10Tests,
  type FaceScore,
  type PoolRoller,
  PoolScorer,
  PoolTables,
  poolRoller,
  poolScorer,
} from './pool.js';
export { ScriptedDice } from './scripted.js';
export { StreamDice, seedGenerator, streamDice, streamGenerator } from './stream.js';
export { RecordingDice } from './recording.js';
export { chanceFromPools } from './chance.js';
export { binomialTable, OutcomeTable, sumOfDiceTable, UNIT_ROUNDOFF } from './outcome-table.js';
export { EnumeratingDice, TooManyOutcomesError } from './enumerating.js';
