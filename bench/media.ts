import 'reflect-metadata';
import { Platform } from '@app/contracts';
import { startPlatformSandbox, trustSandboxCa } from '@app/platform-sandbox';
import { connectSandboxAccount } from '../tools/local/connect-sandbox-account';
import { createBenchDatabase, startService } from './bench-environment';
import { memoryOf, resetPeak } from './process-memory';
import { reportFigures } from './report';
import { runScript } from './run-script';

/**
 * npm run bench:media (issue 10, part 6; Linux: memory is read from /proc). The publisher runs
 * in a process of its own, as in production; its peak RSS is its VmHWM, reset before each part
 * (/proc/<pid>/clear_refs 5).
 *
 * (a) publishNow with four 2 MB images to X, Bluesky, Mastodon and LinkedIn at once: the wall
 *     time against the slowest of the four platforms published alone with the same images (the
 *     floor, measured in this run: the accounts are published in parallel, so the four together
 *     should take about that), and the publisher's peak RSS over its RSS before (the media are
 *     spooled to disk and sent from there, so 32 MB of images should not show as 32 MB).
 * (b) a 200 MB video to YouTube (resumable upload in 8 MiB chunks): the publisher's peak RSS
 *     over its RSS before must stay under 150 MB, and grow no more than for a 20 MB video
 *     (the baseline in this run): the video is streamed, never held. The publisher process
 *     itself (every app's modules loaded) already takes ~130 MB at rest, so its absolute peak
 *     is printed too.
 */
const IMAGE_BYTES = 2_000_000;
const VIDEO_BYTES = 200 * 1024 * 1024;
const VIDEO_RSS_LIMIT_MB = 150;
const RUNS = Number(process.env.BENCH_MEDIA_RUNS ?? 3);
const IMAGE_PLATFORMS: Platform[] = ['x', 'bluesky', 'mastodon', 'linkedin'];
const HANDLE = '@media_bench';

async function main(): Promise<void> {
  const sandbox = await startPlatformSandbox();
  const db = await createBenchDatabase(5);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('media bench');
    const { key } = await db.store.createKey(workspace.id, ['write', 'publish']);
    for (const platform of [...IMAGE_PLATFORMS, 'youtube' as const]) {
      await connectSandboxAccount(db.accounts, sandbox, { workspaceId: workspace.id, platform, handle: HANDLE, key: `bench-${platform}` });
    }
    // The media host is on loopback: allowed here as in npm start, and its test CA trusted.
    const trust: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS };
    trustSandboxCa(trust);
    service = await startService(db, ['projector', 'posts', 'publisher', 'gateway'], {
      PLATFORM_SANDBOX_URL: sandbox.url,
      MEDIA_ALLOWED_HOSTS: new URL(sandbox.mediaUrl).host,
      NODE_EXTRA_CA_CERTS: trust.NODE_EXTRA_CA_CERTS ?? '',
      X_POOL_MONTHLY_POSTS: '100000',
      // The 200 MB video takes longer than the default wait: the answer should carry the outcome.
      PUBLISH_WAIT_MS: '300000',
    });
    const gateway = service.url;
    const publisher = service.pids.publisher;
    let post = 0;

    /** publishNow to these platforms with these media; its wall time in ms (throws unless every account published). */
    const publishNow = async (platforms: Platform[], mediaUrls: string[]): Promise<number> => {
      const started = performance.now();
      const response = await fetch(`${gateway}/api/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `media bench ${++post}`, accounts: platforms.map((platform) => `${platform}:${HANDLE}`), mediaUrls, publishNow: true }),
      });
      const elapsed = performance.now() - started;
      const body = (await response.json()) as { post?: { status: string }; results?: unknown[] };
      if (response.status !== 201 || body.post?.status !== 'published') throw new Error(`publishNow to ${platforms.join(', ')} answered ${response.status} ${JSON.stringify(body).slice(0, 600)}`);
      return elapsed;
    };
    const images = () => Array.from({ length: 4 }, (_, i) => `${sandbox.mediaUrl}/media/bench-${post}-${i}.jpg?bytes=${IMAGE_BYTES}&width=2000&height=1500`);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

    const started = memoryOf(publisher);
    // Warm-up: every connector and code path loaded once before anything is measured.
    await publishNow(IMAGE_PLATFORMS, []);
    await publishNow(['youtube'], [`${sandbox.mediaUrl}/media/warm-up.mp4?seconds=5`]);

    // (b) first, on a publisher that has done nothing heavy yet: a tenth of the video as the baseline, then the video.
    const videoPeaks = [VIDEO_BYTES / 10, VIDEO_BYTES].map((bytes) => ({ bytes, before: 0, peak: 0, ms: 0 }));
    for (const video of videoPeaks) {
      video.before = memoryOf(publisher).rssMb;
      resetPeak(publisher);
      video.ms = await publishNow(['youtube'], [`${sandbox.mediaUrl}/media/bench-video-${video.bytes}.mp4?bytes=${video.bytes}&seconds=600&width=1920&height=1080`]);
      video.peak = memoryOf(publisher).peakMb;
    }
    const [smallVideo, video] = videoPeaks;

    // (a), after one round with images.
    await publishNow(IMAGE_PLATFORMS, images());
    const alone = new Map<Platform, number>();
    for (const platform of IMAGE_PLATFORMS) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) times.push(await publishNow([platform], images()));
      alone.set(platform, median(times));
    }
    const floor = Math.max(...alone.values());
    const slowest = IMAGE_PLATFORMS.find((platform) => alone.get(platform) === floor);

    const before = memoryOf(publisher);
    resetPeak(publisher);
    const together: number[] = [];
    for (let run = 0; run < RUNS; run++) together.push(await publishNow(IMAGE_PLATFORMS, images()));
    const imagesPeak = memoryOf(publisher).peakMb;

    const mb = (value: number) => `${value.toFixed(0)} MB`;
    const lines = [
      '',
      `(a) publishNow, four ${(IMAGE_BYTES / 1e6).toFixed(0)} MB images, to ${IMAGE_PLATFORMS.join(', ')} (median of ${RUNS})`,
      ...IMAGE_PLATFORMS.map((platform) => `    ${platform.padEnd(9)} alone      ${alone.get(platform)!.toFixed(0).padStart(6)} ms`),
      `    all four at once     ${median(together).toFixed(0).padStart(6)} ms   ${(median(together) / floor).toFixed(2)}x the slowest alone (${slowest})`,
      `    publisher RSS ${mb(before.rssMb)} before, peak ${mb(imagesPeak)} (+${mb(imagesPeak - before.rssMb)} for ${mb((4 * IMAGE_PLATFORMS.length * IMAGE_BYTES) / 1024 / 1024)} of uploads at once)`,
      `(b) publishNow, a video, to YouTube (publisher RSS ${mb(started.rssMb)} once started)`,
      ...videoPeaks.map((run) => `    ${mb(run.bytes / 1024 / 1024).padStart(6)}  ${(run.ms / 1000).toFixed(1).padStart(5)} s   RSS ${mb(run.before)} before, peak ${mb(run.peak)} (+${mb(run.peak - run.before)})`),
      `    growth for the ${mb(video.bytes / 1024 / 1024)} video / for the ${mb(smallVideo.bytes / 1024 / 1024)} one: ${((video.peak - video.before) / Math.max(1, smallVideo.peak - smallVideo.before)).toFixed(2)}x (streamed: it does not grow with the file)`,
      `    the ${mb(video.bytes / 1024 / 1024)} video's peak is ${mb(video.peak - video.before)} over the publisher's RSS before it: ${video.peak - video.before < VIDEO_RSS_LIMIT_MB ? 'under' : 'OVER'} ${VIDEO_RSS_LIMIT_MB} MB; the process itself peaks at ${mb(video.peak)}`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
    reportFigures('media', {
      imagesAloneMs: Object.fromEntries(alone),
      imagesTogetherMs: median(together),
      imagesTogetherOverSlowest: median(together) / floor,
      publisherRssMb: { started: started.rssMb, beforeImages: before.rssMb, imagesPeak },
      videos: videoPeaks.map((run) => ({ bytes: run.bytes, ms: run.ms, rssBeforeMb: run.before, rssPeakMb: run.peak })),
    });
    if (video.peak - video.before >= VIDEO_RSS_LIMIT_MB) throw new Error(`the publisher's RSS grew by ${mb(video.peak - video.before)} with a ${mb(video.bytes / 1024 / 1024)} video`);
  } finally {
    service?.stop();
    await db.drop();
    await sandbox.close();
  }
}

runScript(main);
