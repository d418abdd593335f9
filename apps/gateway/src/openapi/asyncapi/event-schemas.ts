import { join } from 'node:path';
import { createGenerator, Definition } from 'ts-json-schema-generator';

/** A JSON schema as the generator writes it, with $refs rewritten to `#/components/schemas/<name>`. */
export type JsonSchema = Definition;

export interface GeneratedEventSchemas {
  /** Every named type the events use (data payloads, TargetAccount, …) and the envelope (ENVELOPE_SCHEMA), by name. */
  definitions: Record<string, JsonSchema>;
  /** For each union root: its event types, each with the name of its data schema. */
  unions: Record<string, Array<{ type: string; dataSchema: string }>>;
}

const ENVELOPE_ROOT = 'AnyEventEnvelope';
export const ENVELOPE_SCHEMA = 'EventEnvelope';

const DEFINITIONS_REF = '#/definitions/';
const COMPONENTS_REF = '#/components/schemas/';

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace(DEFINITIONS_REF, COMPONENTS_REF) : rewriteRefs(inner)]),
  );
}

/** The name a `#/definitions/<name>` reference points at. */
function refName(ref: unknown): string {
  if (typeof ref !== 'string' || !ref.startsWith(DEFINITIONS_REF)) throw new Error(`expected a reference to a named type, got ${String(ref)}`);
  return decodeURIComponent(ref.slice(DEFINITIONS_REF.length));
}

/** `{ type: 'X'; data: XData }` members of a discriminated union → X and XData. */
function membersOf(root: string, schema: Definition): Array<{ type: string; dataSchema: string }> {
  const members = (schema.anyOf ?? [schema]) as Definition[];
  return members.map((member) => {
    const type = (member.properties?.type as Definition | undefined)?.const;
    if (typeof type !== 'string') throw new Error(`${root}: every member needs a literal type`);
    return { type, dataSchema: refName((member.properties?.data as Definition).$ref) };
  });
}

/**
 * JSON schemas of the event payloads, generated from the contract's TypeScript
 * types (the TSDoc comments become descriptions): the code is the only source.
 */
export function generateEventSchemas(repoRoot: string, unionRoots: string[]): GeneratedEventSchemas {
  const generator = createGenerator({
    path: join(repoRoot, 'apps/gateway/src/openapi/asyncapi/documented-types.ts'),
    tsconfig: join(repoRoot, 'tsconfig.json'),
    expose: 'export',
    topRef: true,
    skipTypeCheck: true,
    additionalProperties: false,
  });
  const definitions: Record<string, JsonSchema> = {};
  const unions: GeneratedEventSchemas['unions'] = {};
  for (const root of unionRoots) {
    const { [root]: union, ...named } = generator.createSchema(root).definitions!;
    Object.assign(definitions, named);
    unions[root] = membersOf(root, union as Definition);
  }
  // The alias of a generic is a reference to `EventEnvelope<unknown>`: stored under a plain name.
  const envelopes = generator.createSchema(ENVELOPE_ROOT).definitions!;
  const alias = envelopes[ENVELOPE_ROOT] as Definition;
  definitions[ENVELOPE_SCHEMA] = { ...(envelopes[refName(alias.$ref)] as Definition), description: alias.description };
  return { definitions: rewriteRefs(definitions) as Record<string, JsonSchema>, unions };
}
