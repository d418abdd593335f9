import { ApiAcceptedResponse, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiParam } from '@nestjs/swagger';
import { CreatePostResponseSchema } from './schemas/post.schemas';

/** The ETag header of every answer that shows a post: its version, as GET /api/v1/posts/:id gives it. */
export const POST_ETAG_HEADER = { ETag: { description: 'the version of the post shown, quoted (e.g. "3"): send it as If-Match to edit or delete it', schema: { type: 'string' } } };

/** The documented answers of the operations that answer with the post (create, publish, retry, edit). */
export const ApiPostAnswer = (done: 200 | 201) =>
  (done === 201 ? ApiCreatedResponse : ApiOkResponse)({ type: CreatePostResponseSchema, description: 'the post as it now stands, with a result per account once published', headers: POST_ETAG_HEADER });
export const ApiStillPublishing = () =>
  ApiAcceptedResponse({ type: CreatePostResponseSchema, description: 'status publishing: the outcome took longer than PUBLISH_WAIT_MS; GET the post later', headers: POST_ETAG_HEADER });
export const ApiPostId = () => ApiParam({ name: 'id', format: 'uuid', description: 'the post id' });
export const ApiIfMatch = () => ApiHeader({ name: 'If-Match', required: false, description: 'an ETag from GET /api/v1/posts/:id, e.g. "3": refused with 412 if the post has changed since' });
