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

/**
 * A Secret's data as the API server reads it: kustomize wraps a long base64 value over several
 * lines, which the schema's "byte" format refuses but Go's base64 decoder (encoding/base64, which
 * the API server uses) skips.
 */
function unwrapped(object: Manifest): Manifest {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(Object.entries(object.data as Record<string, string>).map(([key, value]) => [key, value.replace(/[\r\n]/g, '')]));
  return { ...object, data };
}

/** Every object checked against the Kubernetes OpenAPI schema of its kind; one line per problem. */
export function schemaProblems(objects: Manifest[]): string[] {
  return objects.flatMap((object) => {
    const Model = modelFor(object);
    if (!Model) return [`${describeObject(object)}: no Kubernetes schema for ${object.apiVersion} ${object.kind}`];
    try {
      new Model(unwrapped(object)).validate();
      return [];
    } catch (error) {
      return [`${describeObject(object)}: ${(error as Error).message}`];
    }
  });
}
