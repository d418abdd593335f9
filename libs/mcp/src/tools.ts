import { OPERATIONS, SocialClient } from '@app/sdk';
import { bodyInput, headerInput, parametersInput, pathParameters, summaryOf, ToolInputSchema } from './input-schemas';

/** Arguments as an MCP client sends them (the API judges them: the tool passes them on as they are). */
export type ToolArguments = Record<string, unknown>;

/** One MCP tool: one call of the public API through the SDK, whose answer is the tool's. */
export interface ApiTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ToolInputSchema;
  /** Read-only tools change nothing (MCP tool annotations). */
  readOnly: boolean;
  call(client: SocialClient, args: ToolArguments): Promise<unknown>;
}

/** Path parameters out of the arguments, the rest as the query (an unknown name is the API's to refuse). */
function split(operationId: string, args: ToolArguments): { path: Record<string, string>; query: Record<string, unknown> } {
  const names = pathParameters(operationId);
  const path: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (names.includes(name)) path[name] = String(value);
    else query[name] = value;
  }
  return { path, query };
}

/** A create's own Idempotency-Key out of the arguments: the SDK makes one when the agent gives none. */
function withoutKey(args: ToolArguments): { body: ToolArguments; idempotencyKey?: string } {
  const { idempotencyKey, ...body } = args;
  return { body, idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined };
}

const CREATE = 'PostsController_create';
const IDEMPOTENCY_KEY = { idempotencyKey: headerInput(CREATE, 'Idempotency-Key') };

/** POST /api/v1/connect-links (issue 25's connect page), when the document the SDK was generated from has it. */
const CREATE_CONNECT_LINK = 'ConnectLinksController_create';

/** Tools of operations not every document has: listed only when the SDK's document has their operation. */
function whenDocumented(operationId: string, tool: () => ApiTool): ApiTool[] {
  return OPERATIONS[operationId] ? [tool()] : [];
}

/**
 * The tools, each on one operation of the OpenAPI document: its input schema
 * is that operation's (body or parameters), its answer the API's body, a
 * refusal the API's error. None holds a rule of its own.
 */
export const API_TOOLS: ApiTool[] = [
  {
    name: 'list_accounts',
    title: 'List connected accounts',
    description: `${summaryOf('AccountsController_list')}\n\nScope read. Posts name accounts by id, platform:@handle or platform.`,
    inputSchema: parametersInput('AccountsController_list'),
    readOnly: true,
    call: (client) => client.accounts.list(),
  },
  {
    name: 'create_draft',
    title: 'Create a draft post',
    description: `Creates a draft (POST /api/v1/posts without scheduledAt or publishNow): nothing is published until publish_draft. Scope write.\n\n${summaryOf(CREATE)}`,
    inputSchema: bodyInput(CREATE, { omit: ['scheduledAt', 'publishNow'], extra: IDEMPOTENCY_KEY }),
    readOnly: false,
    call: (client, args) => {
      const { body, idempotencyKey } = withoutKey(args);
      return client.posts.create(body as Parameters<SocialClient['posts']['create']>[0], { idempotencyKey });
    },
  },
  {
    name: 'schedule_post',
    title: 'Schedule a post',
    description: `Schedules a post for scheduledAt (POST /api/v1/posts with scheduledAt). Scope write.\n\n${summaryOf(CREATE)}`,
    inputSchema: bodyInput(CREATE, { omit: ['publishNow'], require: ['scheduledAt'], extra: IDEMPOTENCY_KEY }),
    readOnly: false,
    call: (client, args) => {
      const { body, idempotencyKey } = withoutKey(args);
      return client.posts.create(body as Parameters<SocialClient['posts']['create']>[0], { idempotencyKey });
    },
  },
  {
    name: 'publish_post',
    title: 'Publish a post now',
    description: `Publishes a new post now on every account it names (POST /api/v1/posts with publishNow): the answer has one result per account (success with the platform's id and url, or the error). Scopes write and publish.\n\n${summaryOf(CREATE)}`,
    inputSchema: bodyInput(CREATE, { omit: ['scheduledAt', 'publishNow'], extra: IDEMPOTENCY_KEY }),
    readOnly: false,
    call: (client, args) => {
      const { body, idempotencyKey } = withoutKey(args);
      return client.posts.create({ ...(body as Parameters<SocialClient['posts']['create']>[0]), publishNow: true }, { idempotencyKey });
    },
  },
  {
    name: 'publish_draft',
    title: 'Publish a draft or scheduled post now',
    description: summaryOf('PostsController_publish'),
    inputSchema: parametersInput('PostsController_publish'),
    readOnly: false,
    call: (client, args) => client.posts.publish(split('PostsController_publish', args).path.id),
  },
  {
    name: 'get_post',
    title: 'Get a post',
    description: summaryOf('PostsController_get'),
    inputSchema: parametersInput('PostsController_get'),
    readOnly: true,
    call: (client, args) => client.posts.get(split('PostsController_get', args).path.id),
  },
  {
    name: 'list_posts',
    title: 'List posts',
    description: `${summaryOf('PostsController_list')}\n\nPass nextCursor back as cursor for the next page.`,
    inputSchema: parametersInput('PostsController_list'),
    readOnly: true,
    call: (client, args) => client.posts.list(split('PostsController_list', args).query),
  },
  {
    name: 'retry_post',
    title: 'Retry the failed accounts of a post',
    description: summaryOf('PostsController_retry'),
    inputSchema: parametersInput('PostsController_retry'),
    readOnly: false,
    call: (client, args) => client.posts.retry(split('PostsController_retry', args).path.id),
  },
  {
    name: 'list_comments',
    title: 'List and filter comments',
    description: `${summaryOf('CommentsController_list')}\n\nPass nextCursor back as cursor (with the same filters) for the next page.`,
    inputSchema: parametersInput('CommentsController_list'),
    readOnly: true,
    call: (client, args) => client.comments.list(split('CommentsController_list', args).query),
  },
  {
    name: 'reply_to_comment',
    title: 'Reply to a comment',
    description: summaryOf('CommentsController_reply'),
    inputSchema: bodyInput('CommentsController_reply'),
    readOnly: false,
    call: (client, args) => client.comments.reply(args as Parameters<SocialClient['comments']['reply']>[0]),
  },
  {
    name: 'hide_comment',
    title: 'Hide a comment',
    description: summaryOf('CommentsController_hide'),
    inputSchema: bodyInput('CommentsController_hide'),
    readOnly: false,
    call: (client, args) => client.comments.hide(args as Parameters<SocialClient['comments']['hide']>[0]),
  },
  {
    name: 'unhide_comment',
    title: 'Unhide a comment',
    description: summaryOf('CommentsController_unhide'),
    inputSchema: bodyInput('CommentsController_unhide'),
    readOnly: false,
    call: (client, args) => client.comments.unhide(args as Parameters<SocialClient['comments']['unhide']>[0]),
  },
  ...whenDocumented(CREATE_CONNECT_LINK, () => ({
    name: 'create_connect_link',
    title: 'Create a connect link for an end user',
    description: `${summaryOf(CREATE_CONNECT_LINK)}\n\nScope accounts. Hand the url to the person whose social accounts should be connected; it expires and needs no API key.`,
    inputSchema: bodyInput(CREATE_CONNECT_LINK),
    readOnly: false,
    call: (client, args) => client.operation(CREATE_CONNECT_LINK, { body: args }),
  })),
];
