import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { postDeleted, postDraftSaved, postPublished, postUpdated, userMentioned } from '@shiliu/contracts';
import { BannedWords, messageForStatus, offsetOf, Outbox, type Pagination, pagination, type Principal } from '@shiliu/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { AuthorRepository } from '../authors/author.repository';
import { CategoryRepository } from '../categories/category.repository';
import { MediaObjects } from '../shared/media-objects';
import { type CachedFeedPage, ReadCache } from '../shared/read-cache';
import { findMentions, resolveMentions, sanitizeRichText, textLength, toPlainLine, toPlainText } from '../shared/rich-text';
import { badRequest, notFound } from '../shared/sql';
import { TagRepository } from '../tags/tag.repository';
import type { FeedSort, PostFormDto, PostListQuery, UserPostListQuery } from './post.dto';
import { type FeedFilter, type FeedOrder, PostRepository, type PostRecord, type PostRow, type PostValues } from './post.repository';
import { FeedRankings, MOVING_ORDERS, RANKING_DEPTH } from './feed-rankings';
import { toPostView, type PostView } from './post.view';
import { RecommendService } from './recommend.service';
import { RelatedPostRepository } from './related-post.repository';
import { ViewCounter } from './view-counter';

export const TITLE_MAX = 100;
export const CONTENT_MAX = 2000;
export const TAGS_MAX = 10;
export const TAG_LENGTH_MAX = 8;
export const IMAGES_MAX = 9;
/** The `category` of the 关注 feed (DESIGN.md §7). */
export const FOLLOWING = 'following';

export interface PostPage {
  posts: PostView[];
  pagination: Pagination & { snapshot: string };
}

export type DraftView = PostView & { originalData: { content: string; images: string[]; tags: string[] } };

/** Images and video already looked up in object storage. */
interface MediaOnHand {
  images: PostValues['images'];
  video: PostValues['video'];
}

/** Which rule set a form is checked against: the publish page's (POST) or the edit form's (PUT), whose message differs. */
type FormMode = 'create' | 'edit';

const SORT_ORDER: Record<FeedSort, FeedOrder> = {
  hot: 'hot',
  popular: 'hot',
  created_at: 'newest',
  newest: 'newest',
  latest: 'newest',
  oldest: 'oldest',
  like_count: 'likes',
  likes: 'likes',
  view_count: 'views',
  views: 'views',
};

@Injectable()
export class PostService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly posts: PostRepository,
    private readonly authors: AuthorRepository,
    private readonly categories: CategoryRepository,
    private readonly tags: TagRepository,
    private readonly media: MediaObjects,
    private readonly outbox: Outbox,
    private readonly views: ViewCounter,
    private readonly rankings: FeedRankings,
    private readonly cache: ReadCache,
    private readonly relatedPosts: RelatedPostRepository,
    private readonly bannedWords: BannedWords,
    private readonly recommend: RecommendService,
  ) {}

  /** `at` lets the demo seed date its notes in the past; requests always create them now. */
  async create(principal: Principal, form: PostFormDto, at: Date | null = null): Promise<PostView> {
    const preloaded = await this.preloadMedia(form, null);
    const id = await this.dataSource.transaction(async (manager) => {
      await this.authors.requireKnown(manager, principal);
      const isDraft = form.is_draft === true;
      const prepared = await this.prepare(manager, form, null, isDraft, 'create', preloaded);
      const id = await this.posts.insert(manager, principal.id, prepared.values, at);
      await this.tags.recount(manager, await this.tags.setPostTags(manager, id, prepared.tags));
      await this.posts.replaceMentions(manager, id, prepared.mentionIds);
      if (isDraft) await this.outbox.add(manager, postDraftSaved, { post: await this.posts.snapshot(manager, id) });
      else await this.announcePublished(manager, id, principal.id, prepared.mentionIds);
      return id;
    });
    return this.view(id, principal.id);
  }

  async update(principal: Principal, id: number, form: PostFormDto): Promise<PostView> {
    const preloaded = await this.preloadMedia(form, await this.posts.find(this.dataSource.manager, id));
    await this.dataSource.transaction(async (manager) => {
      const existing = await this.posts.lock(manager, id);
      if (!existing) throw notFound();
      if (String(existing.author_id) !== principal.id) throw notOwned(existing);
      if (!existing.is_draft && form.is_draft === true) throw badRequest('已发布的笔记不能改为草稿');
      const isDraft = existing.is_draft && form.is_draft !== false;
      const publishing = existing.is_draft && !isDraft;
      const prepared = await this.prepare(manager, form, existing, isDraft, 'edit', preloaded);
      await this.posts.update(manager, id, prepared.values, publishing);
      await this.tags.recount(manager, await this.tags.setPostTags(manager, id, prepared.tags));
      const before = await this.posts.replaceMentions(manager, id, prepared.mentionIds);
      if (publishing) {
        await this.announcePublished(manager, id, principal.id, prepared.mentionIds);
      } else if (!isDraft) {
        await this.outbox.add(manager, postUpdated, { post: await this.posts.snapshot(manager, id) });
        // On edit only the users mentioned for the first time hear about it.
        await this.announceMentions(manager, id, principal.id, prepared.mentionIds.filter((userId) => !before.includes(userId)));
      } else {
        await this.outbox.add(manager, postDraftSaved, { post: await this.posts.snapshot(manager, id) });
      }
    });
    return this.view(id, principal.id);
  }

  async remove(principal: Principal, id: number): Promise<{ id: number }> {
    await this.dataSource.transaction(async (manager) => {
      const existing = await this.posts.lock(manager, id);
      if (!existing) throw notFound();
      if (String(existing.author_id) !== principal.id) throw notOwned(existing);
      await this.removeWithin(manager, existing);
    });
    return { id };
  }

  /** Deletes a locked note in the caller's transaction (its author's request, or the author's account going away). */
  async removeWithin(manager: EntityManager, post: PostRecord): Promise<void> {
    const id = Number(post.id);
    const tagIds = await this.tags.tagIdsOfPosts(manager, [id]);
    await this.posts.remove(manager, id);
    await this.tags.recount(manager, tagIds);
    await this.outbox.add(manager, postDeleted, {
      id,
      author_id: Number(post.author_id),
      was_draft: post.is_draft,
      like_count: post.like_count,
      collect_count: post.collect_count,
      comment_count: post.comment_count,
      images: post.images.map((image) => image.url),
      video_url: post.video?.url ?? null,
      cover_url: post.video?.cover_url ?? null,
    });
  }

  /**
   * A note for its reader: someone else's draft does not exist for them. A published note counts the view
   * unless the client says it counted it already (`skipViewCount`) or this viewer was counted in the last hour.
   */
  async detail(id: number, viewerId: string | null, viewer: string, skipViewCount: boolean): Promise<PostView | DraftView> {
    const published = await this.cache.through(this.cache.details, String(id), String(id), () => this.posts.findPublished(id));
    const row = published ? (await this.withViewerFlags([published], viewerId))[0] : await this.posts.findRow(this.dataSource.manager, id, viewerId);
    if (!row || (row.is_draft && String(row.author_id) !== viewerId)) throw notFound();
    if (!row.is_draft) row.view_count += await this.views.count(id, skipViewCount ? null : viewer);
    const view = toPostView(row);
    if (!row.is_draft) return view;
    return { ...view, originalData: { content: row.content, images: row.images.map((image) => image.url), tags: row.tags.map((tag) => tag.name) } };
  }

  async feed(query: PostListQuery, principal: Principal | undefined): Promise<PostPage> {
    const filter: FeedFilter = { drafts: query.is_draft === true, snapshot: snapshotOf(query.snapshot) };
    let defaultOrder: FeedOrder = 'hot';
    if (filter.drafts) {
      // Drafts are listed to their author only.
      if (!principal) throw new UnauthorizedException(messageForStatus(401));
      if (query.user_id && query.user_id !== principal.userId && query.user_id !== principal.id) throw new ForbiddenException(messageForStatus(403));
      filter.authorId = principal.id;
      defaultOrder = 'newest';
    } else if (query.user_id) {
      const author = await this.authors.findByUserId(query.user_id);
      if (!author) return emptyPage(query.page, query.limit, filter.snapshot);
      filter.authorId = author.id;
      defaultOrder = 'newest';
    }
    if (query.category?.trim() === FOLLOWING) {
      // The 关注 feed is the viewer's own: newest first, read when asked (libs/content/README.md, "The 关注 feed").
      if (!principal) throw new UnauthorizedException(messageForStatus(401));
      filter.followerId = principal.id;
      defaultOrder = 'newest';
    } else {
      this.applyCategory(filter, query.category, query.category_id);
    }
    if (filter.categoryId !== undefined || filter.categoryTitle !== undefined) defaultOrder = 'newest';
    if (query.type !== undefined) filter.type = query.type;
    const keyword = query.keyword?.trim();
    if (keyword) filter.keyword = keyword;
    const order = query.sort && filter.followerId === undefined ? SORT_ORDER[query.sort] : defaultOrder;
    return this.page(filter, order, Boolean(query.snapshot), principal?.id ?? null, query.page, query.limit);
  }

  async userPosts(userId: string, query: UserPostListQuery, principal: Principal | undefined): Promise<PostPage> {
    const author = await this.authors.findByUserId(userId);
    if (!author) throw notFound();
    const filter: FeedFilter = { drafts: false, snapshot: snapshotOf(query.snapshot), authorId: author.id };
    this.applyCategory(filter, query.category, undefined);
    const keyword = query.keyword?.trim();
    if (keyword) filter.keyword = keyword;
    return this.page(filter, query.sort ? SORT_ORDER[query.sort] : 'newest', Boolean(query.snapshot), principal?.id ?? null, query.page, query.limit);
  }

  async reacted(kind: 'likes' | 'collections', userId: string, page: number, limit: number, principal: Principal | undefined): Promise<{ posts: PostView[]; pagination: Pagination }> {
    const author = await this.authors.findByUserId(userId);
    if (!author) throw notFound();
    const { rows, total } = await this.posts.reactedPage(kind, author.id, principal?.id ?? null, limit, offsetOf(page, limit));
    return { posts: rows.map(toPostView), pagination: pagination(page, limit, total) };
  }

  /** Published notes close to note `id` (RelatedPostRepository), as feed cards for the viewer; 404 when `id` is no published note. */
  async related(id: number, limit: number, viewerId: string | null): Promise<{ posts: PostView[] }> {
    const ids = await this.relatedPosts.rank(id, limit);
    if (!ids) throw notFound();
    return { posts: (await this.withViewerFlags(await this.cardsOf(ids), viewerId)).map(toPostView) };
  }

  /** A page of a feed, for the viewer. */
  private async page(filter: FeedFilter, order: FeedOrder, resumed: boolean, viewerId: string | null, page: number, limit: number): Promise<PostPage> {
    if (viewerId !== null && isRecommend(filter, order)) return this.recommendedPage(filter, resumed, viewerId, page, limit);
    // A channel's page as it is now is the same for everyone: its ids, total and snapshot are kept, its cards too.
    if (!resumed && !filter.drafts && filter.authorId === undefined && filter.followerId === undefined && !filter.keyword) {
      const key = [order, filter.categoryId, filter.categoryTitle, filter.type, page, limit].join('|');
      const shared = await this.cache.through(this.cache.feeds, MOVING_ORDERS.has(order) ? 'm' : 'f', key, () => this.sharedPage(filter, order, page, limit));
      if (shared) {
        const rows = await this.withViewerFlags(await this.cardsOf(shared.ids), viewerId);
        return { posts: rows.map(toPostView), pagination: { ...pagination(page, limit, shared.total), snapshot: shared.snapshot } };
      }
    }
    const { rows, total } = await this.pageRows(filter, order, resumed, viewerId, page, limit);
    return { posts: rows.map(toPostView), pagination: { ...pagination(page, limit, total), snapshot: filter.snapshot.toISOString() } };
  }

  /**
   * A page of a feed. A moving order pages over the ranking frozen when the scroll began (`resumed`: the client
   * sent page 1's snapshot back); a first page draws that ranking from the present. Past the frozen depth, or
   * once the ranking has expired, pages follow the live order, as the time orders always do.
   */
  private async pageRows(filter: FeedFilter, order: FeedOrder, resumed: boolean, viewerId: string | null, page: number, limit: number): Promise<{ rows: PostRow[]; total: number }> {
    const offset = offsetOf(page, limit);
    const ranking = MOVING_ORDERS.has(order) ? await (resumed ? this.rankings.find(filter, order) : this.freeze(filter, order, limit)) : null;
    const covered = ranking !== null && (offset + limit <= ranking.length || ranking.length < RANKING_DEPTH);
    return covered ? this.posts.rankedPage(filter, ranking.slice(offset, offset + limit), viewerId) : this.posts.page(filter, order, viewerId, limit, offset);
  }

  /**
   * A page of the viewer's own 推荐 (libs/content/README.md, "The personalised 推荐"). A first page ranks afresh and
   * keeps the ranking for the scroll's next pages, as the moving orders do; once it has expired they follow the
   * engagement order. Past the ranking the feed goes on in the engagement order, without the notes ranked.
   */
  private async recommendedPage(filter: FeedFilter, resumed: boolean, viewerId: string, page: number, limit: number): Promise<PostPage> {
    const personal: FeedFilter = { ...filter, exceptAuthorId: viewerId };
    const offset = offsetOf(page, limit);
    const snapshot = filter.snapshot.toISOString();
    let ranking: number[] | null;
    let total: number;
    if (resumed) {
      [ranking, total] = await Promise.all([this.rankings.find(personal, 'hot'), this.recommend.total(viewerId)]);
    } else {
      ({ ids: ranking, total } = await this.recommend.ranking(viewerId, RANKING_DEPTH));
      if (ranking.length > limit) await this.rankings.save(personal, 'hot', ranking);
    }
    if (ranking === null) {
      const live = await this.posts.page(personal, 'hot', viewerId, limit, offset);
      return { posts: live.rows.map(toPostView), pagination: { ...pagination(page, limit, live.total), snapshot } };
    }
    const ids = ranking.slice(offset, offset + limit);
    let rows = await this.withViewerFlags(await this.cardsOf(ids), viewerId);
    if (ids.length < limit) {
      const rest = await this.posts.page({ ...personal, exceptIds: ranking }, 'hot', viewerId, limit - ids.length, Math.max(0, offset - ranking.length));
      rows = [...rows, ...rest.rows];
    }
    return { posts: rows.map(toPostView), pagination: { ...pagination(page, limit, total), snapshot } };
  }

  /** A channel's page as anyone sees it; its cards are kept for the pages that name them. */
  private async sharedPage(filter: FeedFilter, order: FeedOrder, page: number, limit: number): Promise<CachedFeedPage> {
    const startedAt = this.cache.begin();
    const { rows, total } = await this.pageRows(filter, order, false, null, page, limit);
    if (this.cache.live) for (const row of rows) this.cache.cards.set(startedAt, row, String(row.id));
    return { ids: rows.map((row) => Number(row.id)), total, snapshot: filter.snapshot.toISOString() };
  }

  /** Cards of the notes named, in that order (shared: never changed), from the cache or read together; notes deleted meanwhile are left out. */
  private async cardsOf(ids: number[]): Promise<PostRow[]> {
    const found = new Map<string, PostRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const card = this.cache.live ? this.cache.cards.get(String(id)) : undefined;
      if (card) found.set(String(id), card);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const startedAt = this.cache.begin();
      for (const row of await this.posts.cards(missing)) {
        found.set(String(row.id), row);
        if (this.cache.live) this.cache.cards.set(startedAt, row, String(row.id));
      }
    }
    return ids.flatMap((id) => found.get(String(id)) ?? []);
  }

  /** Lays the viewer's likes and collections over notes read for anyone (copies: cached rows are shared). */
  private async withViewerFlags(rows: PostRow[], viewerId: string | null): Promise<PostRow[]> {
    if (viewerId === null || rows.length === 0) return rows.map((row) => ({ ...row, liked: false, collected: false }));
    const flags = await Promise.all(rows.map((row) => this.posts.viewerFlagsOf(viewerId, Number(row.id))));
    return rows.map((row, index) => ({ ...row, ...flags[index] }));
  }

  /** The present ranking of a feed, kept for the scroll's next pages when there are any. */
  private async freeze(filter: FeedFilter, order: FeedOrder, limit: number): Promise<number[]> {
    const ids = await this.posts.ranking(filter, order, RANKING_DEPTH);
    if (ids.length > limit) await this.rankings.save(filter, order, ids);
    return ids;
  }

  /** `category` is a channel's category_title (`recommend` or nothing: every category), or a numeric id. */
  private applyCategory(filter: FeedFilter, category: string | undefined, categoryId: number | undefined): void {
    const value = category?.trim();
    if (categoryId !== undefined) filter.categoryId = categoryId;
    else if (value && /^[0-9]{1,9}$/.test(value)) filter.categoryId = Number(value);
    else if (value && value !== 'recommend') filter.categoryTitle = value;
  }

  private async view(id: number, viewerId: string): Promise<PostView> {
    const row = await this.posts.findRow(this.dataSource.manager, id, viewerId);
    if (!row) throw notFound();
    return toPostView(row);
  }

  private async announcePublished(manager: EntityManager, id: number, authorId: string, mentionIds: string[]): Promise<void> {
    await this.outbox.add(manager, postPublished, { post: await this.posts.snapshot(manager, id) });
    await this.announceMentions(manager, id, authorId, mentionIds);
  }

  private async announceMentions(manager: EntityManager, postId: number, authorId: string, userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      if (userId === authorId) continue;
      await this.outbox.add(manager, userMentioned, { source: 'post', post_id: postId, comment_id: null, mentioned_user_id: Number(userId), author_id: Number(authorId) });
    }
  }

  /**
   * Looks up, before any transaction, the images and video a form names: storage can be slow and every like,
   * collection and comment on an edited note waits for its row lock; and the image details are read on a pool
   * connection of their own, which transactions that each hold one could wait for until none is left. Inside the
   * transaction they are then known; only input that fails here is looked at again there, to answer its 400.
   */
  private async preloadMedia(form: PostFormDto, current: PostRecord | null): Promise<MediaOnHand> {
    const images = form.images ? await this.media.images(form.images, current?.images ?? []).catch(() => []) : [];
    const video = form.video ? await this.media.video(form.video, current?.video ?? null).catch(() => null) : null;
    return { images, video };
  }

  /**
   * Turns a form (merged over the stored note on edit) into the values to store, enforcing public-side.md §5:
   * text limits count characters of text without markup, media depend on the type, drafts need a title or content.
   */
  private async prepare(
    manager: EntityManager,
    form: PostFormDto,
    existing: PostRecord | null,
    isDraft: boolean,
    mode: FormMode,
    onHand: MediaOnHand = { images: [], video: null },
  ) {
    const title = toPlainLine(form.title ?? existing?.title ?? '');
    const sanitized = sanitizeRichText(form.content ?? existing?.content ?? '');
    const mentioned = await this.authors.findByUserIds(manager, [...new Set(findMentions(sanitized).map((mention) => mention.userId))]);
    const { text: content, userIds } = resolveMentions(sanitized, new Set(mentioned.map((author) => author.user_id)));
    const mentionIds = userIds.map((userId) => mentioned.find((author) => author.user_id === userId)!.id).map(String);
    const contentText = toPlainText(content);
    const type: 1 | 2 = form.type ?? (existing?.type === 2 ? 2 : 1);
    const categoryId = form.category_id ?? existing?.category_id ?? null;

    if (isDraft) {
      if (!title && !contentText) throw badRequest('请输入标题或内容');
    } else if (mode === 'edit') {
      if (!title || !contentText) throw badRequest('请填写完整信息');
    } else {
      if (!title) throw badRequest('请输入标题');
      if (!contentText) throw badRequest('请输入内容');
    }
    if (textLength(title) > TITLE_MAX) throw badRequest(`标题不能超过${TITLE_MAX}个字符`);
    if (textLength(contentText) > CONTENT_MAX) throw badRequest(`内容不能超过${CONTENT_MAX}个字符`);
    if (categoryId === null && !isDraft) throw badRequest('请选择分类');
    if (categoryId !== null && !(await this.categories.exists(manager, categoryId))) throw badRequest('分类不存在');
    const tags = normaliseTags(form.tags ?? (existing ? await this.tags.namesOfPost(manager, Number(existing.id)) : []));
    this.bannedWords.check(title, contentText, ...tags);

    const imageInputs = form.images ?? existing?.images.map((image) => image.url) ?? [];
    const videoInput = form.video === undefined ? (existing?.video ?? null) : form.video;
    let images: PostValues['images'] = [];
    let video: PostValues['video'] = null;
    if (type === 1) {
      if (videoInput && form.video !== undefined) throw badRequest('图文笔记不能包含视频');
      if (imageInputs.length === 0) throw badRequest('请至少上传一张图片');
      if (imageInputs.length > IMAGES_MAX) throw badRequest(`最多只能上传${IMAGES_MAX}张图片`);
      images = await this.media.images(imageInputs, [...(existing?.images ?? []), ...onHand.images]);
    } else {
      if (!videoInput) throw badRequest('请选择视频文件');
      if (form.images !== undefined && form.images.length > 0) throw badRequest('视频笔记不能包含图片');
      video = await this.media.video(videoInput, onHand.video ?? existing?.video ?? null);
    }
    const values: PostValues = { title, content, contentText, categoryId, type, isDraft, images, video, coverUrl: video?.cover_url ?? images[0]?.url ?? null };
    return { values, tags, mentionIds };
  }
}

/** Tags as the tag input keeps them (public-side.md §5): trimmed, empty ones dropped, duplicates (any case) once. */
export function normaliseTags(input: string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of input) {
    const tag = toPlainLine(raw);
    if (!tag) continue;
    if (textLength(tag) > TAG_LENGTH_MAX) throw badRequest(`标签不能超过${TAG_LENGTH_MAX}个字符`);
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  if (tags.length > TAGS_MAX) throw badRequest(`最多只能选择${TAGS_MAX}个标签`);
  return tags;
}

/** The snapshot a client sends back (ISO time or epoch milliseconds), or now for a first page. */
export function snapshotOf(value: string | undefined): Date {
  if (!value) return new Date();
  const date = /^[0-9]{10,15}$/.test(value) ? new Date(Number(value)) : new Date(value);
  if (Number.isNaN(date.getTime())) throw badRequest('snapshot 格式不正确');
  return date;
}

/** The 推荐 itself (every published note, by engagement and freshness), which a logged-in viewer gets personalised. */
function isRecommend(filter: FeedFilter, order: FeedOrder): boolean {
  const narrowed = [filter.categoryId, filter.categoryTitle, filter.type, filter.authorId, filter.followerId, filter.keyword].some((value) => value !== undefined);
  return order === 'hot' && !filter.drafts && !narrowed;
}

function emptyPage(page: number, limit: number, snapshot: Date): PostPage {
  return { posts: [], pagination: { ...pagination(page, limit, 0), snapshot: snapshot.toISOString() } };
}

/** Another's note may not be changed (403); another's draft, which only its author can read, is not there at all (404). */
function notOwned(post: PostRecord): Error {
  return post.is_draft ? notFound() : new ForbiddenException(messageForStatus(403));
}
