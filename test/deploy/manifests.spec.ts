import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { AppConfig } from '@app/config';
import { containerEnvironment, envNamesReadBy } from './config-env';
import {
  brokenKeyReferences,
  danglingWorkloadReferences,
  misconfiguredAppPods,
  missingEnvironment,
  unmatchedServices,
  wrongProbes,
} from './cross-references';
import { eventStoreClusterProblems } from './eventstore-cluster';
import { findKustomize, renderKustomization } from './kustomize';
import { appContainers, ofKind, podTemplates, selects, type Manifest } from './manifest';
import { schemaProblems } from './schema-validation';

const REPO = resolve(__dirname, '../..');
const K8S = join(REPO, 'deploy/k8s');
const OVERLAYS = readdirSync(join(K8S, 'overlays')).filter((name) => existsSync(join(K8S, 'overlays', name, 'kustomization.yaml')));
/** Read from the config source itself, so a variable added there must reach the manifests too. */
const CONFIG_ENV = envNamesReadBy(readFileSync(join(REPO, 'libs/config/src/app-config.ts'), 'utf8'));
/** The one app that is not autoscaled: a single active relay (advisory lock), a standby at most. */
const SINGLE_ACTIVE_APPS = ['projector'];

const kustomize = findKustomize();
if (!kustomize) {
  console.warn('test/deploy/manifests.spec.ts SKIPPED: neither `kustomize` nor `kubectl` is on the PATH (see deploy/README.md, "Manifest test").');
}
const describeRendered = kustomize ? describe : describe.skip;

describe('environment variables read by the app config', () => {
  it('are found in env.NAME, env[NAME] and helper(NAME) reads, and nowhere else', () => {
    const source = `x = env.DATABASE_URL || y; env['NATS_URL']; int('PORT', 3000); errors.push('EVENT_STORE must be set'); env.port;`;
    expect(envNamesReadBy(source)).toEqual(['DATABASE_URL', 'NATS_URL', 'PORT']);
  });

  it('include the ones the apps are known to need', () => {
    expect(CONFIG_ENV).toEqual(expect.arrayContaining(['DATABASE_URL', 'NATS_URL', 'EVENT_STORE', 'EVENTSTORE_URL', 'PORT', 'TOKEN_ENCRYPTION_KEY']));
  });
});

describeRendered.each(['base', ...OVERLAYS.map((name) => `overlays/${name}`)])('kustomization %s', (path) => {
  let objects: Manifest[];
  beforeAll(() => {
    objects = renderKustomization(kustomize!, join(K8S, path));
  });

  it('renders only objects valid against the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(0);
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('gives every app container every variable the app config reads', () => {
    expect(missingEnvironment(CONFIG_ENV)(objects)).toEqual([]);
  });

  it('starts every app container with a configuration AppConfig accepts', () => {
    const containers = podTemplates(objects).flatMap((template) => appContainers(template));
    expect(containers.length).toBeGreaterThan(0);
    for (const container of containers) expect(() => AppConfig.fromEnv(containerEnvironment(container, objects))).not.toThrow();
  });

  it('refers only to ConfigMaps, Secrets and keys that exist', () => {
    expect(brokenKeyReferences(objects)).toEqual([]);
  });

  it('has every Service select the pods of a Deployment or StatefulSet, on ports they expose', () => {
    expect(unmatchedServices(objects)).toEqual([]);
  });

  it('probes the documented health paths on declared container ports', () => {
    expect(wrongProbes(objects)).toEqual([]);
  });

  it('points autoscalers, disruption budgets, StatefulSets, Ingresses and spread constraints at objects that exist', () => {
    expect(danglingWorkloadReferences(objects)).toEqual([]);
  });

  it('runs each app from its entry point, as non-root, read-only and sized', () => {
    expect(misconfiguredAppPods(objects)).toEqual([]);
  });

  it('has a Deployment for every Nest application, each with a disruption budget and, unless single-active, an autoscaler', () => {
    const nestApps = Object.entries((JSON.parse(readFileSync(join(REPO, 'nest-cli.json'), 'utf8')) as { projects: Record<string, { type: string }> }).projects)
      .filter(([, project]) => project.type === 'application')
      .map(([name]) => name);
    const deployments = podTemplates(objects).filter((template) => template.owner.kind === 'Deployment');
    const deploymentNames = deployments.map((template) => template.owner.metadata.name);
    expect(deploymentNames).toEqual(expect.arrayContaining(nestApps));

    const budgeted = deployments.filter((template) =>
      ofKind<{ spec: { selector: { matchLabels: Record<string, string> } } }>(objects, 'PodDisruptionBudget').some((pdb) => selects(pdb.spec.selector.matchLabels, template.labels)),
    );
    expect(budgeted.map((template) => template.owner.metadata.name)).toEqual(deploymentNames);

    const autoscaled = ofKind<{ spec: { scaleTargetRef: { name: string } } }>(objects, 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef.name);
    expect(autoscaled.sort()).toEqual(deploymentNames.filter((name) => !SINGLE_ACTIVE_APPS.includes(name)).sort());
  });
});

/** Each check, shown a deliberately broken copy of the base, names the break. */
describeRendered('the manifest checks', () => {
  let base: Manifest[];
  beforeAll(() => {
    base = renderKustomization(kustomize!, join(K8S, 'base'));
  });

  function broken(edit: (objects: Manifest[]) => void): Manifest[] {
    const copy = structuredClone(base);
    edit(copy);
    return copy;
  }
  const find = (objects: Manifest[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name)!;
  const appContainer = (objects: Manifest[], name: string) => podTemplates([find(objects, 'Deployment', name)])[0].spec.containers[0];

  it('reject a field of the wrong type', () => {
    const objects = broken((copy) => ((find(copy, 'Deployment', 'projector').spec as { replicas: unknown }).replicas = 'two'));
    expect(schemaProblems(objects)).toEqual([expect.stringMatching(/^Deployment\/projector: .*replicas must be integer/)]);
  });

  it('report a config variable missing from the ConfigMap', () => {
    const objects = broken((copy) => delete (ofKind<{ data: Record<string, string> }>(copy, 'ConfigMap')[0].data.NATS_URL));
    expect(missingEnvironment(CONFIG_ENV)(objects)).toContain('Deployment/gateway container app: NATS_URL is not provided');
  });

  it('report a secretKeyRef to a key that does not exist', () => {
    const objects = broken((copy) => {
      const postgres = podTemplates([find(copy, 'StatefulSet', 'postgres')])[0].spec.containers[0];
      postgres.env!.find((variable) => variable.name === 'POSTGRES_PASSWORD')!.valueFrom!.secretKeyRef!.key = 'PG_PASSWORD';
    });
    expect(brokenKeyReferences(objects)).toEqual([expect.stringContaining('POSTGRES_PASSWORD refers to key PG_PASSWORD, missing from Secret')]);
  });

  it('report a Service whose selector matches no pods', () => {
    const objects = broken((copy) => ((find(copy, 'Service', 'posts').spec as { selector: Record<string, string> }).selector = { 'app.kubernetes.io/name': 'post' }));
    expect(unmatchedServices(objects)).toEqual(['Service/posts: selects no Deployment or StatefulSet pods']);
  });

  it('report a probe on an undocumented path or an undeclared port', () => {
    const objects = broken((copy) => {
      appContainer(copy, 'gateway').readinessProbe!.httpGet!.path = '/healthz';
      appContainer(copy, 'posts').livenessProbe!.httpGet!.port = 8080;
    });
    expect(wrongProbes(objects)).toEqual([
      'Deployment/gateway container app: readinessProbe must GET /health/ready, has /healthz',
      'Deployment/posts container app: livenessProbe port 8080 is not a container port',
    ]);
  });

  it('report an autoscaler aimed at a missing Deployment, and replicas it would fight', () => {
    const objects = broken((copy) => {
      (find(copy, 'HorizontalPodAutoscaler', 'posts').spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'post';
      (find(copy, 'Deployment', 'gateway').spec as { replicas: number }).replicas = 3;
    });
    expect(danglingWorkloadReferences(objects)).toEqual([
      'Deployment/gateway: sets replicas (3) although HorizontalPodAutoscaler/gateway owns them',
      'HorizontalPodAutoscaler/posts: scales Deployment/post, which does not exist',
    ]);
  });

  it('report an app running another app, as root, or unsized', () => {
    const objects = broken((copy) => {
      appContainer(copy, 'comments').args = ['dist/apps/gateway/src/main.js'];
      delete appContainer(copy, 'publisher').securityContext!.readOnlyRootFilesystem;
      delete appContainer(copy, 'publisher').resources!.limits!.memory;
    });
    expect(misconfiguredAppPods(objects)).toEqual([
      'Deployment/comments: runs dist/apps/gateway/src/main.js, not dist/apps/comments/src/main.js',
      'Deployment/publisher container app: root filesystem is writable',
      'Deployment/publisher container app: resources.limits.memory is not set',
    ]);
  });
});

describeRendered('the production EventStoreDB cluster', () => {
  let production: Manifest[];
  beforeAll(() => {
    production = renderKustomization(kustomize!, join(K8S, 'overlays/production'));
  });
  const statefulSet = (objects: Manifest[]) => objects.find((object) => object.kind === 'StatefulSet' && object.metadata.name === 'eventstore')!;
  const node = (objects: Manifest[]) => podTemplates([statefulSet(objects)])[0].spec.containers[0];
  const setting = (objects: Manifest[], name: string) => node(objects).env!.find((variable) => variable.name === name)!;

  it('runs three TLS nodes found through DNS, on persistent volumes, ready on /health/live, one per machine, and the apps use it', () => {
    expect(eventStoreClusterProblems(production)).toEqual([]);
    expect((statefulSet(production).spec as { replicas: number }).replicas).toBe(3);
  });

  it('is not what the base runs (a single insecure node), and the check says why', () => {
    const problems = eventStoreClusterProblems(renderKustomization(kustomize!, join(K8S, 'base')));
    expect(problems).toEqual(
      expect.arrayContaining([
        'StatefulSet/eventstore: replicas 1: a cluster needs an odd number, 3 or more',
        'StatefulSet/eventstore: runs in insecure mode (no TLS)',
        expect.stringMatching(/^Deployment\/posts container app: EVENTSTORE_URL does not ask for TLS/),
      ]),
    );
  });

  it('reports a cluster size that is not the replica count, a certificate not on a Secret, and a CA file the apps do not have', () => {
    const broken = structuredClone(production);
    setting(broken, 'EVENTSTORE_CLUSTER_SIZE').value = '5';
    setting(broken, 'EVENTSTORE_CERTIFICATE_FILE').value = '/etc/ssl/node.crt';
    const posts = podTemplates([broken.find((object) => object.kind === 'Deployment' && object.metadata.name === 'posts')!])[0].spec.containers[0];
    posts.volumeMounts = posts.volumeMounts!.filter((mount) => mount.name !== 'eventstore-ca');
    expect(eventStoreClusterProblems(broken)).toEqual([
      'StatefulSet/eventstore: EVENTSTORE_CLUSTER_SIZE 5 is not replicas (3)',
      'StatefulSet/eventstore: EVENTSTORE_CERTIFICATE_FILE /etc/ssl/node.crt is not on a mounted Secret',
      'Deployment/posts container app: the tlsCAFile /etc/social/eventstore-ca/ca.crt of EVENTSTORE_URL is not mounted',
    ]);
  });
});

describe('deploy/compose.yaml', () => {
  type ComposeService = { image?: string; command?: string[]; environment?: Record<string, string> };
  const compose = parse(readFileSync(join(REPO, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const appServices = Object.entries(compose.services).filter(([, service]) => service.image === 'social-publishing:local');

  it('runs each app from its own entry point, and the migration', () => {
    const commands = Object.fromEntries(appServices.map(([name, service]) => [name, service.command?.[0]]));
    for (const [name, command] of Object.entries(commands)) {
      expect(command).toBe(name === 'migrate' ? 'dist/tools/migrate.js' : `dist/apps/${name}/src/main.js`);
    }
    expect(Object.keys(commands)).toEqual(expect.arrayContaining(['migrate', 'gateway']));
  });

  it('gives every app every variable the app config reads, on EventStoreDB', () => {
    for (const [name, service] of appServices) {
      expect({ name, missing: CONFIG_ENV.filter((variable) => !(variable in (service.environment ?? {}))) }).toEqual({ name, missing: [] });
      expect(service.environment?.EVENT_STORE).toBe('eventstoredb');
    }
  });
});
