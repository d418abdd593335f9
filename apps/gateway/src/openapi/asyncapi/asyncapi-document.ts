import { accountMetricsStreamId, accountStreamId, commentStreamId, postMetricsStreamId, postStreamId, queueStreamId, Subjects } from '@app/contracts';
import { ENVELOPE_SCHEMA, generateEventSchemas, JsonSchema } from './event-schemas';

/** The event unions of the contract, each with the stream its events are appended to (which names their subjects). */
export const EVENT_FAMILIES = [
  { union: 'PostEvent', streamId: postStreamId('{postId}') },
  { union: 'CommentEvent', streamId: commentStreamId('{commentId}') },
  { union: 'AccountEvent', streamId: accountStreamId('{accountId}') },
  { union: 'QueueEvent', streamId: queueStreamId('{accountId}') },
  { union: 'PostMetricsEvent', streamId: postMetricsStreamId('{postId}') },
  { union: 'AccountMetricsEvent', streamId: accountMetricsStreamId('{accountId}') },
] as const;

export const HEADERS_SCHEMA = 'NatsHeaders';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function headersSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['Nats-Msg-Id'],
    properties: {
      'Nats-Msg-Id': { type: 'string', description: 'The event id (eventId). JetStream drops a resend inside its duplicate window; consumers deduplicate on it beyond.' },
      'x-request-id': { type: 'string', description: 'The HTTP request (or internal command) that caused the event, when there was one.' },
    },
  };
}

/** The envelope with `type` fixed and `data` the event type's own schema. */
function payloadSchema(envelope: JsonSchema, type: string, dataSchema: string, description: string | undefined): JsonSchema {
  return {
    ...envelope,
    description,
    properties: { ...envelope.properties, type: { type: 'string', const: type }, data: ref(dataSchema) },
  };
}

/**
 * The AsyncAPI 3.0 document of the events internal services subscribe to:
 * one channel per event type, payload schemas generated from the contract.
 */
export function buildAsyncApiDocument(repoRoot: string): Record<string, unknown> {
  const subjects = new Subjects();
  const { definitions, unions } = generateEventSchemas(repoRoot, EVENT_FAMILIES.map((family) => family.union));
  const schemas: Record<string, JsonSchema> = { [HEADERS_SCHEMA]: headersSchema(), ...definitions };
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const family of EVENT_FAMILIES) {
    for (const { type, dataSchema } of unions[family.union]) {
      const description = definitions[dataSchema].description;
      schemas[`${type}Event`] = payloadSchema(definitions[ENVELOPE_SCHEMA], type, dataSchema, description);
      messages[type] = { name: type, title: type, summary: description, contentType: 'application/json', headers: ref(HEADERS_SCHEMA), payload: ref(`${type}Event`) };
      channels[type] = { address: subjects.event(family.streamId, type), messages: { [type]: { $ref: `#/components/messages/${type}` } } };
      operations[`on${type}`] = { action: 'send', channel: { $ref: `#/channels/${type}` }, messages: [{ $ref: `#/channels/${type}/messages/${type}` }] };
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Social publishing events',
      version: 'v1',
      description: [
        `Every stored event is relayed, in store order and only once stored, to the JetStream stream \`${subjects.eventStreamName}\``,
        `over \`${subjects.eventRoot}.>\`, on \`${subjects.eventRoot}.<category>.<EventType>\` (category from the stream: post-… → posts).`,
        'With NATS_NAMESPACE set, every subject and the stream name carry it as a prefix (`<ns>.social.v1.…`, `SOCIAL_EVENTS_<ns>`).',
        'Delivery is at least once: deduplicate on Nats-Msg-Id (= eventId). Events of one stream arrive in revision order.',
        'Commands travel on social.cmd.v1.*, outside this stream.',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: { nats: { host: 'localhost:4222', protocol: 'nats', description: 'NATS with JetStream (NATS_URL)' } },
    channels,
    operations,
    components: { messages, schemas },
  };
}
