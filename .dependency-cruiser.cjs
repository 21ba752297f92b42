// The rooms of src/ and which way their imports may run (docs/architecture.md draws them).
// `npm test` runs it (test/architecture/layers.test.ts); `npx depcruise src` shows it by hand.
//
// Layers, top to bottom: a room imports only rooms below its own layer, or beside it in the same
// layer. The rooms beside the layers (storage, reading messages, redaction, the stored records)
// may be imported from any layer and import only each other and the bottom layers.
const LAYERS = [
  ['cli'], // the command line and the terminal face: entry points
  ['app'], // composition: configuration, starting the bots, shards
  ['adapters'], // the chat faces: Discord and Slack
  ['ops'], // logging, metrics, health, the admission gate
  ['conversation'], // the engine and the guided conversation
  ['plan', 'learn', 'stats', 'render', 'settings'],
  ['classify'],
  ['i18n'],
  ['kb'],
];
const BESIDE = ['store', 'ingest', 'redact', 'records'];
/** What the rooms beside the layers may import of the layers: the classifier and below. */
const BESIDE_MAY_USE = ['classify', 'i18n', 'kb'];

const anyOf = (rooms) => `^src/(${rooms.join('|')})/`;
const above = (i) => LAYERS.slice(0, i).flat();

module.exports = {
  forbidden: [
    {
      name: 'no-circle',
      severity: 'error',
      comment: 'Rooms and files import each other in one direction only.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...LAYERS.slice(1).map((rooms, i) => ({
      name: `upward-from-${rooms.join('-')}`,
      severity: 'error',
      comment: `${rooms.join(', ')} may not import the layers above: ${above(i + 1).join(', ')}.`,
      from: { path: anyOf(rooms) },
      to: { path: anyOf(above(i + 1)) },
    })),
    {
      name: 'beside-knows-only-below',
      severity: 'error',
      comment: `${BESIDE.join(', ')} (the store knows storage only) may import each other and ${BESIDE_MAY_USE.join(', ')}, nothing above.`,
      from: { path: anyOf(BESIDE) },
      to: { path: anyOf(LAYERS.flat().filter((r) => !BESIDE_MAY_USE.includes(r))) },
    },
    {
      name: 'every-room-placed',
      severity: 'error',
      comment: 'A new room of src/ gets its place in the layers (here and in docs/architecture.md).',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: anyOf([...LAYERS.flat(), ...BESIDE]) },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // Type-only imports count: a room that names another's types depends on it as much.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
