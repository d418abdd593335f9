import { describeObject, type Manifest } from './manifest';

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/**
 * The kubernetes-models class for an object's apiVersion and kind (its generated JSON-schema
 * validator), loaded per kind: "apps/v1" + "Deployment" is kubernetes-models/apps/v1/Deployment.
 */
function modelFor(object: Manifest): ModelClass | null {
  try {
    // require, not import: the module's name is data, and kubernetes-models 4 ships CommonJS.
    const module = require(`kubernetes-models/${object.apiVersion}/${object.kind}`) as Record<string, ModelClass>;
    return module[object.kind] ?? null;
  } catch {
    return null;
  }
}

/** Every object checked against the Kubernetes OpenAPI schema of its kind; one line per problem. */
export function schemaProblems(objects: Manifest[]): string[] {
  return objects.flatMap((object) => {
    const Model = modelFor(object);
    if (!Model) return [`${describeObject(object)}: no Kubernetes schema for ${object.apiVersion} ${object.kind}`];
    try {
      new Model(object).validate();
      return [];
    } catch (error) {
      return [`${describeObject(object)}: ${(error as Error).message}`];
    }
  });
}
