import { PrivateNats } from '../../../test/support/private-infra';
import { connectNats, drainWithin } from './nats-connection';

/**
 * Shutting down with the NATS server gone (npm start's Ctrl-C reaches the nats-server it
 * started as well as the apps): the connection reconnects for ever, so a plain drain, which
 * needs the server, never ends and the process never stops. drainWithin closes it instead.
 */
describe('drainWithin (a private nats-server)', () => {
  let nats: PrivateNats;

  beforeAll(async () => {
    nats = await PrivateNats.start();
  });
  afterAll(async () => {
    await nats?.destroy();
  });

  it('drains a connection whose server is up', async () => {
    const nc = await connectNats(nats.url, 'drain-up');
    await drainWithin(nc, 2_000);
    expect(nc.isClosed()).toBe(true);
  });

  it('closes, within its bound, a connection whose server is gone', async () => {
    const nc = await connectNats(nats.url, 'drain-gone');
    nc.subscribe('anything');
    await nats.kill();
    const started = Date.now();
    await drainWithin(nc, 500);
    expect(nc.isClosed()).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
