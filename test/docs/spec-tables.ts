import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The contract, beside the repository (CI checks out shared/ next to it). */
export function readSpec(repoRoot: string): string {
  const file = join(repoRoot, '..', 'shared', 'spec', 'social-publishing-api.md');
  if (!existsSync(file)) throw new Error(`the API spec is missing: expected ${file} (shared/ beside the repository)`);
  return readFileSync(file, 'utf8');
}

/** The text under a heading (up to the next heading of the same or a higher level). */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.replace(/^#+\s*/, '') === heading && line.startsWith('#'));
  if (start < 0) throw new Error(`the spec has no heading "${heading}"`);
  const level = /^#+/.exec(lines[start])![0].length;
  const end = lines.findIndex((line, i) => i > start && /^#+\s/.test(line) && /^#+/.exec(line)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

export interface TableRow {
  [column: string]: string;
}

/** The first table after `after` (or the first table) in a block of markdown, as rows keyed by header. */
export function table(block: string, after = ''): TableRow[] {
  const from = after ? block.indexOf(after) : 0;
  if (from < 0) throw new Error(`no "${after}" in the section`);
  const lines = block.slice(from).split('\n');
  const first = lines.findIndex((line) => line.trim().startsWith('|'));
  const rows = [];
  for (let i = first; i < lines.length && lines[i].trim().startsWith('|'); i++) rows.push(lines[i]);
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
  const [header, , ...body] = rows.map(cells);
  return body.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

/** `name (type)` mentions in prose: "fields: id (string), status (string)" → id, status. */
export function namedInProse(text: string): string[] {
  return [...text.matchAll(/\b([a-zA-Z]+) \(/g)].map((match) => match[1]);
}

/** `### GET /api/v1/posts` headings: the endpoints the spec defines. */
export function endpoints(markdown: string): Array<{ method: string; path: string }> {
  return [...markdown.matchAll(/^### (GET|POST|PUT|PATCH|DELETE) (\/\S+)$/gm)].map((match) => ({ method: match[1].toLowerCase(), path: match[2] }));
}
