export { type Dice, MAX_PACKED_DICE, POW6, packDice, unpackDie } from './dice.js';
export { atLeast, type FaceScore, PoolScorer } from './pool.js';
export { ScriptedDice } from './scripted.js';
export { StreamDice, seedGenerator, streamDice, streamGenerator } from './stream.js';
export { RecordingDice } from './recording.js';
