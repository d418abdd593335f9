import { now, receive, received, spec } from './comment.test-support';

describe('Comment decider: ReceiveComment', () => {
  it('given nothing, when a comment is received, then CommentReceived carries it, its classification and the receipt time', () => {
    spec
      .given([])
      .when(receive())
      .then([{ type: 'CommentReceived', data: { ...receive().comment, commentedAt: '2030-01-01T11:59:00.000Z', receivedAt: now.toISOString() } }]);
  });

  it('takes the receipt time as commentedAt when the platform gives none', () => {
    spec
      .given([])
      .when(receive({ commentedAt: null }))
      .then([{ type: 'CommentReceived', data: expect.objectContaining({ commentedAt: now.toISOString(), receivedAt: now.toISOString() }) }]);
  });

  it('given the comment is stored, when it is received again (a second poll, a webhook), then nothing is decided', () => {
    spec.given(received).when(receive({ text: 'edited since' })).thenNothing();
  });
});
