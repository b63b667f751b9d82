export { type Dice, MAX_PACKED_D10, MAX_PACKED_DICE, POW10, POW6, packDice, unpackDie } from './dice.js';
export { atLeast, D10Tests, type FaceScore, PoolScorer } from './pool.js';
export { ScriptedDice } from './scripted.js';
export { StreamDice, seedGenerator, streamDice, streamGenerator } from './stream.js';
export { RecordingDice } from './recording.js';
export { CHANCE_SCALE, chanceDraw, drawBelow, happens } from './chance.js';
