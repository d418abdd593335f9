import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommentTag, Sentiment } from '../src';

export interface LabelledComment {
  text: string;
  sentiment: Sentiment;
  tags: CommentTag[];
  note?: string;
}

export interface LabelledCommentSet {
  /** Rules may be tuned on this part. */
  dev: LabelledComment[];
  /** Held out: never tuned on, labels never edited after the classifier first ran on it. */
  test: LabelledComment[];
}

export function loadLabelledComments(): LabelledCommentSet {
  const path = join(__dirname, '..', 'fixtures', 'labelled-comments.json');
  const { dev, test } = JSON.parse(readFileSync(path, 'utf8')) as LabelledCommentSet;
  return { dev, test };
}
