import { POST_VIEWS_PROJECTION } from '@app/read-models';
import { ReadModel } from '../read-model';
import { projectPostEvents, PostViewsTables } from './post-views.projection';

/** post_views (GET /api/v1/posts), folded from the post streams; its checkpoint is `post_views`. */
export const POST_VIEWS: ReadModel<keyof PostViewsTables> = {
  name: POST_VIEWS_PROJECTION,
  tables: { postViews: 'post_views', postDeletions: 'post_view_deletions' },
  view: { role: 'postViews', streamPrefix: 'post-' },
  project: projectPostEvents,
};
