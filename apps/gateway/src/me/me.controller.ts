import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { MeView, RateLimitStandingView } from '@app/contracts';
import { RateLimiter } from '@app/rate-limits';
import { KeyPrincipal, WorkspaceStore } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { MeSchema } from '../openapi/schemas/me.schemas';
import { NotCounted } from '../rate-limit/not-counted.decorator';
import { windowSecondsOf } from '../rate-limit/rate-limit-headers';
import { GATEWAY_RATE_LIMITS, GatewayRateLimits } from '../rate-limit/rate-limit-policies';

/** Who the calling key is: any valid key may ask, whatever its scopes. */
@ApiTags('me')
@Controller('api/v1/me')
export class MeController {
  constructor(
    private readonly workspaces: WorkspaceStore,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
    @Inject(GATEWAY_RATE_LIMITS) private readonly limits: GatewayRateLimits,
  ) {}

  @Get()
  @NotCounted()
  @ApiOperation({
    summary: "The key's workspace, its scopes and where it stands under each rate limit",
    description: 'Not counted by the rate limits (and answered while the key is refused with 429), so it carries no RateLimit headers: the body says where the key stands.',
  })
  @ApiOkResponse({ type: MeSchema })
  @ApiErrors(...OPERATION_ERRORS.me)
  async me(@Principal() principal: KeyPrincipal): Promise<MeView> {
    const [workspace, standing] = await Promise.all([
      this.workspaces.getWorkspace(principal.workspaceId),
      this.limiter.standing(principal.keyId, [this.limits.general, this.limits.replies], this.config.now()),
    ]);
    // The key was found active a moment ago; its workspace is not deleted while keys refer to it (foreign key).
    if (!workspace) throw new Error(`workspace ${principal.workspaceId} of key ${principal.keyId} not found`);
    const rateLimits: Record<string, RateLimitStandingView> = {};
    for (const { policy, remaining, resetSeconds } of standing) {
      rateLimits[policy.name] = { limit: policy.limit, windowSeconds: windowSecondsOf({ policy }), remaining, resetSeconds };
    }
    return { workspace: { id: workspace.id, name: workspace.name }, key: { id: principal.keyId, scopes: principal.scopes }, rateLimits };
  }
}
