#!/usr/bin/env node
/**
 * Makes sure a Redis server for the queue tests (and for trying `crucible worker` locally) is on
 * the machine: Debian's `redis-server` package, installed with apt-get when it is missing. The
 * tests start their own server on a free port of 127.0.0.1, with nothing saved to disk.
 * Prints the executable's path. Run: node scripts/setup-redis.mjs (npm test runs it once before the tests: test/global-setup.ts)
 */
import { ensureDebianPackage } from './apt-install.mjs';

export const REDIS_SERVER = process.env.CRUCIBLE_REDIS_SERVER ?? '/usr/bin/redis-server';

export const ensureRedisServer = () => ensureDebianPackage('redis-server', REDIS_SERVER);

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureRedisServer());
