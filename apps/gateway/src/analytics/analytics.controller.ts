import { Controller, Get, Param, ParseUUIDPipe, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { AccountAnalyticsView, DomainError, PostMetricsView, TopPostsView } from '@app/contracts';
import { MetricsViewsReader } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { ApiPostId } from '../openapi/post-operations';
import { AccountAnalyticsSchema, PostMetricsSchema, TopPostsSchema } from '../openapi/schemas/analytics.schemas';
import { clampLimit } from '../posts/list-posts.query';
import { queryValidation } from '../validation/validation-pipes';
import { PostMetricsChartQuery, PostMetricsQuery, rangeOf, RangeQuery, TopPostsQuery } from './analytics.query';
import { followersChart, postMetricChart } from './analytics-charts';

const noPost = () => new DomainError('not_found', 'no such post in this workspace');
const noAccount = () => new DomainError('not_found', 'no such account in this workspace');
const postId = () => new ParseUUIDPipe({ exceptionFactory: noPost });
const accountId = () => new ParseUUIDPipe({ exceptionFactory: noAccount });

const SVG = 'image/svg+xml';
const ApiSvg = (description: string) => ApiOkResponse({ description, content: { [SVG]: { schema: { type: 'string' } } } });
const ApiAccountId = () => ApiParam({ name: 'id', format: 'uuid', description: 'the connected account id (GET /api/v1/accounts)' });

function sendSvg(reply: FastifyReply, svg: string): string {
  // The chart is data drawn by us, but a browser opening it directly gets no script and no outside fetch either way.
  reply.header('content-type', `${SVG}; charset=utf-8`).header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  return svg;
}

/** How posts did, from each platform's own numbers (README, "Analytics"); every operation scope read. */
@ApiTags('analytics')
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1')
export class AnalyticsController {
  constructor(private readonly metrics: MetricsViewsReader) {}

  @Get('posts/:id/metrics')
  @RequireScopes('read')
  @ApiOperation({ summary: "A post's numbers per account: the latest, when collected, and with history=1 every observation", description: 'Numbers a platform does not give are null, never 0.' })
  @ApiPostId()
  @ApiOkResponse({ type: PostMetricsSchema })
  @ApiErrors(...OPERATION_ERRORS.getPostMetrics)
  async postMetrics(@Principal() principal: KeyPrincipal, @Param('id', postId()) id: string, @Query(queryValidation) query: PostMetricsQuery): Promise<PostMetricsView> {
    const view = await this.metrics.postMetrics(principal.workspaceId, id, query.history === '1');
    if (!view) throw noPost();
    return view;
  }

  @Get('posts/:id/metrics.svg')
  @RequireScopes('read')
  @ApiOperation({ summary: "A post's curve for one metric, one line per account, as an SVG chart", description: 'Plain SVG with a title, axis labels and a description listing every point (for screen readers).' })
  @ApiPostId()
  @ApiProduces(SVG)
  @ApiSvg('the chart')
  @ApiErrors(...OPERATION_ERRORS.getPostMetricsChart)
  async postMetricsChart(
    @Principal() principal: KeyPrincipal,
    @Param('id', postId()) id: string,
    @Query(queryValidation) query: PostMetricsChartQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const view = await this.metrics.postMetrics(principal.workspaceId, id, true);
    if (!view) throw noPost();
    return sendSvg(reply, postMetricChart(view, query.metric ?? 'likes'));
  }

  @Get('analytics/posts')
  @RequireScopes('read')
  @ApiOperation({ summary: 'Top posts: published items ranked by one metric, highest first', description: 'One entry per account a post was published on; from/to bound when it was published.' })
  @ApiOkResponse({ type: TopPostsSchema })
  @ApiErrors(...OPERATION_ERRORS.topPosts)
  async topPosts(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: TopPostsQuery): Promise<TopPostsView> {
    const range = rangeOf(query);
    return this.metrics.topPosts(principal.workspaceId, { ...range, platform: query.platform, accountId: query.accountId, sort: query.sort ?? 'likes', limit: clampLimit(query.limit) });
  }

  @Get('analytics/accounts/:id')
  @RequireScopes('read')
  @ApiOperation({ summary: "An account's followers over time and the totals of its items published in the range" })
  @ApiAccountId()
  @ApiOkResponse({ type: AccountAnalyticsSchema })
  @ApiErrors(...OPERATION_ERRORS.accountAnalytics)
  async account(@Principal() principal: KeyPrincipal, @Param('id', accountId()) id: string, @Query(queryValidation) query: RangeQuery): Promise<AccountAnalyticsView> {
    const view = await this.metrics.accountAnalytics(principal.workspaceId, id, rangeOf(query));
    if (!view) throw noAccount();
    return view;
  }

  @Get('analytics/accounts/:id/followers.svg')
  @RequireScopes('read')
  @ApiOperation({ summary: "An account's follower curve as an SVG chart" })
  @ApiAccountId()
  @ApiProduces(SVG)
  @ApiSvg('the chart')
  @ApiErrors(...OPERATION_ERRORS.accountFollowersChart)
  async followersChart(
    @Principal() principal: KeyPrincipal,
    @Param('id', accountId()) id: string,
    @Query(queryValidation) query: RangeQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const view = await this.metrics.accountAnalytics(principal.workspaceId, id, rangeOf(query));
    if (!view) throw noAccount();
    return sendSvg(reply, followersChart(view));
  }
}
