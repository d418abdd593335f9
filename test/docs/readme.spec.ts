import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from '@app/contracts';

/** The README's error table is the public list of codes: it must name each one with its status. */
describe('README error codes', () => {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

  it.each(Object.entries(ERROR_CODES))('documents %s', (code, { status }) => {
    expect(readme).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
  });

  it('documents no code the service does not have', () => {
    const documented = [...readme.matchAll(/^\| `([a-z_]+)` \| \d{3} \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
