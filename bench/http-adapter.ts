import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { Controller, Get, INestApplication, Module, Query, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { KeyPrincipal } from '@app/workspaces';
import { ApiKeyGuard } from '../apps/gateway/src/auth/api-key.guard';
import { KeyAuthenticator } from '../apps/gateway/src/auth/key-authenticator';
import { RequireScopes } from '../apps/gateway/src/auth/scopes.decorator';
import { clampLimit, ListPostsQuery } from '../apps/gateway/src/posts/list-posts.query';
import { queryValidation } from '../apps/gateway/src/validation/validation-pipes';
import { formatRow, measure, Measured } from './stats';
import { reportFigures } from './report';
import { runScript } from './run-script';

/**
 * npm run bench:http-adapter: the same Nest route on the Fastify and the
 * Express adapter, each server in a child process of its own and the load
 * (global fetch) from this one. The route is the gateway's typical read minus
 * the database: the real ApiKeyGuard (its key lookup answered from memory,
 * as the gateway's key cache does), the real query ValidationPipe over
 * ListPostsQuery, and a 20-item JSON array. Also reports the server's own CPU
 * time per request, which does not depend on how fast the load generator is.
 */
const REQUESTS = Number(process.env.BENCH_HTTP_REQUESTS ?? 20_000);
const WARM_UP = Number(process.env.BENCH_HTTP_WARM_UP ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const KEY = 'sp_bench-key';
const PRINCIPAL: KeyPrincipal = { keyId: '00000000-0000-4000-8000-000000000001', workspaceId: '00000000-0000-4000-8000-000000000002', scopes: ['read'] };

type AdapterName = 'fastify' | 'express';

/** A page of post list items shaped like the gateway's (spec, List posts). */
const POSTS = Array.from({ length: 50 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  content: `Post number ${i}: hello from the adapter bench`,
  accounts: [{ accountId: '00000000-0000-4000-8000-000000000003', platform: 'x', handle: '@bench' }],
  mediaUrls: [],
  status: 'draft',
  scheduledAt: null,
  publishedAt: null,
  createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
}));

@Controller('api/v1/posts')
@UseGuards(ApiKeyGuard)
class BenchPostsController {
  @Get()
  @RequireScopes('read')
  list(@Query(queryValidation) query: ListPostsQuery) {
    return POSTS.slice(0, clampLimit(query.limit));
  }
}

@Module({
  controllers: [BenchPostsController],
  providers: [{ provide: KeyAuthenticator, useValue: { authenticate: async (key: string) => (key === KEY ? PRINCIPAL : null) } }],
})
class BenchModule {}

async function createApp(adapter: AdapterName): Promise<INestApplication> {
  const httpAdapter = adapter === 'fastify' ? new FastifyAdapter() : new ExpressAdapter();
  return NestFactory.create(BenchModule, httpAdapter, { logger: ['error'] });
}

/** Child process: serves one adapter; over IPC it sends its URL, then answers CPU-usage questions. */
async function serve(adapter: AdapterName): Promise<void> {
  const app = await createApp(adapter);
  await app.listen(0, '127.0.0.1');
  process.on('message', () => process.send!(process.cpuUsage()));
  process.send!({ url: await app.getUrl() });
}

function ask<T>(child: ChildProcess, question: string): Promise<T> {
  child.send(question);
  return once(child, 'message').then(([answer]) => answer as T);
}

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

interface AdapterResult {
  measured: Measured;
  /** Server CPU time (user + system) per measured request, µs. */
  serverCpuPerRequest: number;
}

async function benchAdapter(adapter: AdapterName): Promise<AdapterResult> {
  const child = fork(__filename, ['serve', adapter], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const [{ url }] = (await once(child, 'message')) as [{ url: string }];
    const target = `${url}/api/v1/posts?status=draft&limit=20`;
    const get = async () => {
      const response = await fetch(target, { headers: { authorization: `Bearer ${KEY}` } });
      const posts = (await response.json()) as unknown[];
      if (response.status !== 200 || posts.length !== 20) throw new Error(`${adapter}: unexpected answer ${response.status}`);
    };
    // Warm-up (JIT, connections), not measured.
    await measure('warm-up', WARM_UP, CONCURRENCY, get);
    const before = await ask<NodeJS.CpuUsage>(child, 'cpu');
    const measured = await measure(`${adapter}: GET /api/v1/posts (c=${CONCURRENCY})`, REQUESTS, CONCURRENCY, get);
    const after = await ask<NodeJS.CpuUsage>(child, 'cpu');
    return { measured, serverCpuPerRequest: (cpuMicros(after) - cpuMicros(before)) / REQUESTS };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The middle round by requests/s, and the median server CPU per request. */
function median(rounds: AdapterResult[]): AdapterResult {
  const middle = <T>(values: T[], by: (v: T) => number) => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)];
  return { measured: middle(rounds, (r) => r.measured.perSecond).measured, serverCpuPerRequest: middle(rounds, (r) => r.serverCpuPerRequest).serverCpuPerRequest };
}

async function main(): Promise<void> {
  // Rounds alternate the adapters, one server at a time, so neither gets a
  // quieter machine; the median round is reported.
  const rounds: Record<AdapterName, AdapterResult[]> = { fastify: [], express: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const adapter of ['fastify', 'express'] as const) rounds[adapter].push(await benchAdapter(adapter));
  }
  const fastify = median(rounds.fastify);
  const express = median(rounds.express);
  process.stdout.write(`median of ${ROUNDS} alternating rounds, ${REQUESTS} requests each:\n`);
  for (const { measured, serverCpuPerRequest } of [fastify, express]) {
    process.stdout.write(`${formatRow(measured)}   server CPU ${serverCpuPerRequest.toFixed(0).padStart(4)} µs/req\n`);
  }
  process.stdout.write(
    `fastify / express: ${(fastify.measured.perSecond / express.measured.perSecond).toFixed(2)}x requests/s, ` +
      `p50 ${(fastify.measured.p50 / express.measured.p50).toFixed(2)}x, p99 ${(fastify.measured.p99 / express.measured.p99).toFixed(2)}x, ` +
      `server CPU per request ${(fastify.serverCpuPerRequest / express.serverCpuPerRequest).toFixed(2)}x\n`,
  );
  const figures = ({ measured, serverCpuPerRequest }: AdapterResult) => ({ perSecond: measured.perSecond, p50Ms: measured.p50, p99Ms: measured.p99, serverCpuMicrosPerRequest: serverCpuPerRequest });
  reportFigures('http-adapter', { rounds: ROUNDS, requests: REQUESTS, fastify: figures(fastify), express: figures(express) });
}

const [role, adapter] = process.argv.slice(2);
runScript(() => (role === 'serve' ? serve(adapter as AdapterName) : main()));
