import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The SDK's generated code is what `npm run sdk:generate` makes from docs/openapi.json now (CI runs the same check in .ci/run). */
describe('the SDK generated code', () => {
  it('is current against docs/openapi.json', () => {
    let outcome = 'current';
    try {
      execFileSync(process.execPath, [join(__dirname, '../scripts/generate.mjs'), '--check'], { stdio: 'pipe' });
    } catch (error) {
      outcome = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(outcome).toBe('current');
  });
});
