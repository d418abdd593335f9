import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';

/** One rendered Kubernetes object, as parsed from YAML. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  /** Every rendered object has a name (kustomize refuses one without). */
  metadata: NonNullable<IDeployment['metadata']> & { name: string };
  [field: string]: unknown;
}

/** A pod template with the object that owns it (Deployment, StatefulSet or Job). */
export interface PodTemplate {
  owner: Manifest;
  labels: Record<string, string>;
  spec: IPodSpec;
}

/** The image every app and the migration Job run, whatever registry and tag an overlay gives it. */
export const APP_IMAGE = /(^|\/)social-publishing([:@]|$)/;

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'Job'];

export function ofKind<T = Manifest>(objects: Manifest[], kind: string): Array<Manifest & T> {
  return objects.filter((object) => object.kind === kind) as Array<Manifest & T>;
}

export function describeObject(object: Manifest): string {
  return `${object.kind}/${object.metadata.name}`;
}

export function podTemplates(objects: Manifest[]): PodTemplate[] {
  return objects
    .filter((object) => WORKLOAD_KINDS.includes(object.kind))
    .map((owner) => {
      const template = (owner.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: IPodSpec } }).template;
      return { owner, labels: template.metadata?.labels ?? {}, spec: template.spec };
    });
}

export function appContainers(template: PodTemplate): IContainer[] {
  return template.spec.containers.filter((container) => APP_IMAGE.test(container.image ?? ''));
}

/** True when every label the selector asks for is on the pod. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}
