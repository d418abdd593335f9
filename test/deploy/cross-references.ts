import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { containerEnvironment, keyedData } from './config-env';
import { appContainers, describeObject, ofKind, podTemplates, selects, type Manifest, type PodTemplate } from './manifest';

/**
 * Each check reads the rendered objects of one overlay and returns one line per broken reference
 * (an empty list when all hold), so a failing test names every culprit at once.
 */
export type Check = (objects: Manifest[]) => string[];

/** The documented health endpoints every app serves (issue 6; the apps' health module). */
export const HEALTH_PATHS = { livenessProbe: '/health/live', readinessProbe: '/health/ready' } as const;

function containersOf(template: PodTemplate): IContainer[] {
  return [...(template.spec.initContainers ?? []), ...template.spec.containers];
}

/** Every variable the app config reads reaches every app container (env or envFrom). */
export function missingEnvironment(requiredNames: string[]): Check {
  return (objects) =>
    podTemplates(objects).flatMap((template) =>
      appContainers(template).flatMap((container) => {
        const provided = containerEnvironment(container, objects);
        return requiredNames
          .filter((name) => !(name in provided))
          .map((name) => `${describeObject(template.owner)} container ${container.name}: ${name} is not provided`);
      }),
    );
}

/** Every envFrom source and every configMapKeyRef/secretKeyRef names an object (and key) that exists. */
export const brokenKeyReferences: Check = (objects) =>
  podTemplates(objects).flatMap((template) =>
    containersOf(template).flatMap((container) => {
      const where = `${describeObject(template.owner)} container ${container.name}`;
      const fromSources = (container.envFrom ?? []).flatMap((source) => {
        const [kind, reference] = source.configMapRef ? (['ConfigMap', source.configMapRef] as const) : (['Secret', source.secretRef] as const);
        if (!reference || reference.optional || keyedData(objects, kind, reference.name)) return [];
        return [`${where}: envFrom ${kind} ${reference.name} does not exist`];
      });
      const fromKeys = (container.env ?? []).flatMap((variable) => {
        const refs = [
          ['ConfigMap', variable.valueFrom?.configMapKeyRef],
          ['Secret', variable.valueFrom?.secretKeyRef],
        ] as const;
        return refs.flatMap(([kind, reference]) => {
          if (!reference || reference.optional) return [];
          const data = keyedData(objects, kind, reference.name);
          if (!data) return [`${where}: ${variable.name} refers to ${kind} ${reference.name}, which does not exist`];
          return reference.key in data ? [] : [`${where}: ${variable.name} refers to key ${reference.key}, missing from ${kind} ${reference.name}`];
        });
      });
      return [...fromSources, ...fromKeys];
    }),
  );

/** Every Service selects the pods of a Deployment or StatefulSet, and its target ports exist on them. */
export const unmatchedServices: Check = (objects) => {
  const servedTemplates = podTemplates(objects).filter((template) => template.owner.kind !== 'Job');
  return ofKind<IService>(objects, 'Service').flatMap((service) => {
    const spec = service.spec ?? {};
    if (spec.type === 'ExternalName') return [];
    const selected = servedTemplates.filter((template) => selects(spec.selector, template.labels));
    if (selected.length === 0) return [`${describeObject(service)}: selects no Deployment or StatefulSet pods`];
    return (spec.ports ?? []).flatMap((port) => {
      const target = port.targetPort ?? port.port;
      const missing = selected.filter((template) => !containersOf(template).some((container) => exposes(container, target)));
      return missing.map((template) => `${describeObject(service)}: port ${port.name ?? port.port} targets ${target}, not a container port of ${describeObject(template.owner)}`);
    });
  });
};

function exposes(container: IContainer, port: number | string): boolean {
  return (container.ports ?? []).some((candidate) => candidate.name === port || candidate.containerPort === port);
}

/**
 * App containers probe the documented health paths; every HTTP or TCP probe of any container
 * points at a port that container declares.
 */
export const wrongProbes: Check = (objects) =>
  podTemplates(objects).flatMap((template) =>
    containersOf(template).flatMap((container) => {
      const where = `${describeObject(template.owner)} container ${container.name}`;
      const isServingApp = appContainers(template).includes(container) && template.owner.kind !== 'Job';
      const pathProblems = isServingApp
        ? Object.entries(HEALTH_PATHS).flatMap(([probe, path]) => {
            const actual = (container[probe as keyof typeof HEALTH_PATHS] as IProbe | undefined)?.httpGet?.path;
            return actual === path ? [] : [`${where}: ${probe} must GET ${path}, has ${actual ?? 'none'}`];
          })
        : [];
      const portProblems = (['livenessProbe', 'readinessProbe', 'startupProbe'] as const).flatMap((probe) => {
        const port = container[probe]?.httpGet?.port ?? container[probe]?.tcpSocket?.port;
        return port === undefined || exposes(container, port) ? [] : [`${where}: ${probe} port ${port} is not a container port`];
      });
      return [...pathProblems, ...portProblems];
    }),
  );

/**
 * Autoscalers, disruption budgets, StatefulSets and Ingresses point at objects that exist: an HPA
 * at a Deployment that leaves replicas to it, a PDB at some workload's pods, a StatefulSet at a
 * headless governing Service, an Ingress at a Service port; a pod's topology spread constraints
 * count pods like itself.
 */
export const danglingWorkloadReferences: Check = (objects) => {
  const services = ofKind<IService>(objects, 'Service');
  const deployments = ofKind(objects, 'Deployment');
  const hpaProblems = ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').flatMap((hpa) => {
    const target = hpa.spec?.scaleTargetRef;
    const deployment = deployments.find((candidate) => target?.kind === 'Deployment' && candidate.metadata.name === target.name);
    if (!deployment) return [`${describeObject(hpa)}: scales ${target?.kind}/${target?.name}, which does not exist`];
    const replicas = (deployment.spec as { replicas?: number }).replicas;
    return replicas === undefined ? [] : [`${describeObject(deployment)}: sets replicas (${replicas}) although ${describeObject(hpa)} owns them`];
  });
  const pdbProblems = ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget').flatMap((pdb) =>
    podTemplates(objects).some((template) => selects(pdb.spec?.selector?.matchLabels, template.labels))
      ? []
      : [`${describeObject(pdb)}: selects no workload's pods`],
  );
  const statefulSetProblems = ofKind<IStatefulSet>(objects, 'StatefulSet').flatMap((statefulSet) => {
    const governing = services.find((service) => service.metadata.name === statefulSet.spec?.serviceName);
    return governing?.spec?.clusterIP === 'None' ? [] : [`${describeObject(statefulSet)}: serviceName ${statefulSet.spec?.serviceName} is not a headless Service`];
  });
  const ingressProblems = ofKind<IIngress>(objects, 'Ingress').flatMap((ingress) =>
    (ingress.spec?.rules ?? []).flatMap((rule) =>
      (rule.http?.paths ?? []).flatMap(({ backend }) => {
        const service = services.find((candidate) => candidate.metadata.name === backend.service?.name);
        const port = backend.service?.port;
        const hasPort = service?.spec?.ports?.some((candidate) => candidate.name === port?.name || candidate.port === port?.number);
        return hasPort ? [] : [`${describeObject(ingress)}: backend ${backend.service?.name}:${port?.name ?? port?.number} is not a Service port`];
      }),
    ),
  );
  const spreadProblems = podTemplates(objects).flatMap((template) =>
    (template.spec.topologySpreadConstraints ?? [])
      .filter((constraint) => !selects(constraint.labelSelector?.matchLabels, template.labels))
      .map((constraint) => `${describeObject(template.owner)}: the ${constraint.topologyKey} spread constraint does not select its own pods`),
  );
  return [...hpaProblems, ...pdbProblems, ...statefulSetProblems, ...ingressProblems, ...spreadProblems];
};

/**
 * Each app Deployment runs its own entry point (dist/apps/<name>/src/main.js); every pod of the
 * app image runs as non-root on a read-only root filesystem, with CPU and memory requests and limits.
 */
export const misconfiguredAppPods: Check = (objects) =>
  podTemplates(objects).flatMap((template) => {
    if (appContainers(template).length === 0) return [];
    const name = template.owner.metadata.name;
    const entryPoint = `dist/apps/${name}/src/main.js`;
    const entryProblems =
      template.owner.kind === 'Deployment'
        ? appContainers(template)
            .filter((container) => container.args?.[0] !== entryPoint)
            .map((container) => `${describeObject(template.owner)}: runs ${container.args?.[0] ?? 'the image default'}, not ${entryPoint}`)
        : [];
    const podSecurity = template.spec.securityContext;
    const securityProblems = appContainers(template).flatMap((container) => {
      const nonRoot = container.securityContext?.runAsNonRoot ?? podSecurity?.runAsNonRoot;
      const readOnly = container.securityContext?.readOnlyRootFilesystem;
      const where = `${describeObject(template.owner)} container ${container.name}`;
      const unsized = (['requests', 'limits'] as const).flatMap((bound) =>
        (['cpu', 'memory'] as const).filter((resource) => container.resources?.[bound]?.[resource] === undefined).map((resource) => `${bound}.${resource}`),
      );
      return [
        ...(nonRoot ? [] : [`${where}: runAsNonRoot is not set`]),
        ...(readOnly ? [] : [`${where}: root filesystem is writable`]),
        ...unsized.map((field) => `${where}: resources.${field} is not set`),
      ];
    });
    return [...entryProblems, ...securityProblems];
  });
