import { CommentEvent } from '@app/contracts';
import { ReclassifyComment } from './comment.commands';
import { now, received, spec } from './comment.test-support';

const reclassify = (sentiment: 'positive' | 'negative' | 'neutral', tags: string[], classifierVersion = 'v2'): ReclassifyComment => ({
  type: 'ReclassifyComment',
  classification: { sentiment, tags },
  classifierVersion,
  now,
});

describe('Comment decider: ReclassifyComment', () => {
  it('given a comment received as positive praise, when the classifier now reads it otherwise, then CommentReclassified with the version', () => {
    spec
      .given(received)
      .when(reclassify('neutral', ['question']))
      .then([{ type: 'CommentReclassified', data: { commentId: 'c-1', sentiment: 'neutral', tags: ['question'], classifierVersion: 'v2', reclassifiedAt: now.toISOString() } }]);
  });

  it('given the same reading, when reclassified, then nothing (tags compared as a set)', () => {
    spec.given(received).when(reclassify('positive', ['praise'], 'v9')).thenNothing();
  });

  it('given a reclassification, when the same reading comes again, then nothing; the state carries the new reading', () => {
    const first = spec.given(received).when(reclassify('negative', ['complaint', 'urgent']));
    expect(first.stateAfter()).toMatchObject({ data: { sentiment: 'negative', tags: ['complaint', 'urgent'] } });
    spec.given(first.history()).when(reclassify('negative', ['urgent', 'complaint'])).thenNothing();
  });

  it('given a tag dropped, when reclassified, then CommentReclassified', () => {
    const events: CommentEvent[] = spec.given(received).when(reclassify('positive', [])).events();
    expect(events).toMatchObject([{ type: 'CommentReclassified', data: { sentiment: 'positive', tags: [] } }]);
  });

  it('given nothing, when reclassified, then unknown_comment', () => {
    spec.given([]).when(reclassify('neutral', [])).thenRefuses('unknown_comment');
  });
});
