import { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { OpenAPIObject } from '@nestjs/swagger';
import { Scope } from '@app/contracts';
import { IS_PUBLIC } from '@app/observability';
import { REQUIRED_SCOPES } from '../auth/scopes.decorator';

export const BEARER_SCHEME = 'bearer';

/** What the guard asks of an operation, read from the same metadata it reads. */
export interface OperationAccess {
  public: boolean;
  scopes: Scope[];
}

/** Default swagger operation ids are `<Controller>_<method>`: the access of each, from the app's controllers. */
export function accessByOperationId(app: INestApplication): Map<string, OperationAccess> {
  const access = new Map<string, OperationAccess>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        if (method === 'constructor') continue;
        const handler = controller.prototype[method] as object;
        const isPublic = Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, controller) ?? false;
        const scopes: Scope[] = Reflect.getMetadata(REQUIRED_SCOPES, handler) ?? Reflect.getMetadata(REQUIRED_SCOPES, controller) ?? [];
        access.set(`${controller.name}_${method}`, { public: isPublic === true, scopes });
      }
    }
  }
  return access;
}

/**
 * Puts on every operation the key it needs: none for a public one; the bearer
 * scheme and the scopes otherwise. OpenAPI 3.0 lists scopes only for OAuth2, so
 * the scopes go in `x-required-scopes` and at the head of the description.
 */
export function withSecurity(document: OpenAPIObject, access: Map<string, OperationAccess>): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem)) {
      if (!operation || typeof operation !== 'object' || !('operationId' in operation)) continue;
      const rule = access.get(operation.operationId as string);
      if (!rule) throw new Error(`no access rule for operation ${operation.operationId}: is it a controller method?`);
      if (rule.public) {
        operation.security = [];
        continue;
      }
      operation.security = [{ [BEARER_SCHEME]: [] }];
      operation['x-required-scopes'] = rule.scopes;
      const needs = `**Scope:** ${rule.scopes.join(' + ') || 'any valid key'}.`;
      operation.description = operation.description ? `${needs}\n\n${operation.description}` : needs;
    }
  }
  return document;
}
