import { applyDecorators } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiOkResponse, ApiParam, getSchemaPath } from '@nestjs/swagger';
import { CreatePostResponseSchema, PostRecordedResponseSchema } from './schemas/post.schemas';

/** The ETag header of every answer that shows a post: its version, as GET /api/v1/posts/:id gives it. */
export const POST_ETAG_HEADER = { ETag: { description: 'the version of the post shown, quoted (e.g. "3"): send it as If-Match to edit or delete it', schema: { type: 'string' } } };

/** The documented answers of the operations that answer with the post (create, publish, retry, edit). */
export const ApiPostAnswer = (done: 200 | 201) => (done === 201 ? ApiCreatedResponse : ApiOkResponse)({ type: CreatePostResponseSchema, description: 'the post as it now stands, with a result per account once published', headers: POST_ETAG_HEADER });
const LOCATION = { Location: { description: 'the post: /api/v1/posts/{id}', schema: { type: 'string' } } };
const RECORDED = 'the write is recorded but the read model does not show it within PROJECTION_WAIT_MS (or could not be read): {post: {id}, note}; GET the Location in a moment';

/**
 * The 202 of the operations that answer with the post: recorded but not readable yet
 * (every one of them), or still publishing (create, publish, retry).
 */
export const ApiPostAccepted = (publishing: boolean) =>
  applyDecorators(
    ApiExtraModels(PostRecordedResponseSchema),
    ApiAcceptedResponse({
      description: publishing ? `status publishing: the outcome took longer than PUBLISH_WAIT_MS; GET the post later. Or ${RECORDED}` : RECORDED,
      // A post shown while publishing carries its version too; a recorded-only answer has none to give.
      headers: publishing ? { ...LOCATION, ...POST_ETAG_HEADER } : LOCATION,
      schema: publishing
        ? { anyOf: [{ $ref: getSchemaPath(CreatePostResponseSchema) }, { $ref: getSchemaPath(PostRecordedResponseSchema) }] }
        : { $ref: getSchemaPath(PostRecordedResponseSchema) },
    }),
  );
export const ApiPostId = () => ApiParam({ name: 'id', format: 'uuid', description: 'the post id' });
export const ApiIfMatch = () => ApiHeader({ name: 'If-Match', required: false, description: 'an ETag from GET /api/v1/posts/:id, e.g. "3": refused with 412 if the post has changed since' });
