import { installNodePlatform } from '../input/node-platform.js';

/**
 * Before each test file: Node's platform (input/platform.ts), as the CLI and the library install it,
 * since test files import the modules that load scenarios directly rather than through an entry point.
 */
installNodePlatform();
