import { INPUT_SCHEMAS, OPERATIONS, OperationInputs } from '@app/sdk';

/** A tool's input schema: a JSON Schema object (MCP, tools/list inputSchema). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
  $defs?: Record<string, unknown>;
  [keyword: string]: unknown;
}

const COMPONENT_REF = '#/components/schemas/';

function operation(operationId: string): OperationInputs {
  const found = OPERATIONS[operationId];
  // The tools name operations of the document they were generated with: a missing one is a stale build, not an input.
  if (!found) throw new Error(`the OpenAPI document has no operation ${operationId}: run npm run sdk:generate`);
  return found;
}

/**
 * OpenAPI 3.0 Schema Object → JSON Schema: refs to components become refs to
 * $defs, `nullable: true` becomes a "null" type. Every rule (enums, lengths,
 * formats, required) stays as the document states it.
 */
function toJsonSchema(schema: unknown, refs: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => toJsonSchema(entry, refs));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)) {
      const name = value.slice(COMPONENT_REF.length);
      if (!refs.has(name)) {
        refs.add(name);
        toJsonSchema(INPUT_SCHEMAS[name], refs);
      }
      out.$ref = `#/$defs/${name}`;
    } else if (keyword === 'nullable') continue;
    else if (keyword === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, toJsonSchema(property, refs)]));
    } else out[keyword] = toJsonSchema(value, refs);
  }
  const nullable = (schema as { nullable?: unknown }).nullable === true;
  if (nullable && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** The $defs a schema's refs need (each converted the same way). */
function defsOf(refs: Set<string>): Record<string, unknown> | undefined {
  if (!refs.size) return undefined;
  const defs: Record<string, unknown> = {};
  for (const name of [...refs].sort()) defs[name] = toJsonSchema(INPUT_SCHEMAS[name], new Set());
  return defs;
}

function resolved(schema: Record<string, unknown>): Record<string, unknown> {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(COMPONENT_REF) ? resolved(INPUT_SCHEMAS[ref.slice(COMPONENT_REF.length)]) : schema;
}

/**
 * A tool's input from an operation's JSON body, as the document states it
 * (CreatePostDto, ReplyToCommentDto, ...): `omit` drops fields the tool sets
 * itself, `require` makes fields the tool needs required, `extra` adds inputs
 * of the tool's own (each taken from the document too, see headerInput).
 */
export function bodyInput(operationId: string, shape: { omit?: string[]; require?: string[]; extra?: Record<string, unknown> } = {}): ToolInputSchema {
  const body = operation(operationId).body;
  if (!body) throw new Error(`${operationId} takes no body`);
  const schema = resolved(body) as { properties?: Record<string, unknown>; required?: string[] };
  const refs = new Set<string>();
  const omitted = new Set(shape.omit ?? []);
  const properties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) if (!omitted.has(name)) properties[name] = toJsonSchema(property, refs);
  Object.assign(properties, shape.extra);
  const required = [...new Set([...(schema.required ?? []), ...(shape.require ?? [])])].filter((name) => !omitted.has(name));
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...withDefs(refs) };
}

/** A tool's input from an operation's path and query parameters (the header ones are the SDK's). */
export function parametersInput(operationId: string): ToolInputSchema {
  const refs = new Set<string>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const parameter of operation(operationId).parameters.filter((p) => p.in === 'path' || p.in === 'query')) {
    properties[parameter.name] = toJsonSchema({ ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) }, refs);
    if (parameter.required) required.push(parameter.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...withDefs(refs) };
}

/** A header parameter of an operation as a tool input (Idempotency-Key as idempotencyKey), with its schema and description. */
export function headerInput(operationId: string, header: string): Record<string, unknown> {
  const parameter = operation(operationId).parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === header.toLowerCase());
  if (!parameter) throw new Error(`${operationId} takes no header ${header}`);
  return toJsonSchema({ ...parameter.schema, ...(parameter.description ? { description: parameter.description } : {}) }, new Set()) as Record<string, unknown>;
}

/** The names of an operation's path parameters (a tool's input splits into path and query by them). */
export function pathParameters(operationId: string): string[] {
  return operation(operationId).parameters.filter((p) => p.in === 'path').map((p) => p.name);
}

/** What an operation is, in the document's words (a tool's description starts with it). */
export function summaryOf(operationId: string): string {
  const { summary, description } = operation(operationId);
  return [summary, description].filter(Boolean).join('\n\n');
}

function withDefs(refs: Set<string>): { $defs?: Record<string, unknown> } {
  const defs = defsOf(refs);
  return defs ? { $defs: defs } : {};
}
