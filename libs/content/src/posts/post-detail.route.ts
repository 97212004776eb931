import type { INestApplicationContext } from '@nestjs/common';
import { type DirectRoute, ID_PATTERN, readQuery } from '@shiliu/platform';
import { viewerKey } from '../shared/viewer';
import { toFlag } from './post.dto';
import { PostService } from './post.service';

const DETAIL_PATH = new RegExp(`^/api/posts/(${ID_PATTERN})$`);

/**
 * GET /api/posts/:id, the most read call of all, answered before express and Nest (DirectRoute): the same call as
 * PostController.detail, whose path, query and token rules it follows and to which it leaves every call it does
 * not take.
 */
export function postDetailRoute(app: INestApplicationContext): DirectRoute {
  const posts = app.get(PostService);
  return {
    pattern: '/api/posts/:id',
    match(path, search) {
      const id = DETAIL_PATH.exec(path)?.[1];
      const read = id === undefined ? null : readQuery(search, { skipViewCount: flagOf });
      if (!read) return null;
      const skipViewCount = read.skipViewCount === true;
      return (caller) => posts.detail(Number(id), caller.principal?.id ?? null, viewerKey(caller.address, caller.userAgent, caller.principal), skipViewCount);
    },
  };
}

/** A flag in a form PostDetailQuery takes. */
function flagOf(value: string): boolean | undefined {
  const flag = toFlag({ value });
  return typeof flag === 'boolean' ? flag : undefined;
}
