import { COMMENT_VIEWS_PROJECTION } from '@app/read-models';
import { ReadModel } from '../read-model';
import { CommentViewsTables, projectCommentEvents } from './comment-views.projection';

/** comment_views (GET /api/v1/comments), folded from the comment streams; its checkpoint is `comment_views`. */
export const COMMENT_VIEWS: ReadModel<keyof CommentViewsTables> = {
  name: COMMENT_VIEWS_PROJECTION,
  tables: { commentViews: 'comment_views', ownComments: 'comment_view_own_comments' },
  view: { role: 'commentViews', streamPrefix: 'comment-' },
  project: projectCommentEvents,
};
