import { SetMetadata } from '@nestjs/common';
import { Scope } from '@app/contracts';

export const REQUIRED_SCOPES = 'requiredScopes';

/** The scopes a route needs (spec, Authentication: scope per operation). */
export const RequireScopes = (...scopes: Scope[]) => SetMetadata(REQUIRED_SCOPES, scopes);
