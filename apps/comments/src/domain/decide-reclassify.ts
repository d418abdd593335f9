import { CommentEvent, unknownComment } from '@app/contracts';
import { ReclassifyComment } from './comment.commands';
import { CommentState } from './comment.state';

/**
 * The current classifier's reading is stored only when it differs from the
 * comment's (the receipt's, or the last reclassification's): running the
 * reclassification again appends nothing.
 */
export function decideReclassify(command: ReclassifyComment, state: CommentState): CommentEvent[] {
  if (!state.exists) throw unknownComment();
  const { sentiment, tags } = command.classification;
  if (sentiment === state.data.sentiment && sameTags(tags, state.data.tags)) return [];
  return [
    { type: 'CommentReclassified', data: { commentId: state.data.commentId, sentiment, tags, classifierVersion: command.classifierVersion, reclassifiedAt: command.now.toISOString() } },
  ];
}

/** Tags are a set (each at most once); their order says nothing. */
function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag) => b.includes(tag));
}
