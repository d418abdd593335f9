import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every environment variable the service and its tools read is in the README's settings table
 * (## Configuration): found in the code of apps, libs and tools (not the tests, not the benches'
 * own knobs) as `process.env.X`, `env.X`, `env['X']`, AppConfig's `int('X')`, and per-platform
 * names built as `env[\`${...}_CLIENT_ID\`]`, which the table writes `<PLATFORM>_CLIENT_ID`.
 */
const root = join(__dirname, '..', '..');
const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$|\.test-support\.ts$|\.jest-setup\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

const READS = [
  /process\.env\.([A-Z][A-Z0-9_]*)/g,
  /\benv\.([A-Z][A-Z0-9_]*)/g,
  /\benv\[\s*'([A-Z][A-Z0-9_]*)'\s*\]/g,
  /\bint\('([A-Z][A-Z0-9_]*)'/g,
];
/** `env[\`PREFIX_${platform...}\`]` or `env[\`${prefix}_SUFFIX\`]`: the platform's part is <PLATFORM>. */
const PER_PLATFORM = /\benv\[`([A-Z_]*)\$\{[^}]+\}([A-Z_]*)`\]/g;

function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of ['apps', 'libs', 'tools'].flatMap((dir) => sources(join(root, dir)))) {
    const code = readFileSync(file, 'utf8');
    for (const pattern of READS) for (const match of code.matchAll(pattern)) found.set(match[1], relative(root, file));
    for (const match of code.matchAll(PER_PLATFORM)) found.set(`${match[1]}<PLATFORM>${match[2]}`, relative(root, file));
  }
  return found;
}

function settingsTable(): Set<string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'));
  const table = section.slice(0, section.search(/\n#{2,3} (?!Configuration)/));
  const names = new Set<string>();
  for (const row of table.split('\n').filter((line) => line.startsWith('| `'))) {
    const firstCell = row.split('|')[1];
    for (const match of firstCell.matchAll(/`([A-Z<>][A-Z0-9_<>]*)`/g)) names.add(match[1]);
  }
  return names;
}

describe('README settings table', () => {
  const read = variablesRead();
  const documented = settingsTable();

  it('finds the settings it should (the scan works)', () => {
    expect([...read.keys()]).toEqual(expect.arrayContaining(['DATABASE_URL', 'PORT', 'LOCAL_DATA_DIR', 'EMBEDDED_PG_PORT', 'SANDBOX_PORT', '<PLATFORM>_CLIENT_ID', 'PLATFORM_BASE_URL_<PLATFORM>', 'COMMAND_TIMEOUT_MS']));
  });

  it('documents every variable the code reads', () => {
    const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  it('documents no variable the code does not read', () => {
    expect([...documented].filter((name) => !read.has(name))).toEqual([]);
  });
});
