import { PlatformRefusal, RouteContext } from '../dialect';
import { graphBooleanParam } from './meta-graph';

/**
 * The true/false parameters of the Graph moderation calls: Facebook's `is_hidden`
 * (https://developers.facebook.com/docs/graph-api/reference/comment/, "Updating"), Instagram's `hide`
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/) and
 * Threads' `hide` (https://developers.facebook.com/docs/threads/reply-management, "Hide Replies").
 */
describe('graphBooleanParam', () => {
  const ctx = (body: unknown, query: Record<string, string> = {}) => ({ body, query }) as unknown as RouteContext;
  const refusalOf = (read: () => unknown) => {
    try {
      read();
    } catch (error) {
      if (error instanceof PlatformRefusal) return { status: error.status, code: error.code, message: error.message };
      throw error;
    }
    throw new Error('not refused');
  };

  it('reads "true" and "false" from the body, or from the query when the body has none', () => {
    expect(graphBooleanParam(ctx({ hide: 'true' }), 'hide', 'hide must be a boolean')).toBe(true);
    expect(graphBooleanParam(ctx({ hide: 'false' }, { hide: 'true' }), 'hide', 'hide must be a boolean')).toBe(false);
    expect(graphBooleanParam(ctx(undefined, { is_hidden: 'true' }), 'is_hidden', 'is_hidden must be a boolean')).toBe(true);
  });

  it('refuses a missing value and one that is not true or false with code 100, in the words it is given', () => {
    expect(refusalOf(() => graphBooleanParam(ctx({}), 'hide', 'hide must be a boolean'))).toEqual({ status: 400, code: '100', message: 'hide is required' });
    expect(refusalOf(() => graphBooleanParam(ctx({ is_hidden: 'yes' }), 'is_hidden', '(#100) is_hidden must be a boolean'))).toEqual({
      status: 400,
      code: '100',
      message: '(#100) is_hidden must be a boolean',
    });
  });
});
