// The layer order of docs/architecture.md ("The layers"), lowest first: a directory of src/
// may import its own files and those of the directories before it, never one after it.
// Checked by `npm run lint`. Type-only imports count too (tsPreCompilationDeps): a type that
// points up a layer still ties the two together.
const LAYERS = [
  'lib', 'protocol', 'store', 'offline', 'model', 'team', 'worktree', 'policy', 'sandbox',
  'tools', 'hooks', 'agent', 'process', 'teammate', 'host', 'lead', 'present', 'ui', 'cli',
];

const layerRules = LAYERS.map((layer, index) => ({
  name: `layer-${layer}`,
  comment: `src/${layer} may import only ${LAYERS.slice(0, index).join(', ') || 'no other layer'} (docs/architecture.md: The layers)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(index + 1).join('|') || '$^'})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle (type-only imports included) means two files are one idea: move what both need down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-without-ui-libraries',
      comment: 'Only src/ui renders: the core never imports ink or react.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/ui/' },
      to: { path: '^node_modules/(@types/react|ink|react|ink-[^/]+)/' },
    },
    {
      name: 'shared-state-through-the-store',
      comment: 'The processes of a team share state only through the TeamStore interface (src/store/team-store.ts): a backend (src/store/file/, src/store/redis/) is its own business, opened by src/store/open-store.ts alone.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/[^/]+/' },
    },
    {
      name: 'one-store-per-process',
      comment: 'A process opens its store once, where it starts (the CLI\'s context, a teammate\'s entry), and hands it on.',
      severity: 'error',
      from: { pathNot: '^src/(cli/context|teammate/main)\\.ts$' },
      to: { path: '^src/store/open-store\\.ts$' },
    },
    {
      name: 'backends-through-the-opener',
      comment: 'A backend is opened by the descriptor its processes are given (src/store/open-store.ts), never picked by name elsewhere in the store.',
      severity: 'error',
      from: { path: '^src/store/[^/]+\\.ts$', pathNot: '^src/store/open-store\\.ts$' },
      to: { path: '^src/store/[^/]+/index\\.ts$' },
    },
    {
      name: 'through-the-index',
      comment: 'A folder\'s index.ts is its public face: other folders import it, never the files behind it (store/open-store.ts is the face a process\'s entry opens its store by).',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$', '^src/store/open-store\\.ts$'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the cruiser cannot resolve would escape every rule above.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    ...layerRules,
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
