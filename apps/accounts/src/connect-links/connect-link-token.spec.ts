import { randomBytes } from 'node:crypto';
import { ConnectState } from '../connect/connect-state';
import { ConnectLinkToken } from './connect-link-token';

describe('ConnectLinkToken', () => {
  const secret = randomBytes(32);
  const tokens = new ConnectLinkToken(secret);
  const id = '7d0c2b1e-8f57-4c8e-9b53-0d8c1f1f8a10';

  it('signs the id and verifies it back', () => {
    expect(tokens.sign(id)).toMatch(new RegExp(`^${id}\\.[A-Za-z0-9_-]{43}$`));
    expect(tokens.verify(tokens.sign(id))).toBe(id);
  });

  it('refuses an altered signature or id, and another key', () => {
    const token = tokens.sign(id);
    expect(tokens.verify(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(tokens.verify(token.replace(id, id.replace(/0$/, '1')))).toBeNull();
    expect(new ConnectLinkToken(randomBytes(32)).verify(token)).toBeNull();
    expect(tokens.verify(id)).toBeNull();
  });

  it("is never a sign-in's state, nor the other way round (a key per purpose)", () => {
    const state = new ConnectState(secret);
    expect(state.verify(tokens.sign(id))).toBeNull();
    expect(tokens.verify(state.sign(id))).toBeNull();
  });
});
