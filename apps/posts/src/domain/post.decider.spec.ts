import { now, spec } from './post.test-support';

describe('Post decider: routing', () => {
  it('refuses every command but CreatePost on a post that does not exist', () => {
    spec.given([]).when({ type: 'PublishPost', now }).thenRefuses('not_found');
    spec.given([]).when({ type: 'AbandonPublication', now }).thenRefuses('not_found');
  });
});
