/**
 * The architecture's boundaries (DESIGN.md; issue 12), checked by `npm run boundaries` and in .ci/run.
 *
 * Only production imports count: test files (specs, int-specs, e2e-specs, *.test-support.ts,
 * *.jest-setup.ts, the event-store contract suite), test/ and bench/ are left out of the graph,
 * so every rule, `reachable` ones included, follows what a running process loads.
 * `npm run boundaries` fails on any break: there is no list of known ones.
 */

/** Files that exist for the tests only. */
const TEST_ONLY = [
  '\\.(spec|int-spec|e2e-spec)\\.ts$',
  '\\.test-support\\.ts$',
  '\\.jest-setup\\.ts$',
  '^libs/event-store/src/event-store\\.contract\\.ts$',
  '^test/',
  '^bench/',
];

/** Every connector, the platform clients and their HTTP layer. */
const PLATFORMS = '^libs/platforms/';
/** Storage of events (port, adapters, feed reading, checkpoints). */
const EVENT_STORE = '^libs/event-store/';
/** The relay from the stored feed to JetStream (reads the store). */
const EVENT_RELAY = '^libs/event-relay/';

module.exports = {
  forbidden: [
    {
      name: 'apps-never-import-apps',
      comment: 'Apps talk over messaging, never through each other\'s code: anything two apps need belongs in a lib.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'libs-never-import-apps',
      comment: 'Libs sit below the apps; an app is a process and a lib that needs its code needs that code moved into a lib.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'contracts-import-nothing-of-ours',
      comment: 'libs/contracts is the shared vocabulary (wire types, events, codes, positions): it depends on no other part of the code.',
      severity: 'error',
      from: { path: '^libs/contracts/' },
      to: { path: '^(apps|libs|tools)/', pathNot: '^libs/contracts/' },
    },
    {
      name: 'sdk-imports-nothing-of-ours',
      comment: 'libs/sdk is the public client, published on its own: its generated code and its own, nothing of the service (it knows the API only through the OpenAPI document).',
      severity: 'error',
      from: { path: '^libs/sdk/' },
      to: { path: '^(apps|libs|tools)/', pathNot: '^libs/sdk/' },
    },
    {
      name: 'mcp-reaches-the-api-only-through-the-sdk',
      comment: 'libs/mcp holds no domain rule and reaches no store: its tools call the public API through libs/sdk, and it imports nothing else of ours.',
      severity: 'error',
      from: { path: '^libs/mcp/' },
      to: { path: '^(apps|libs|tools)/', pathNot: '^libs/(mcp|sdk)/' },
    },
    {
      name: 'gateway-never-reaches-the-event-store',
      comment: 'The gateway reads the read models and sends commands; it never loads event storage or the relay (positions come from libs/contracts).',
      severity: 'error',
      from: { path: '^apps/gateway/' },
      to: { path: [EVENT_STORE, EVENT_RELAY], reachable: true },
    },
    {
      name: 'gateway-never-reaches-a-connector',
      comment: 'Platform calls happen in the publisher, comments, accounts and analytics services; the gateway process loads no connector.',
      severity: 'error',
      from: { path: '^apps/gateway/' },
      to: { path: PLATFORMS, reachable: true },
    },
    {
      name: 'configuration-knows-no-connector',
      comment: 'libs/config holds plain values; each lib builds its own settings from them (libs/platforms: platformClientOptions).',
      severity: 'error',
      from: { path: '^libs/config/' },
      to: { path: PLATFORMS, reachable: true },
    },
    {
      name: 'read-models-and-classification-never-call-out',
      comment: 'Read models and classification are pure reads and computations: no platform call, no messaging to other services.',
      severity: 'error',
      from: { path: '^libs/(read-models|classification)/' },
      to: { path: [PLATFORMS, '^libs/messaging/', '^node_modules/nats/'], reachable: true },
    },
    {
      name: 'only-tools-load-the-platform-sandbox',
      comment: 'The sandbox stands in for the platforms in tests, benches and `npm start`; no service loads it (the sandbox app is its thin main).',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: ['^apps/platform-sandbox/', '^libs/platform-sandbox/'] },
      to: { path: '^libs/platform-sandbox/' },
    },
    {
      name: 'no-cycles-between-libs',
      comment: 'Libs form a hierarchy: two libs that need each other are one concern split wrongly (or a third lib missing).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^libs/[^/]+/src$' },
      to: { circular: true, path: '^libs/[^/]+/src$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: TEST_ONLY },
    // Imports as the compiler leaves them: a type-only import is erased and loads nothing at run time
    // (libs/accounts names the sign-in types of libs/platforms without loading a connector).
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
