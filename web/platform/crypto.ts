import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * `node:crypto`'s `createHash('sha256')` in the browser build (synchronous, as the CLI's callers
 * use it: a scenario's digest, the units' digest, chart ids), by @noble/hashes: the same hex as Node.
 */
export function createHash(algorithm: string): { update(data: string | Uint8Array): ReturnType<typeof createHash>; digest(encoding: 'hex'): string } {
  if (algorithm !== 'sha256') throw new Error(`the workbench hashes with sha256 only, not ${algorithm}`);
  const hash = sha256.create();
  const hasher = {
    update(data: string | Uint8Array) {
      hash.update(typeof data === 'string' ? utf8ToBytes(data) : data);
      return hasher;
    },
    digest: () => bytesToHex(hash.digest()),
  };
  return hasher;
}

export default { createHash };
