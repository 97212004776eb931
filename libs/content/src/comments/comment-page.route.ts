import type { INestApplicationContext } from '@nestjs/common';
import { type DirectRoute, ID_PATTERN, MAX_PAGE, MAX_PAGE_SIZE, oneOf, readQuery, wholeNumberIn } from '@shiliu/platform';
import { CommentListQuery } from './comment.dto';
import { CommentService } from './comment.service';

const COMMENTS_PATH = new RegExp(`^/api/posts/(${ID_PATTERN})/comments$`);
const defaults = new CommentListQuery();

/**
 * GET /api/posts/:id/comments, read with every note's detail, answered before express and Nest (DirectRoute): the
 * same call as CommentController.list, to which it leaves every call whose query it does not take as given.
 */
export function commentPageRoute(app: INestApplicationContext): DirectRoute {
  const comments = app.get(CommentService);
  return {
    pattern: '/api/posts/:id/comments',
    match(path, search) {
      const id = COMMENTS_PATH.exec(path)?.[1];
      const read = id === undefined ? null : readQuery(search, { page: wholeNumberIn(1, MAX_PAGE), limit: wholeNumberIn(1, MAX_PAGE_SIZE), sort: oneOf('desc', 'asc') });
      if (!read) return null;
      const { page = defaults.page, limit = defaults.limit, sort = defaults.sort } = read;
      return (caller) => comments.list(Number(id), caller.principal?.id ?? null, page, limit, sort);
    },
  };
}
