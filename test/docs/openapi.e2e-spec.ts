import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { ERROR_CODES, ErrorCode } from '@app/contracts';
import { DOCUMENT_FILES, serialize } from '../../apps/gateway/src/openapi/write-documents';
import { TestStack } from '../support/test-stack';
import { endpoints, namedInProse, readSpec, section, table } from './spec-tables';

type Schema = { $ref?: string; allOf?: Schema[]; type?: string; nullable?: boolean; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; required?: string[] };
type Operation = { operationId: string; tags?: string[]; security?: unknown[]; parameters?: Array<{ name: string; in: string }>; requestBody?: any; responses: Record<string, any>; 'x-required-scopes'?: string[] };
type MediaType = { schema: Schema; example?: unknown };

const repoRoot = join(__dirname, '..', '..');

/** The OpenAPI document as the running gateway serves it, checked against the spec's own tables. */
describe('OpenAPI document', () => {
  let stack: TestStack;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
    servers: Array<{ url: string }>;
    tags: Array<{ name: string; description: string }>;
    externalDocs: { url: string };
  };
  const spec = readSpec(repoRoot);

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['gateway'] });
    const response = await stack.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    doc = response.body;
  });
  afterAll(() => stack.stop());

  /** A $ref (or swagger's single-entry allOf around one) → the schema it names. */
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()!]) : schema.allOf?.length === 1 ? resolve(schema.allOf[0]) : schema;
  const operation = (method: string, path: string): Operation => {
    const found = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return found;
  };
  const responseSchema = (method: string, path: string, status: string) => resolve(operation(method, path).responses[status].content['application/json'].schema);
  const bodySchema = (method: string, path: string) => resolve(operation(method, path).requestBody.content['application/json'].schema);
  const propertyOf = (schema: Schema, name: string) => resolve(schema.properties?.[name] ?? {});

  /** The spec's type column against the schema: presence, and nullability, arrays and scalars. */
  function expectFields(schema: Schema, rows: Array<{ name: string; type: string }>, where: string) {
    const missing = rows.filter((row) => !schema.properties?.[row.name]).map((row) => row.name);
    expect({ where, missing }).toEqual({ where, missing: [] });
    for (const { name, type } of rows) {
      const property = schema.properties![name];
      const resolved = resolve(property);
      const kind = type.replace(/\(.*\)/, '').trim();
      if (/or null/.test(type)) expect({ where, name, nullable: property.nullable ?? resolved.nullable }).toEqual({ where, name, nullable: true });
      if (/\[\]$|^array/.test(kind)) expect({ where, name, type: resolved.type }).toEqual({ where, name, type: 'array' });
      else if (/^(string|boolean|number)/.test(kind)) expect({ where, name, type: resolved.type }).toEqual({ where, name, type: kind.startsWith('number') ? expect.stringMatching(/number|integer/) : kind.split(' ')[0] });
    }
  }
  const fieldRows = (heading: string) => table(section(spec, heading)).map((row) => ({ name: row.Field ?? row.Name, type: row.Type }));

  it('is public: the document and the UI answer without a key', async () => {
    const ui = await fetch(`${stack.baseUrl}/api/docs`);
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toMatch(/text\/html/);
    expect(await ui.text()).toContain('swagger-ui');
  });

  it('has every endpoint of the spec with its method and path', () => {
    const listed = endpoints(spec);
    expect(listed.length).toBeGreaterThanOrEqual(4);
    for (const { method, path } of listed) expect(() => operation(method, path)).not.toThrow();
  });

  it('has every field of Post, Create response (with post, accounts and results entries), Comment and Reply result', () => {
    expectFields(resolve(propertyOf(responseSchema('get', '/api/v1/posts', '200'), 'posts').items!), fieldRows('Post (item of the list response)'), 'Post');
    const created = responseSchema('post', '/api/v1/posts', '201');
    expectFields(created, fieldRows('Create response'), 'Create response');
    const createRows = table(section(spec, 'Create response'));
    const notesOf = (field: string) => createRows.find((row) => row.Field === field)!.Notes;
    expect(Object.keys(propertyOf(created, 'post').properties!)).toEqual(expect.arrayContaining(namedInProse(notesOf('post'))));
    expect(Object.keys(resolve(propertyOf(created, 'accounts').items!).properties!)).toEqual(expect.arrayContaining(namedInProse(notesOf('accounts'))));
    const entry = /Entry of results: (.*)/.exec(section(spec, 'Create response'))![1];
    const entryFields = namedInProse(entry.split('. ')[0]);
    expect(entryFields).toEqual(expect.arrayContaining(['platform', 'accountId', 'success', 'url']));
    const results = resolve(propertyOf(created, 'results').items!);
    expect(Object.keys(results.properties!)).toEqual(expect.arrayContaining(entryFields));
    // The failed entry: success false with the error the publisher recorded.
    expect(Object.keys(resolve(results.properties!.error).properties!)).toEqual(['code', 'message', 'retryable']);
    expectFields(resolve(propertyOf(responseSchema('get', '/api/v1/comments', '200'), 'comments').items!), fieldRows('Comment'), 'Comment');
    expectFields(responseSchema('post', '/api/v1/comments/reply', '200'), fieldRows('Reply result'), 'Reply result');
  });

  it('has every query parameter and body field of the spec', () => {
    for (const { method, path } of endpoints(spec)) {
      const block = section(spec, `${method.toUpperCase()} ${path}`);
      if (block.includes('Query parameters:')) {
        const names = operation(method, path).parameters!.filter((p) => p.in === 'query').map((p) => p.name);
        expect({ path, names }).toEqual({ path, names: expect.arrayContaining(table(block, 'Query parameters:').map((row) => row.Name)) });
      }
      if (block.includes('Body:')) expectFields(bodySchema(method, path), table(block, 'Body:').map((row) => ({ name: row.Name, type: row.Type })), `${path} body`);
    }
  });

  it('documents every error code of the catalogue with its status on some operation, in the one error body', () => {
    const documented = new Map<ErrorCode, Set<number>>();
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const example of Object.values<{ value: { error: { code: ErrorCode } } }>(response.content?.['application/json']?.examples ?? {})) {
            const code = example.value.error.code;
            documented.set(code, new Set([...(documented.get(code) ?? []), Number(status)]));
            expect(response.content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBodySchema');
          }
        }
      }
    }
    for (const [code, { status }] of Object.entries(ERROR_CODES)) expect({ code, statuses: [...(documented.get(code as ErrorCode) ?? [])] }).toEqual({ code, statuses: [status] });
  });

  it('puts the bearer scheme and the scopes the spec gives on each operation', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations: Record<string, [string, string]> = {
      'list posts': ['get', '/api/v1/posts'],
      'list comments': ['get', '/api/v1/comments'],
      'create post': ['post', '/api/v1/posts'],
      'reply to comment': ['post', '/api/v1/comments/reply'],
    };
    for (const row of table(section(spec, 'Authentication'))) {
      if (!operations[row.Operation]) continue;
      const op = operation(...operations[row.Operation]);
      expect(op.security).toEqual([{ bearer: [] }]);
      expect({ op: row.Operation, scopes: op['x-required-scopes'] }).toEqual({ op: row.Operation, scopes: [row.Scope] });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
    }
    expect(operation('get', '/health/live').security).toEqual([]);
  });

  const operations = () => Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));

  it('names its servers, declares one tag per resource and puts every operation under one of them', () => {
    expect(doc.servers.map((server) => server.url)).toEqual(['/', 'http://localhost:3000']);
    const declared = doc.tags.map((tag) => tag.name);
    expect(declared).toEqual(expect.arrayContaining(['posts', 'accounts', 'comments', 'webhooks', 'health']));
    for (const tag of doc.tags) expect(tag.description).toEqual(expect.any(String));
    const untagged = operations().filter(({ op }) => op.tags?.length !== 1 || !declared.includes(op.tags[0]));
    expect(untagged.map(({ where, op }) => `${where}: ${JSON.stringify(op.tags)}`)).toEqual([]);
  });

  it('describes the key as an opaque bearer token, not a JWT', () => {
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', description: expect.stringContaining('not a JWT') });
  });

  it('has an example of every request body and every answer with a body, each valid against its schema', () => {
    // OpenAPI 3.0 schemas: `nullable`, annotations (example, deprecated) and formats are not JSON Schema's to check here.
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const problems: string[] = [];
    const check = (where: string, content: Record<string, MediaType> | undefined) => {
      for (const [type, media] of Object.entries(content ?? {})) {
        if (media.example === undefined) {
          problems.push(`${where} (${type}): no example`);
          continue;
        }
        const validate = ajv.compile({ allOf: [media.schema], components: doc.components });
        if (!validate(media.example)) problems.push(`${where} (${type}): ${ajv.errorsText(validate.errors)}`);
      }
    };
    for (const { where, op } of operations()) {
      check(`${where} request`, op.requestBody?.content);
      for (const [status, response] of Object.entries(op.responses)) if (Number(status) < 400 || op.operationId === 'HealthController_ready') check(`${where} ${status}`, response.content);
    }
    expect(problems).toEqual([]);
  });

  it("documents the sign-in callback's redirect, readiness's 503 and the ETag of the answers showing a post", () => {
    const callback = operation('get', '/api/v1/accounts/connect/callback').responses['302'];
    expect(callback.headers.Location).toBeDefined();
    const notReady = operation('get', '/health/ready').responses['503'];
    expect(notReady.content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBodySchema');
    for (const [method, path, status] of [['patch', '/api/v1/posts/:id', '200'], ['get', '/api/v1/posts/:id', '200'], ['post', '/api/v1/posts', '201'], ['post', '/api/v1/posts/:id/publish', '201']]) {
      expect({ method, path, etag: operation(method, path).responses[status].headers?.ETag }).toEqual({ method, path, etag: expect.objectContaining({ schema: { type: 'string' } }) });
    }
  });

  it('links the AsyncAPI document, which the gateway serves as committed', async () => {
    expect(doc.externalDocs.url).toBe('/api/asyncapi.json');
    const served = await fetch(`${stack.baseUrl}${doc.externalDocs.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/application\/json/);
    expect(await served.json()).toEqual(JSON.parse(readFileSync(join(repoRoot, DOCUMENT_FILES.asyncapi), 'utf8')));
  });

  it('docs/openapi.json is the document the code builds (npm run openapi rewrites it)', () => {
    const committed = readFileSync(join(repoRoot, DOCUMENT_FILES.openapi), 'utf8');
    expect(committed === serialize(doc) ? 'current' : `${DOCUMENT_FILES.openapi} is stale: run npm run openapi`).toBe('current');
  });
});
