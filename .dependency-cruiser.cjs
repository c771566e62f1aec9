// The layering rules `npm run check` enforces (docs/architecture.md draws them). Each folder sits in
// one layer and may import only from its own folder and from lower layers: peers in a layer never
// import each other, so no cycle between folders can form. On top of that: no import cycle between
// modules, shared/ and renderer/ never touch Node built-ins, and the Node side never imports renderer/.
const LAYERS = [
  // shared/: pure TypeScript for both sides, lowest first.
  ['shared/captions'],
  ['shared/spec', 'shared/fonts', 'shared/format', 'shared/output'],
  ['shared/layout', 'shared/project'],
  ['shared/animation'],
  ['shared/timeline', 'shared/builder'],
  ['shared/canvas', 'shared/protocol'],
  ['shared/code'],
  ['shared/elements', 'shared/studio'],
  ['shared/draw'],
  // The browser side and the Electron preload.
  ['renderer/player', 'preload'],
  ['renderer/studio'],
  // main/: the Node side, lowest first.
  ['main/launcher', 'main/fs'],
  ['main/http', 'main/ffmpeg', 'main/processes', 'main/fonts'],
  ['main/verify', 'main/media', 'main/composition'],
  ['main/encoder', 'main/project'],
  ['main/engine'],
  ['main/inspect', 'main/storage', 'main/preview'],
  ['main/review'],
  ['main/authoring'],
  ['main/jobs'],
  // The render service without HTTP: config, the job view, creating and canceling renders. The API
  // and MCP both stand on it, as peers: neither imports the other (kino serve hands MCP's route to
  // the API).
  ['main/renders'],
  ['main/workspace', 'main/api', 'main/mcp'],
  ['main/session', 'main/studio'],
  ['main/cli'],
  ['main/desktop', 'main/bench'],
  // Cross-process tests and the example project use everything.
  ['e2e', 'examples'],
];

const folderPattern = (folders) => `^(${folders.map((f) => f.replace('/', '\\/')).join('|')})(/|$)`;
const FOLDER = '^((?:shared|main|renderer)/[^/]+|preload|e2e|examples)(/|$)';

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${index}`,
  comment: `${layer.join(', ')} may import only their own folder and the layers below them`,
  severity: 'error',
  from: { path: folderPattern(layer) },
  to: { path: folderPattern(LAYERS.slice(index).flat()), pathNot: '^$1(/|$)' },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'unlayered-folder',
      comment: 'every folder belongs to a layer: add a new one to LAYERS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: FOLDER, pathNot: folderPattern(LAYERS.flat()) },
      to: {},
    },
    // Inside renderer/studio (one folder in LAYERS): ui/ (icons, formatting, styles, layout state)
    // is the bottom, the panes (editor, preview, review, …) stand on it, app/ composes the panes, and
    // main.tsx mounts app/.
    {
      name: 'studio-ui-is-a-leaf',
      comment: 'renderer/studio/ui is what every pane uses: it imports nothing else from the studio',
      severity: 'error',
      from: { path: '^renderer/studio/ui/' },
      to: { path: '^renderer/studio/', pathNot: '^renderer/studio/ui/' },
    },
    {
      name: 'studio-panes-never-import-app',
      comment: 'renderer/studio/app composes the panes: only app/ itself and main.tsx import it',
      severity: 'error',
      from: { path: '^renderer/studio/', pathNot: '^renderer/studio/(app/|main\\.tsx$)' },
      to: { path: '^renderer/studio/app/' },
    },
    {
      name: 'no-circular',
      comment: 'modules import each other in one direction only',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'pure-shared-and-renderer',
      comment: 'shared/ and renderer/ run in the browser too: no Node built-ins',
      severity: 'error',
      from: { path: '^(shared|renderer)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'node-never-imports-renderer',
      comment: 'the Node side reaches the UI only through the preload API and HTTP',
      severity: 'error',
      from: { path: '^(main|shared|preload)/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to nothing',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
