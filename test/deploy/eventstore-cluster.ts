import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { Check } from './cross-references';
import { containerEnvironment } from './config-env';
import { appContainers, describeObject, ofKind, podTemplates, selects } from './manifest';

/**
 * An EventStoreDB cluster as EventStoreDB's documentation sets one up
 * (https://developers.eventstore.com/server/v24.10/configuration/cluster.html): as many nodes as
 * the cluster size says (an odd number, 3 or more), discovering each other through the DNS name
 * of the StatefulSet's headless Service (published before the pods are ready), secure mode with
 * the certificate files on mounted volumes, data on persistent volumes, sized, ready on
 * /health/live, one node per machine, one node down at a time; and the apps pointed at it with
 * TLS, the CA file mounted where EVENTSTORE_URL says.
 */
export const eventStoreClusterProblems: Check = (objects) => {
  const statefulSet = ofKind<IStatefulSet>(objects, 'StatefulSet').find((candidate) => candidate.metadata.name === 'eventstore');
  if (!statefulSet) return ['StatefulSet/eventstore: missing'];
  const where = describeObject(statefulSet);
  const [template] = podTemplates([statefulSet]);
  const container = template.spec.containers.find((candidate) => candidate.name === 'eventstore');
  if (!container) return [`${where}: no container eventstore`];
  const env = containerEnvironment(container, objects);
  const replicas = statefulSet.spec?.replicas ?? 1;
  const service = ofKind<IService>(objects, 'Service').find((candidate) => candidate.metadata.name === statefulSet.spec?.serviceName);
  const mounts = container.volumeMounts ?? [];
  const mountedAt = (path: string) => mounts.find((mount) => path === mount.mountPath || path.startsWith(`${mount.mountPath}/`));
  const volume = (name: string) => template.spec.volumes?.find((candidate) => candidate.name === name);
  const claims = (statefulSet.spec?.volumeClaimTemplates ?? []).map((claim) => claim.metadata?.name);
  const antiAffinity = template.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  const budgets = ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget').filter((pdb) => selects(pdb.spec?.selector?.matchLabels, template.labels));

  const problems: string[] = [];
  const expect = (holds: boolean, problem: string) => holds || problems.push(`${where}: ${problem}`);
  expect(replicas >= 3 && replicas % 2 === 1, `replicas ${replicas}: a cluster needs an odd number, 3 or more`);
  expect(env.EVENTSTORE_CLUSTER_SIZE === String(replicas), `EVENTSTORE_CLUSTER_SIZE ${env.EVENTSTORE_CLUSTER_SIZE} is not replicas (${replicas})`);
  expect(env.EVENTSTORE_DISCOVER_VIA_DNS === 'true', 'EVENTSTORE_DISCOVER_VIA_DNS is not true');
  expect(
    env.EVENTSTORE_CLUSTER_DNS?.split('.')[0] === service?.metadata?.name && service?.spec?.clusterIP === 'None',
    `EVENTSTORE_CLUSTER_DNS ${env.EVENTSTORE_CLUSTER_DNS} is not the headless governing Service`,
  );
  expect(service?.spec?.publishNotReadyAddresses === true, 'the governing Service does not publish the nodes before they are ready (publishNotReadyAddresses)');
  expect(env.EVENTSTORE_INSECURE !== 'true', 'runs in insecure mode (no TLS)');
  for (const setting of ['EVENTSTORE_CERTIFICATE_FILE', 'EVENTSTORE_CERTIFICATE_PRIVATE_KEY_FILE', 'EVENTSTORE_TRUSTED_ROOT_CERTIFICATES_PATH']) {
    const mount = env[setting] ? mountedAt(env[setting]) : undefined;
    expect(Boolean(mount && volume(mount.name)?.secret), `${setting} ${env[setting] ?? '(unset)'} is not on a mounted Secret`);
  }
  const data = mountedAt('/var/lib/eventstore');
  expect(Boolean(data && claims.includes(data.name)), '/var/lib/eventstore is not on a persistent volume claim');
  expect(Boolean(container.resources?.requests?.cpu && container.resources?.requests?.memory), 'no CPU and memory requests');
  const readiness = container.readinessProbe?.httpGet;
  expect(readiness?.path === '/health/live' && readiness.scheme === 'HTTPS', `readinessProbe is not GET https /health/live (${readiness?.scheme ?? 'HTTP'} ${readiness?.path ?? 'none'})`);
  expect(
    antiAffinity.some((term) => term.topologyKey === 'kubernetes.io/hostname' && selects(term.labelSelector?.matchLabels, template.labels)),
    'no required anti-affinity keeping its nodes on different machines',
  );
  expect(budgets.some((pdb) => pdb.spec?.maxUnavailable === 1), 'no disruption budget of maxUnavailable 1');

  const apps = podTemplates(objects).filter((candidate) => candidate.owner.kind === 'Deployment');
  for (const app of apps) {
    for (const appContainer of appContainers(app)) {
      const appEnv = containerEnvironment(appContainer, objects);
      const appWhere = `${describeObject(app.owner)} container ${appContainer.name}`;
      if (appEnv.EVENT_STORE !== 'eventstoredb') problems.push(`${appWhere}: EVENT_STORE is ${appEnv.EVENT_STORE}, not eventstoredb`);
      const url = new URL(appEnv.EVENTSTORE_URL ?? 'invalid:');
      const caFile = url.searchParams.get('tlsCAFile');
      if (url.searchParams.get('tls') !== 'true') problems.push(`${appWhere}: EVENTSTORE_URL does not ask for TLS`);
      if (!url.hostname.startsWith(`${service?.metadata?.name}.`)) problems.push(`${appWhere}: EVENTSTORE_URL does not name the cluster's Service`);
      const caMount = caFile ? (appContainer.volumeMounts ?? []).find((mount) => caFile.startsWith(`${mount.mountPath}/`)) : undefined;
      if (!caMount) problems.push(`${appWhere}: the tlsCAFile ${caFile ?? '(unset)'} of EVENTSTORE_URL is not mounted`);
    }
  }
  return problems;
};
