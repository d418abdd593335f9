import { ApiAcceptedResponse, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiParam } from '@nestjs/swagger';
import { CreatePostResponseSchema } from './schemas/post.schemas';

/** The documented answers of the operations that answer with the post (create, publish, retry, edit). */
export const ApiPostAnswer = (done: 200 | 201) => (done === 201 ? ApiCreatedResponse : ApiOkResponse)({ type: CreatePostResponseSchema, description: 'the post as it now stands, with a result per account once published' });
export const ApiStillPublishing = () => ApiAcceptedResponse({ type: CreatePostResponseSchema, description: 'status publishing: the outcome took longer than PUBLISH_WAIT_MS; GET the post later' });
export const ApiPostId = () => ApiParam({ name: 'id', format: 'uuid', description: 'the post id' });
export const ApiIfMatch = () => ApiHeader({ name: 'If-Match', required: false, description: 'an ETag from GET /api/v1/posts/:id, e.g. "3": refused with 412 if the post has changed since' });
