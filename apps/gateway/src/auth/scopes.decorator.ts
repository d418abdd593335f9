import { SetMetadata } from '@nestjs/common';
import { Scope } from '@app/contracts';

export const REQUIRED_SCOPES = 'requiredScopes';
export const BODY_SCOPES = 'bodyScopes';

/** The scopes a route needs (spec, Authentication: scope per operation). */
export const RequireScopes = (...scopes: Scope[]) => SetMetadata(REQUIRED_SCOPES, scopes);

/** What a request body asks for that needs more scopes than its route (publishNow needs publish). */
export type BodyScopes = (body: unknown) => Scope[];

/**
 * Scopes a route needs on top of RequireScopes, read from its body, so the
 * guard checks them all at once and a refusal lists every missing scope.
 */
export const RequireScopesForBody = (scopesOf: BodyScopes) => SetMetadata(BODY_SCOPES, scopesOf);
