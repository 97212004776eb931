/**
 * Where the gateway sends each /api call in distributed mode.
 *
 * Sources: spec/public-side.md section 7 and spec/admin-and-startup.md section 7
 * give the calls; DESIGN.md section 1 ("Services and what each owns") gives the
 * owner of each. The gateway takes the first entry whose method and path match,
 * so a literal path must come before a parameterised one of the same shape.
 * The gateway's own routes (/api/health, /api/docs/*, /metrics) are not here
 * because it answers them without a hop.
 */
import type { ServiceName } from '@shiliu/platform/core';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteEntry {
  method: HttpMethod;
  /** Express-style path under /api, e.g. '/api/posts/:id'. */
  path: string;
  service: ServiceName;
  /**
   * Only where it differs from the default: 'upload' for image uploads, 'video' for video upload (300 s timeout,
   * 100 MB body), 'stream' for a server-sent events stream (no timeout: it lasts as long as the client keeps it).
   */
  kind?: 'upload' | 'video' | 'stream';
}

export const routeTable: readonly RouteEntry[] = [
  // auth: public spec 7 "Authentication". Captcha and the ID check live here
  // because auth owns the captcha store and the users table.
  { method: 'POST', path: '/api/auth/login', service: 'auth' },
  { method: 'POST', path: '/api/auth/register', service: 'auth' },
  { method: 'POST', path: '/api/auth/logout', service: 'auth' },
  { method: 'POST', path: '/api/auth/refresh', service: 'auth' },
  { method: 'GET', path: '/api/auth/me', service: 'auth' },
  { method: 'GET', path: '/api/auth/captcha', service: 'auth' },
  { method: 'GET', path: '/api/auth/check-user-id', service: 'auth' },

  // auth: public spec 7 "Users". The literal /users/search and
  // /users/verification/* come first: '/api/users/:user_id' would otherwise
  // take them. The /users/ segment is the public user_id (DESIGN 1), named
  // :user_id everywhere so that one segment has one name across services.
  { method: 'GET', path: '/api/users/search', service: 'auth' },
  { method: 'GET', path: '/api/users/verification/status', service: 'auth' },
  { method: 'POST', path: '/api/users/verification', service: 'auth' },
  { method: 'DELETE', path: '/api/users/verification/revoke', service: 'auth' },
  // The follow states of many users at once (social, below) is literal too.
  { method: 'GET', path: '/api/users/follow-status', service: 'social' },
  // So are the people suggested to follow, which content answers from the follows it keeps for the 关注 feed.
  { method: 'GET', path: '/api/users/suggestions', service: 'content' },
  { method: 'GET', path: '/api/users/:user_id', service: 'auth' },
  { method: 'PUT', path: '/api/users/:user_id', service: 'auth' },
  { method: 'DELETE', path: '/api/users/:user_id', service: 'auth' },
  // Also called by the admin users table (admin spec 7); one entry serves both.
  { method: 'GET', path: '/api/users/:user_id/personality-tags', service: 'auth' },
  { method: 'PUT', path: '/api/users/:user_id/password', service: 'auth' },

  // auth: admin spec 7, admin sign-in and the admin-account calls the docs
  // page lists; auth owns the admins table, so both paths to it land here.
  { method: 'POST', path: '/api/auth/admin/login', service: 'auth' },
  { method: 'GET', path: '/api/auth/admin/me', service: 'auth' },
  { method: 'POST', path: '/api/auth/admin/logout', service: 'auth' },
  { method: 'POST', path: '/api/auth/admin/refresh', service: 'auth' },
  { method: 'GET', path: '/api/auth/admin/admins', service: 'auth' },
  { method: 'POST', path: '/api/auth/admin/admins', service: 'auth' },
  { method: 'PUT', path: '/api/auth/admin/admins/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/auth/admin/admins/:id', service: 'auth' },
  { method: 'PUT', path: '/api/auth/admin/admins/:id/password', service: 'auth' },

  // auth: admin spec 7 generic table (list, create, update, delete, bulk
  // delete with an ids body) for the entities auth owns: users, sessions,
  // admins, audit (verification applications).
  { method: 'GET', path: '/api/admin/users', service: 'auth' },
  { method: 'POST', path: '/api/admin/users', service: 'auth' },
  { method: 'PUT', path: '/api/admin/users/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/users/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/users', service: 'auth' },
  { method: 'GET', path: '/api/admin/sessions', service: 'auth' },
  { method: 'POST', path: '/api/admin/sessions', service: 'auth' },
  { method: 'PUT', path: '/api/admin/sessions/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/sessions/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/sessions', service: 'auth' },
  { method: 'GET', path: '/api/admin/admins', service: 'auth' },
  { method: 'POST', path: '/api/admin/admins', service: 'auth' },
  { method: 'PUT', path: '/api/admin/admins/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/admins/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/admins', service: 'auth' },
  { method: 'GET', path: '/api/admin/audit', service: 'auth' },
  { method: 'POST', path: '/api/admin/audit', service: 'auth' },
  { method: 'PUT', path: '/api/admin/audit/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/audit/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/audit', service: 'auth' },
  // Verification review: approving makes the user verified, which is auth's truth.
  { method: 'PUT', path: '/api/admin/audit/:id/approve', service: 'auth' },
  { method: 'PUT', path: '/api/admin/audit/:id/reject', service: 'auth' },
  // Listed only on the docs page; it reads users, so it goes to their owner.
  { method: 'GET', path: '/api/admin/test-users', service: 'auth' },
  // The banned-word list: auth's administrator area owns it (DESIGN.md §7); the public read is the list in force.
  { method: 'GET', path: '/api/banned-words', service: 'auth' },
  { method: 'GET', path: '/api/admin/banned-words', service: 'auth' },
  { method: 'POST', path: '/api/admin/banned-words', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/banned-words/:id', service: 'auth' },
  { method: 'DELETE', path: '/api/admin/banned-words', service: 'auth' },

  // content: public spec 7 "Users", the profile tabs. Content owns posts,
  // collections and likes, so these read its tables, not auth's.
  { method: 'GET', path: '/api/users/:user_id/posts', service: 'content' },
  { method: 'GET', path: '/api/users/:user_id/collections', service: 'content' },
  { method: 'GET', path: '/api/users/:user_id/likes', service: 'content' },

  // content: public spec 7 "Notes, comments, likes, tags". GET /categories
  // also serves the admin post form's category list (admin spec 7, path not shown).
  { method: 'GET', path: '/api/categories', service: 'content' },
  { method: 'GET', path: '/api/posts', service: 'content' },
  // Also the admin media view (admin spec 7); one entry serves both.
  { method: 'GET', path: '/api/posts/:id', service: 'content' },
  { method: 'POST', path: '/api/posts', service: 'content' },
  { method: 'PUT', path: '/api/posts/:id', service: 'content' },
  { method: 'DELETE', path: '/api/posts/:id', service: 'content' },
  { method: 'POST', path: '/api/posts/:id/collect', service: 'content' },
  { method: 'DELETE', path: '/api/posts/:id/collect', service: 'content' },
  { method: 'POST', path: '/api/likes', service: 'content' },
  { method: 'DELETE', path: '/api/likes', service: 'content' },
  { method: 'GET', path: '/api/posts/:id/comments', service: 'content' },
  // DESIGN.md §7 "Feeds": the note page's 相关推荐.
  { method: 'GET', path: '/api/posts/:id/related', service: 'content' },
  { method: 'GET', path: '/api/comments/:id/replies', service: 'content' },
  { method: 'POST', path: '/api/comments', service: 'content' },
  { method: 'DELETE', path: '/api/comments/:id', service: 'content' },
  { method: 'GET', path: '/api/tags', service: 'content' },
  { method: 'GET', path: '/api/tags/hot', service: 'content' },

  // content: admin spec 7 generic table for the entities content owns: posts,
  // comments, categories, tags, likes, collections. Only posts has a
  // get-one call (the edit form needs images, tags, type, cover_url).
  { method: 'GET', path: '/api/admin/posts', service: 'content' },
  { method: 'GET', path: '/api/admin/posts/:id', service: 'content' },
  { method: 'POST', path: '/api/admin/posts', service: 'content' },
  { method: 'PUT', path: '/api/admin/posts/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/posts/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/posts', service: 'content' },
  { method: 'GET', path: '/api/admin/comments', service: 'content' },
  { method: 'POST', path: '/api/admin/comments', service: 'content' },
  { method: 'PUT', path: '/api/admin/comments/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/comments/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/comments', service: 'content' },
  { method: 'GET', path: '/api/admin/categories', service: 'content' },
  { method: 'POST', path: '/api/admin/categories', service: 'content' },
  { method: 'PUT', path: '/api/admin/categories/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/categories/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/categories', service: 'content' },
  { method: 'GET', path: '/api/admin/tags', service: 'content' },
  { method: 'POST', path: '/api/admin/tags', service: 'content' },
  { method: 'PUT', path: '/api/admin/tags/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/tags/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/tags', service: 'content' },
  { method: 'GET', path: '/api/admin/likes', service: 'content' },
  { method: 'POST', path: '/api/admin/likes', service: 'content' },
  { method: 'PUT', path: '/api/admin/likes/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/likes/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/likes', service: 'content' },
  { method: 'GET', path: '/api/admin/collections', service: 'content' },
  { method: 'POST', path: '/api/admin/collections', service: 'content' },
  { method: 'PUT', path: '/api/admin/collections/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/collections/:id', service: 'content' },
  { method: 'DELETE', path: '/api/admin/collections', service: 'content' },

  // social: public spec 7 "Users". Social owns follows and the per-user
  // counters, so stats are answered from its read model.
  { method: 'POST', path: '/api/users/:user_id/follow', service: 'social' },
  { method: 'DELETE', path: '/api/users/:user_id/follow', service: 'social' },
  { method: 'GET', path: '/api/users/:user_id/mutual-follows', service: 'social' },
  { method: 'GET', path: '/api/users/:user_id/following', service: 'social' },
  { method: 'GET', path: '/api/users/:user_id/followers', service: 'social' },
  { method: 'GET', path: '/api/users/:user_id/follow-status', service: 'social' },
  { method: 'GET', path: '/api/users/:user_id/stats', service: 'social' },
  // The hover user card (admin spec 3), answered from social's own read model.
  { method: 'GET', path: '/api/users/:user_id/card', service: 'social' },

  // social: admin spec 7 generic table for follows.
  { method: 'GET', path: '/api/admin/follows', service: 'social' },
  { method: 'POST', path: '/api/admin/follows', service: 'social' },
  { method: 'PUT', path: '/api/admin/follows/:id', service: 'social' },
  { method: 'DELETE', path: '/api/admin/follows/:id', service: 'social' },
  { method: 'DELETE', path: '/api/admin/follows', service: 'social' },

  // notify: public spec 7 "Notifications".
  { method: 'GET', path: '/api/notifications/comments', service: 'notify' },
  { method: 'GET', path: '/api/notifications/likes', service: 'notify' },
  { method: 'GET', path: '/api/notifications/follows', service: 'notify' },
  { method: 'GET', path: '/api/notifications/collections', service: 'notify' },
  // DESIGN.md §7 "Notifications": a whole group of ?group=target read at once.
  { method: 'PUT', path: '/api/notifications/groups/read', service: 'notify' },
  { method: 'PUT', path: '/api/notifications/:id/read', service: 'notify' },
  { method: 'PUT', path: '/api/notifications/read-all', service: 'notify' },
  { method: 'GET', path: '/api/notifications/unread-count', service: 'notify' },
  { method: 'GET', path: '/api/notifications/unread-count-by-type', service: 'notify' },
  // The live unread badge (public spec 4 "Unread badge"), a server-sent events stream opened with a single-use ticket.
  { method: 'POST', path: '/api/notifications/stream/ticket', service: 'notify' },
  { method: 'GET', path: '/api/notifications/stream', service: 'notify', kind: 'stream' },
  { method: 'DELETE', path: '/api/notifications/:id', service: 'notify' },

  // notify: admin spec 7 generic table for notifications, and the activity
  // monitor, which notify builds from the events it already consumes.
  { method: 'GET', path: '/api/admin/notifications', service: 'notify' },
  { method: 'POST', path: '/api/admin/notifications', service: 'notify' },
  { method: 'PUT', path: '/api/admin/notifications/:id', service: 'notify' },
  { method: 'DELETE', path: '/api/admin/notifications/:id', service: 'notify' },
  { method: 'DELETE', path: '/api/admin/notifications', service: 'notify' },
  { method: 'GET', path: '/api/admin/monitor/activities', service: 'notify' },
  // The administrators' audit log, kept by notify from every service's admin.acted events.
  { method: 'GET', path: '/api/admin/monitor/admin-actions', service: 'notify' },

  // search: public spec 7 "Notes, comments, likes, tags, search". The user
  // search for mentions (/users/search) stays with auth, as DESIGN 1 says.
  { method: 'GET', path: '/api/search/posts', service: 'search' },
  { method: 'GET', path: '/api/search/suggest', service: 'search' },
  { method: 'GET', path: '/api/search', service: 'search' },

  // media: public spec 7 "Uploads". Multipart bodies need the upload limits;
  // video needs the long timeout and the 100 MB body.
  { method: 'POST', path: '/api/upload/single', service: 'media', kind: 'upload' },
  { method: 'POST', path: '/api/upload/image', service: 'media', kind: 'upload' },
  { method: 'POST', path: '/api/upload/multiple', service: 'media', kind: 'upload' },
  { method: 'POST', path: '/api/upload/video', service: 'media', kind: 'video' },
  // Progress of the job that makes an uploaded video playable (spec 7: "progress percent reported").
  { method: 'GET', path: '/api/upload/video/jobs/:id', service: 'media' },
  // The object URLs media hands out (DESIGN 1); the spec names no path for them.
  { method: 'GET', path: '/api/files/*path', service: 'media' },
];
