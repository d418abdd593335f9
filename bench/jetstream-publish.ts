import { connect, headers, JetStreamClient, JSONCodec, NatsConnection } from 'nats';
import { JetStreamPublisher } from '@app/messaging';
import { BenchNats } from './bench-nats';
import { reportFigures } from './report';
import { runScript } from './run-script';

/**
 * npm run bench:jetstream-publish: what one JetStream publish costs the publishing process, the way
 * the relay publishes (batches of 500 sent at once, each asserting its predecessor's id), through
 * nats.js's `js.publish` (a request per publish) and through JetStreamPublisher (one reply inbox).
 * The client's CPU (process.cpuUsage) per publish, on the bench's own nats-server; alternating rounds.
 */
const PUBLISHES = Number(process.env.BENCH_JETSTREAM_PUBLISHES ?? 20_000);
const BATCH = 500;
const ROUNDS = 2;

type Publish = (subject: string, id: string, predecessor: string | undefined) => Promise<unknown>;

async function main(): Promise<void> {
  const server = await BenchNats.start();
  let nc: NatsConnection | null = null;
  try {
    nc = await connect({ servers: server.url });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'bench', subjects: ['bench.>'], duplicate_window: 60e9 });
    const data = JSONCodec().encode({ eventId: 'e', type: 'PostCreated', data: { content: 'Bench post '.repeat(20) } });
    const withHeaders = () => {
      const h = headers();
      h.set('x-request-id', 'bench');
      return h;
    };
    const js: JetStreamClient = nc.jetstream();
    const ours = new JetStreamPublisher(nc, 5_000);
    const ways: Record<string, Publish> = {
      'nats.js js.publish': (subject, id, predecessor) => js.publish(subject, data, { msgID: id, headers: withHeaders(), ...(predecessor ? { expect: { lastMsgID: predecessor } } : {}) }),
      JetStreamPublisher: (subject, id, predecessor) => ours.publish(subject, data, { msgID: id, expectLastMsgID: predecessor, headers: withHeaders() }),
    };
    let next = 0;
    const run = async (publish: Publish, count: number) => {
      for (let b = 0; b < count / BATCH; b++) {
        const ids = Array.from({ length: BATCH }, () => `m-${next++}`);
        await Promise.all(ids.map((id, i) => publish('bench.event', id, i > 0 ? ids[i - 1] : undefined)));
      }
    };
    const figures: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, publish] of Object.entries(ways)) {
        await run(publish, 2 * BATCH); // warm-up
        const before = process.cpuUsage();
        await run(publish, PUBLISHES);
        const used = process.cpuUsage(before);
        (figures[name] ??= []).push(Math.round(((used.user + used.system) / PUBLISHES) * 10) / 10);
      }
    }
    for (const [name, perPublish] of Object.entries(figures)) process.stdout.write(`${name.padEnd(20)} client CPU per publish: ${perPublish.map((us) => `${us} µs`).join(' / ')}\n`);
    reportFigures('jetstream-publish', { publishes: PUBLISHES, batch: BATCH, clientCpuMicrosPerPublish: figures });
  } finally {
    await nc?.close();
    await server.stop();
  }
}

runScript(main);
