/**
 * The layers of docs/architecture.md, checked by `npm run lint:deps` (part of `npm test`).
 * Lower layers never import higher ones; rule systems never import each other; nothing above the
 * engine reaches into a rule system's folder (it goes through the RuleSystem descriptors).
 */
const SOURCE = '^(engine|input|statistics|sim|queue|analysis|documents|reports|cli|web)/';

/** Each layer, and the layers it may import besides itself. */
const LAYERS = {
  engine: [],
  input: ['engine'],
  statistics: ['engine', 'input'],
  sim: ['engine', 'input', 'statistics'],
  queue: ['engine', 'input', 'statistics', 'sim'],
  analysis: ['engine', 'input', 'statistics', 'sim'],
  documents: ['engine', 'input', 'statistics', 'sim', 'analysis'],
  reports: ['engine', 'input', 'statistics', 'sim', 'analysis', 'documents'],
  cli: ['engine', 'input', 'statistics', 'sim', 'queue', 'analysis', 'documents', 'reports', 'web/(serving|build-stamp)\\.ts$'],
  web: ['engine', 'input', 'statistics', 'sim', 'analysis', 'documents', 'reports'],
};
const ALL = Object.keys(LAYERS);
/** Node's built-in modules as the cruiser names them (`fs`, `fs/promises`, `node:test`…). */
const NODE_BUILT_INS = `^(node:)?(${require('node:module').builtinModules.join('|')})$`;

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `${layer}/ may import only ${[layer, ...allowed].join(', ') || 'itself'} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^${layer}/` },
  to: {
    path: `^(${ALL.join('|')})/`,
    pathNot: [`^${layer}/`, ...allowed.map((entry) => (entry.includes('/') ? `^${entry}` : `^${entry}/`))],
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles hide which module depends on which.',
      from: { path: SOURCE },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'rule-systems-apart',
      comment: 'A rule system never imports another (engine/<a>/ → engine/<b>/); shared pieces live in engine/*.ts and engine/dice/.',
      severity: 'error',
      from: { path: '^engine/([\\w-]+)/' },
      to: { path: '^engine/([\\w-]+)/', pathNot: ['^engine/$1/', '^engine/dice/'] },
    },
    {
      name: 'through-the-descriptor',
      comment:
        'Above the engine, a rule system is reached through its RuleSystem descriptor (engine/registry.ts), never by importing its folder.',
      severity: 'error',
      from: { path: '^(input|statistics|sim|queue|analysis|documents|reports|cli|web)/|^(index|plugin|reports)\\.ts$' },
      to: { path: '^engine/(?!dice/)[\\w-]+/' },
    },
    {
      name: 'page-is-portable',
      comment:
        'What the workbench page and its workers import runs in a browser: no Node built-ins; where Node and a browser differ, the platform (input/platform.ts) answers.',
      severity: 'error',
      from: { path: '^web/(main\\.tsx|compute/[\\w-]+-worker\\.ts)$' },
      to: { path: NODE_BUILT_INS, reachable: true },
    },
    {
      name: 'engine-is-pure',
      comment: 'The engine does no I/O: no Node built-ins.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|scratch)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
