import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { DomainError } from '@app/contracts';
import { KeyPrincipal, WorkspaceSettings, WorkspaceStore } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { bodyValidation } from '../validation/validation-pipes';

export class UpdateWorkspaceDto {
  @ApiPropertyOptional({ type: Boolean, description: 'hold every post written by a key without the approve scope for review (README, Approvals)' })
  @IsOptional() @IsBoolean() approvalRequired?: boolean;
}

export class WorkspaceSettingsSchema {
  @ApiProperty({ type: String }) id!: string;
  @ApiProperty({ type: String }) name!: string;
  @ApiProperty({ type: Boolean, description: 'posts written by a key without the approve scope are held for review' }) approvalRequired!: boolean;
}

type WorkspaceView = { id: string; name: string } & WorkspaceSettings;

/** The key's workspace and its settings: read with the read scope, changed with the approve scope (a reviewer's decision). */
@ApiTags('workspace')
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1/workspace')
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspaceStore) {}

  @Get()
  @RequireScopes('read')
  @ApiOperation({ summary: "The key's workspace and its settings (approvalRequired)" })
  @ApiOkResponse({ type: WorkspaceSettingsSchema })
  @ApiErrors(...OPERATION_ERRORS.getWorkspace)
  async get(@Principal() principal: KeyPrincipal): Promise<WorkspaceView> {
    return this.view(principal.workspaceId, await this.workspaces.settings(principal.workspaceId));
  }

  @Patch()
  @RequireScopes('approve')
  @ApiOperation({ summary: "Change the workspace's settings", description: 'Needs the approve scope. approvalRequired applies to the posts written after it (a post already created is not held).' })
  @ApiOkResponse({ type: WorkspaceSettingsSchema })
  @ApiErrors(...OPERATION_ERRORS.updateWorkspace)
  async update(@Principal() principal: KeyPrincipal, @Body(bodyValidation) dto: UpdateWorkspaceDto): Promise<WorkspaceView> {
    if (dto.approvalRequired === undefined) throw new DomainError('invalid_workspace_settings', 'name a setting to change: approvalRequired');
    return this.view(principal.workspaceId, await this.workspaces.updateSettings(principal.workspaceId, { approvalRequired: dto.approvalRequired }));
  }

  private async view(workspaceId: string, settings: WorkspaceSettings | null): Promise<WorkspaceView> {
    const workspace = await this.workspaces.getWorkspace(workspaceId);
    // The key was found active a moment ago; its workspace is not deleted while keys refer to it (foreign key).
    if (!workspace || !settings) throw new Error(`workspace ${workspaceId} not found`);
    return { id: workspace.id, name: workspace.name, ...settings };
  }
}
