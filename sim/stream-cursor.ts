import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import { streamGenerator } from '../engine/dice/index.js';

/**
 * The generator of stream k of a seed, reached by jumping forward from the last stream asked for.
 *
 * Stream k is the seed's generator jumped k times, and a jump costs about 1 µs: shard 15,000 of a
 * billion-trial run would spend 15 ms (a third of the shard) jumping from the start. A worker is
 * handed shards in increasing order, a few apart, so it keeps its position and jumps only the gap;
 * only a shard behind it (a retry) restarts from stream 0.
 */
export class StreamCursor {
  private seed = -1;
  private stream = 0;
  private generator: JumpableRandomGenerator | undefined;

  /** A fresh generator positioned at stream `stream` of `seed` (the caller may advance it freely). */
  generatorAt(seed: number, stream: number): JumpableRandomGenerator {
    if (this.generator === undefined || seed !== this.seed || stream < this.stream) {
      this.generator = streamGenerator(seed, 0);
      this.seed = seed;
      this.stream = 0;
    }
    for (; this.stream < stream; this.stream++) this.generator.jump();
    return this.generator.clone();
  }
}
