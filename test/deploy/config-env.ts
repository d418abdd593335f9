import type { IContainer } from 'kubernetes-models/v1/Container';
import { ofKind, type Manifest } from './manifest';

/**
 * The environment variable names a config source reads: `env.NAME`, `env['NAME']`, and a quoted
 * NAME passed as a call's first argument (a helper such as `int('PORT', 3000)`).
 */
export function envNamesReadBy(source: string): string[] {
  const patterns = [/\benv\.([A-Z][A-Z0-9_]*)\b/g, /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g, /\(\s*['"]([A-Z][A-Z0-9_]*)['"]\s*[,)]/g];
  const names = patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
  return [...new Set(names)].sort();
}

type KeyedData = Manifest & { data?: Record<string, string>; stringData?: Record<string, string> };

/** The keys (and decoded values) of a ConfigMap or Secret, or null when there is none by that name. */
export function keyedData(objects: Manifest[], kind: 'ConfigMap' | 'Secret', name: string | undefined): Record<string, string> | null {
  const object = ofKind<KeyedData>(objects, kind).find((candidate) => candidate.metadata.name === name);
  if (!object) return null;
  const decode = (value: string) => (kind === 'Secret' ? Buffer.from(value, 'base64').toString('utf8') : value);
  const data = Object.fromEntries(Object.entries(object.data ?? {}).map(([key, value]) => [key, decode(value)]));
  return { ...data, ...(object.stringData ?? {}) };
}

/**
 * The environment a container starts with: envFrom ConfigMaps and Secrets (with their prefix),
 * then env entries (which win), literal or from a ConfigMap/Secret key. A reference that resolves
 * to nothing adds nothing; keyRefProblems reports it.
 */
export function containerEnvironment(container: IContainer, objects: Manifest[]): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const data = source.configMapRef
      ? keyedData(objects, 'ConfigMap', source.configMapRef.name)
      : keyedData(objects, 'Secret', source.secretRef?.name);
    for (const [key, value] of Object.entries(data ?? {})) environment[`${source.prefix ?? ''}${key}`] = value;
  }
  for (const variable of container.env ?? []) {
    const configMapKey = variable.valueFrom?.configMapKeyRef;
    const secretKey = variable.valueFrom?.secretKeyRef;
    const value =
      variable.value ??
      (configMapKey && keyedData(objects, 'ConfigMap', configMapKey.name)?.[configMapKey.key]) ??
      (secretKey && keyedData(objects, 'Secret', secretKey.name)?.[secretKey.key]) ??
      // Set from the pod itself (fieldRef, resourceFieldRef): present, value known only at run time.
      (variable.valueFrom?.fieldRef || variable.valueFrom?.resourceFieldRef ? '' : undefined);
    if (value !== undefined) environment[variable.name] = value;
  }
  return environment;
}
