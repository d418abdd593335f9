import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The rules in .dependency-cruiser.cjs, run by dependency-cruiser itself over small trees laid
 * out like this repository: a tree that breaks every rule once is reported on every rule, and
 * the same libs wired the allowed way are not. So a rule that could never fail (a typo in a
 * path pattern, an alias that no longer resolves) fails here.
 */
const REPO = join(__dirname, '..', '..');
const CONFIG = join(REPO, '.dependency-cruiser.cjs');
const DEPCRUISE = join(REPO, 'node_modules', '.bin', 'depcruise');
const RULE_NAMES: string[] = (require(CONFIG) as { forbidden: { name: string }[] }).forbidden.map((rule) => rule.name);

type Tree = Record<string, string>;

const LIBS = ['contracts', 'config', 'event-store', 'platforms', 'read-models', 'classification', 'messaging', 'webhooks', 'health', 'platform-sandbox', 'sdk', 'mcp'];

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    module: 'node16',
    moduleResolution: 'node16',
    baseUrl: './',
    paths: Object.fromEntries(LIBS.flatMap((lib) => [[`@app/${lib}`, [`libs/${lib}/src`]], [`@app/${lib}/*`, [`libs/${lib}/src/*`]]])),
  },
});

/** Libs that import nothing of each other: every rule holds. */
const ALLOWED: Tree = {
  'libs/contracts/src/index.ts': 'export const POSITION = 1;\n',
  'libs/config/src/index.ts': "import { POSITION } from '@app/contracts';\nexport const settings = { POSITION };\n",
  'libs/event-store/src/index.ts': "import { POSITION } from '@app/contracts';\nexport const store = POSITION;\n",
  'libs/platforms/src/index.ts': "import { settings } from '@app/config';\nexport const connector = settings;\n",
  'libs/messaging/src/index.ts': 'export const bus = 1;\n',
  'libs/read-models/src/index.ts': "import { POSITION } from '@app/contracts';\nexport const view = POSITION;\n",
  'libs/classification/src/index.ts': 'export const sentiment = 1;\n',
  'libs/webhooks/src/stores.ts': 'export const endpoints = 1;\n',
  'libs/webhooks/src/index.ts': "import { store } from '@app/event-store';\nexport const fanout = store;\nexport * from './stores';\n",
  'libs/health/src/index.ts': "import { bus } from '@app/messaging';\nexport const ready = bus;\n",
  'libs/platform-sandbox/src/index.ts': "import { POSITION } from '@app/contracts';\nexport const sandbox = POSITION;\n",
  'apps/platform-sandbox/src/main.ts': "import { sandbox } from '@app/platform-sandbox';\nexport const main = sandbox;\n",
  // The SDK stands alone; the MCP server reaches the API through it only; the gateway hosts the MCP server.
  'libs/sdk/src/index.ts': 'export const client = 1;\n',
  'libs/mcp/src/index.ts': "import { client } from '@app/sdk';\nexport const tools = client;\n",
  'apps/gateway/src/mcp.ts': "import { tools } from '@app/mcp';\nexport const mcp = tools;\n",
  'apps/gateway/src/main.ts':
    "import { view } from '@app/read-models';\nimport { settings } from '@app/config';\nimport { endpoints } from '@app/webhooks/stores';\nexport const gateway = [view, settings, endpoints];\n",
  'apps/posts/src/main.ts': "import { store } from '@app/event-store';\nexport const posts = store;\n",
  // Test files are not production imports: none of these count.
  'apps/posts/src/posts.spec.ts': "import { gateway } from '../../gateway/src/main';\nexport const seen = gateway;\n",
  'libs/contracts/src/contracts.int-spec.ts': "import { connector } from '@app/platforms';\nexport const seen = connector;\n",
};

/** The same tree with each rule broken once; the gateway and config breaks are transitive. */
const BROKEN: Tree = {
  ...ALLOWED,
  'apps/posts/src/main.ts': "import { store } from '@app/event-store';\nimport { gateway } from '../../gateway/src/main';\nexport const posts = [store, gateway];\n",
  'libs/messaging/src/index.ts': "import { posts } from '../../../apps/posts/src/main';\nexport const bus = posts;\n",
  'libs/contracts/src/index.ts': "import { ready } from '@app/health';\nexport const POSITION = ready;\n",
  // The gateway reaches the event store through the webhooks lib's index, and a connector through config.
  'apps/gateway/src/main.ts': "import { view } from '@app/read-models';\nimport { fanout } from '@app/webhooks';\nimport { settings } from '@app/config';\nexport const gateway = [view, fanout, settings];\n",
  'libs/config/src/index.ts': "import { linkedInVersion } from './platform-defaults';\nexport const settings = { linkedInVersion };\n",
  'libs/config/src/platform-defaults.ts': "import { connector } from '@app/platforms';\nexport const linkedInVersion = connector;\n",
  'libs/platforms/src/index.ts': "export const connector = 'x';\n",
  'libs/classification/src/index.ts': "import { connector } from '@app/platforms';\nexport const sentiment = connector;\n",
  // health -> messaging -> apps/posts -> event-store is already there; event-store -> health closes a lib cycle through deep files only.
  'libs/event-store/src/index.ts': "import { POSITION } from '@app/contracts';\nimport { probe } from '@app/health/probe';\nexport const store = [POSITION, probe];\n",
  'libs/health/src/probe.ts': 'export const probe = 1;\n',
  // The SDK importing a lib of the service; the MCP server reaching past the SDK into a read model.
  'libs/sdk/src/index.ts': "import { POSITION } from '@app/contracts';\nexport const client = POSITION;\n",
  'libs/mcp/src/index.ts': "import { client } from '@app/sdk';\nimport { view } from '@app/read-models';\nexport const tools = [client, view];\n",
  // A service that loads the sandbox.
  'apps/posts/src/sandboxed.ts': "import { sandbox } from '@app/platform-sandbox';\nexport const sandboxed = sandbox;\n",
  'libs/health/src/index.ts': "import { bus } from '@app/messaging';\nimport { store } from '@app/event-store/index';\nexport const ready = [bus, store];\n",
};

function violatedRules(tree: Tree): Set<string> {
  const root = mkdtempSync(join(tmpdir(), 'boundaries-'));
  try {
    writeFileSync(join(root, 'tsconfig.json'), TSCONFIG);
    for (const [path, source] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), source);
    }
    const run = spawnSync(DEPCRUISE, ['apps', 'libs', '--config', CONFIG, '--output-type', 'json'], { cwd: root, encoding: 'utf8' });
    if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string } }[] } };
    return new Set(result.summary.violations.map((violation) => violation.rule.name));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the boundary rules (.dependency-cruiser.cjs)', () => {
  it('report nothing when the apps and libs import the allowed way (test files left out)', () => {
    expect([...violatedRules(ALLOWED)]).toEqual([]);
  }, 30_000);

  it('report every rule on a tree that breaks each one, transitive reaches and a cycle through deep imports included', () => {
    expect([...violatedRules(BROKEN)].sort()).toEqual([...RULE_NAMES].sort());
  }, 30_000);
});
