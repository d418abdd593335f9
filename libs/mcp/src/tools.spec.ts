import Ajv from 'ajv';
import { INPUT_SCHEMAS, OPERATIONS } from '@app/sdk';
import { API_TOOLS } from './tools';

/** The tools' input schemas are valid JSON Schema, taken whole from the OpenAPI document's request schemas. */
describe('the MCP tools', () => {
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  const tool = (name: string) => API_TOOLS.find((candidate) => candidate.name === name)!;

  it('have unique names and input schemas that compile, every $ref resolved within the schema', () => {
    expect(new Set(API_TOOLS.map((candidate) => candidate.name)).size).toBe(API_TOOLS.length);
    for (const candidate of API_TOOLS) {
      expect(candidate.inputSchema.type).toBe('object');
      expect(() => ajv.compile(candidate.inputSchema)).not.toThrow();
    }
  });

  it('judge a post as the document does: its fields, types and limits, nested DTOs included', () => {
    const validate = ajv.compile(tool('publish_post').inputSchema);
    expect(validate({ content: 'Hello', accounts: ['x:@acme'], idempotencyKey: 'k-1' })).toBe(true);
    expect(validate({ content: 42, accounts: ['x:@acme'] })).toBe(false);
    expect(validate({ content: 'x'.repeat(10_001), accounts: ['x:@acme'] })).toBe(false);
    // Nested rules too: a thread part needs content and takes no other field.
    expect(validate({ content: 'Hello', accounts: ['x:@acme'], thread: [{ content: 'and more' }] })).toBe(true);
    expect(validate({ content: 'Hello', accounts: ['x:@acme'], thread: [{ text: 'and more' }] })).toBe(false);
    expect(validate({ content: 'Hello', accounts: ['x:@acme'], content2: 'x' })).toBe(true); // unknown top-level fields are the API's to refuse (unknown_field, with a hint)
  });

  it('take the body fields of their operation, less what the tool sets itself', () => {
    const create = INPUT_SCHEMAS.CreatePostDto as { properties: Record<string, unknown> };
    expect(Object.keys(tool('create_draft').inputSchema.properties).sort()).toEqual([...Object.keys(create.properties).filter((name) => name !== 'scheduledAt' && name !== 'publishNow'), 'idempotencyKey'].sort());
    expect(tool('schedule_post').inputSchema.properties.scheduledAt).toEqual({ ...(create.properties.scheduledAt as object), nullable: undefined, type: ['string', 'null'] });
    const reply = INPUT_SCHEMAS.ReplyToCommentDto as { required: string[] };
    expect(tool('reply_to_comment').inputSchema.required).toEqual(reply.required);
    expect(Object.keys(tool('list_posts').inputSchema.properties)).toEqual(OPERATIONS.PostsController_list.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    expect(tool('get_post').inputSchema.required).toEqual(['id']);
  });
});
