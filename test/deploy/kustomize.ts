import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import type { Manifest } from './manifest';

/** A command that renders a kustomization directory to YAML on stdout. */
export interface Kustomize {
  command: string;
  args: string[];
}

/**
 * The standalone `kustomize` if installed, else `kubectl kustomize` (kubectl embeds kustomize);
 * null when neither is on the PATH.
 */
export function findKustomize(): Kustomize | null {
  const candidates: Array<{ kustomize: Kustomize; probe: string[] }> = [
    { kustomize: { command: 'kustomize', args: ['build'] }, probe: ['version'] },
    { kustomize: { command: 'kubectl', args: ['kustomize'] }, probe: ['version', '--client'] },
  ];
  const found = candidates.find(({ kustomize, probe }) => spawnSync(kustomize.command, probe, { stdio: 'ignore' }).status === 0);
  return found?.kustomize ?? null;
}

export function renderKustomization(kustomize: Kustomize, dir: string): Manifest[] {
  const result = spawnSync(kustomize.command, [...kustomize.args, dir], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${kustomize.command} ${kustomize.args.join(' ')} ${dir} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

export function parseManifests(multiDocumentYaml: string): Manifest[] {
  return parseAllDocuments(multiDocumentYaml).map((document) => {
    if (document.errors.length) throw new Error(document.errors.map(String).join('\n'));
    return document.toJS() as Manifest;
  });
}
