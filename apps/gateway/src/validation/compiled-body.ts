import Ajv, { ValidateFunction } from 'ajv';
// The committed OpenAPI document (npm run openapi writes it from the DTOs, test/docs checks it is
// current): the request schemas it publishes are the ones the fast path compiles, so the two cannot drift.
import openApiDocument from '../../../../docs/openapi.json';

type Schema = Record<string, unknown>;
type Dto = new () => object;

/**
 * The DTOs whose bodies may take the compiled fast path. Each is listed only with a
 * property test (compiled-body.spec.ts) proving, over random bodies, that whatever the
 * compiled schema accepts class-validator accepts too and turns into the same DTO.
 */
const FAST_DTOS = new Set(['CreatePostDto', 'EditPostDto']);

/** The types class-transformer copies as they are (no @Type, no conversion): a property of these is "flat". */
const SCALARS = new Set(['string', 'boolean']);

function isFlat(property: Schema): boolean {
  if ('$ref' in property || 'allOf' in property || 'oneOf' in property || 'anyOf' in property) return false;
  if (SCALARS.has(property.type as string)) return true;
  if (property.type !== 'array') return false;
  const items = property.items as Schema | undefined;
  return items !== undefined && isFlat(items) && items.type !== 'array';
}

/**
 * The fast schema of one DTO: its OpenAPI schema narrowed to its flat properties, every other
 * name refused (additionalProperties: false). A body with a nested field (overrides, thread,
 * platformOptions) or anything the schema refuses is not "invalid" here: it goes the
 * class-validator way, whose answer (unknown_field with its suggestion, invalid_body with its
 * details) is the API's. The schema may be stricter than class-validator (maxLength, maxItems:
 * the posts service's rules, which the document states); such a body only loses the fast path.
 */
function fastSchemaOf(schema: Schema): Schema | null {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([, property]) => isFlat(property));
  const flat = new Set(properties.map(([name]) => name));
  const required = (schema.required ?? []) as string[];
  if (required.some((name) => !flat.has(name))) return null;
  return { type: 'object', properties: Object.fromEntries(properties), required, additionalProperties: false };
}

// strict: false lets the document's annotations (description, example, deprecated) through;
// formats are the posts service's rules (each with its own error code), not the DTO's: not checked here.
const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false, validateFormats: false });

/** A DTO's compiled check and how to build its instance from a body the check accepts. */
export interface CompiledBody {
  accepts(body: unknown): boolean;
  /** What class-transformer's plainToInstance makes of an accepted body: the DTO with the body's own fields. */
  instance(body: object): object;
}

const compiled = new Map<Dto, CompiledBody | null>();

function compile(dto: Dto): CompiledBody | null {
  const schemas = (openApiDocument as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {};
  const schema = FAST_DTOS.has(dto.name) ? schemas[dto.name] : undefined;
  const fast = schema ? fastSchemaOf(schema) : null;
  if (!fast) return null;
  const validate: ValidateFunction = ajv.compile(fast);
  return {
    accepts: (body) => validate(body),
    instance: (body) => Object.assign(new dto(), body),
  };
}

/** The compiled check of a DTO's body, or null when the DTO has none (class-validator alone judges it). */
export function compiledBodyOf(dto: Dto): CompiledBody | null {
  let body = compiled.get(dto);
  if (body === undefined) {
    body = compile(dto);
    compiled.set(dto, body);
  }
  return body;
}
