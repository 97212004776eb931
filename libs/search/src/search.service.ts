import { BadRequestException, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { cardImages } from '@shiliu/contracts';
import { offsetOf, pagination, type Principal } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { type PostHits, SEARCH_ENGINE, type SearchEngine, SearchUnavailableError, type UserHits } from './engine/search-engine';
import { highlight } from './highlight';
import { PostRepository, type PostRow } from './posts/post.repository';
import { canonicalType, type SearchKeywordQuery, type SearchQuery } from './search.dto';
import type { SearchPagination, SearchPostView, SearchResult, SearchUserView, SuggestionList } from './search.view';
import { UserRepository, type UserRow } from './users/user.repository';
import { ViewerStateRepository } from './viewers/viewer-state.repository';

/** Words beyond these add nothing a person meant and only cost the engine. */
const MAX_TERMS = 10;
const EXCERPT_LENGTH = 100;
const SUGGESTIONS = 10;
/**
 * How old the counts and badges on the cards of a kept answer may be. Whatever a card is found by (a title, a tag,
 * an author's name) changes the answer itself (IndexChanges), and each viewer's like and collection is read per
 * request: what waits is a like count, as on any busy site's result page.
 */
const CARDS_MS = 5000;

export const SEARCH_UNAVAILABLE = '搜索服务暂时不可用，请稍后重试';
export const SEARCH_NEEDS_INPUT = '请输入搜索关键词或选择标签';

interface Shared<C> {
  readAt: number;
  value: Promise<C>;
}

/**
 * The words of a keyword, in one order: every word must match and the ranking adds up their weights, so 野餐 食堂
 * and 食堂 野餐 are one question, asked of the engine (and kept) once.
 */
function termsOf(keyword: string | undefined): string[] {
  if (keyword === undefined) return [];
  return [...new Set(keyword.split(/\s+/).filter((word) => word !== ''))].slice(0, MAX_TERMS).sort();
}

function buttonType(viewerFollows: boolean, followsViewer: boolean): SearchUserView['buttonType'] {
  if (viewerFollows) return followsViewer ? 'mutual' : 'unfollow';
  return followsViewer ? 'back' : 'follow';
}

/** Search over notes and users (public-side.md §7): the engine finds and ranks, the read model fills the cards. */
@Injectable()
export class SearchService {
  constructor(
    @Inject(SEARCH_ENGINE) private readonly engine: SearchEngine,
    private readonly dataSource: DataSource,
    private readonly posts: PostRepository,
    private readonly users: UserRepository,
    private readonly viewers: ViewerStateRepository,
  ) {}

  private readonly sharedPostCards = new WeakMap<PostHits, Shared<SearchPostView[]>>();
  private readonly sharedUserRows = new WeakMap<UserHits, Shared<{ rows: UserRow[]; postCounts: Map<string, number> }>>();

  async search(query: SearchQuery, viewer: Principal | undefined): Promise<SearchResult> {
    if (query.keyword === undefined && query.tag === undefined) throw new BadRequestException(SEARCH_NEEDS_INPUT);
    const type = canonicalType(query.type);
    const terms = termsOf(query.keyword);
    const offset = offsetOf(query.page, query.limit);
    return this.available(async () => {
      const [postHits, userHits] = await Promise.all([
        type === 'users' ? null : this.engine.searchPosts({ terms, tag: query.tag ?? null, kind: type, offset, limit: query.limit }),
        query.keyword !== undefined && (type === 'all' || type === 'users') ? this.engine.searchUsers(query.keyword, offset, query.limit) : null,
      ]);
      const [posts, users] = await Promise.all([postHits ? this.postCards(postHits, terms, viewer) : [], userHits ? this.userCards(userHits, viewer) : []]);
      return {
        posts: { data: posts, pagination: pagination(query.page, query.limit, postHits?.total ?? 0) },
        users: { data: users, pagination: pagination(query.page, query.limit, userHits?.total ?? 0) },
        tagStats: (postHits?.tagStats ?? []).map((stat) => ({ id: stat.tag, label: stat.tag, count: stat.count })),
      };
    });
  }

  async searchPosts(query: SearchKeywordQuery, viewer: Principal | undefined): Promise<{ posts: SearchPostView[]; pagination: SearchPagination }> {
    if (query.keyword === undefined) throw new BadRequestException(SEARCH_NEEDS_INPUT);
    const terms = termsOf(query.keyword);
    return this.available(async () => {
      const hits = await this.engine.searchPosts({ terms, tag: null, kind: 'all', offset: offsetOf(query.page, query.limit), limit: query.limit });
      return { posts: await this.postCards(hits, terms, viewer), pagination: pagination(query.page, query.limit, hits.total) };
    });
  }

  async suggest(keyword: string): Promise<SuggestionList> {
    return this.available(async () => ({ suggestions: await this.engine.suggest(keyword, SUGGESTIONS) }));
  }

  private async available<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SearchUnavailableError) throw new ServiceUnavailableException(SEARCH_UNAVAILABLE);
      throw error;
    }
  }

  /** The cards of the hits, in their order, with the viewer's like and collection of each. */
  private async postCards(hits: PostHits, terms: string[], viewer: Principal | undefined): Promise<SearchPostView[]> {
    const [cards, reactions] = await Promise.all([
      this.shared(this.sharedPostCards, hits, () => this.readPostCards(hits.ids, terms)),
      viewer ? this.viewers.reactions(this.dataSource, Number(viewer.id), hits.ids) : null,
    ]);
    if (!reactions) return cards;
    return cards.map((card) => ({ ...card, liked: reactions.has(`like:${card.id}`), collected: reactions.has(`collect:${card.id}`) }));
  }

  /**
   * What every viewer of one engine answer is shown alike, read once per answer and CARDS_MS: the engine keeps an
   * answer a while (CachedSearchEngine) and hands the same object to everyone who asks meanwhile, so a popular search
   * stops costing a read-model query per request.
   */
  private shared<H extends object, C>(cards: WeakMap<H, Shared<C>>, hits: H, read: () => Promise<C>): Promise<C> {
    const now = Date.now();
    const kept = cards.get(hits);
    if (kept && kept.readAt + CARDS_MS > now) return kept.value;
    const fresh = { readAt: now, value: read() };
    cards.set(hits, fresh);
    // A failed read is not kept: the next request for the same answer reads again.
    fresh.value.catch(() => {
      if (cards.get(hits) === fresh) cards.delete(hits);
    });
    return fresh.value;
  }

  /** The cards of `ids`, in that order, as a logged-out viewer sees them; one the engine still knows but the read model has since lost is left out. */
  private async readPostCards(ids: number[], terms: string[]): Promise<SearchPostView[]> {
    const rows = await this.posts.byIds(this.dataSource, ids);
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    const authors = await this.users.authors(this.dataSource, [...new Set(rows.map((row) => Number(row.author_id)))]);
    return ids.flatMap((id) => {
      const row = byId.get(String(id));
      return row ? [this.postCard(row, authors.get(String(row.author_id)), terms)] : [];
    });
  }

  private postCard(row: PostRow, author: UserRow | undefined, terms: string[]): SearchPostView {
    const cover = row.cover_url ?? row.images[0] ?? null;
    const nickname = author?.nickname ?? '';
    const avatar = author?.avatar ?? '';
    const verified = author?.verified ?? 0;
    return {
      id: Number(row.id),
      title: row.title,
      title_highlight: highlight(row.title, terms),
      content: row.content_text.slice(0, EXCERPT_LENGTH),
      type: row.type,
      category_id: row.category_id === null ? null : Number(row.category_id),
      category_title: row.category_title,
      images: cardImages(row.type, row.images, cover),
      image: cover,
      cover_url: cover,
      video_url: row.video_url,
      videos: row.video_url ? [{ url: row.video_url, cover_url: row.cover_url }] : [],
      user_id: row.author_user_id,
      author_account: row.author_user_id,
      author_auto_id: Number(row.author_id),
      author: nickname,
      nickname,
      user_avatar: avatar,
      avatar,
      verified,
      author_verified: verified,
      location: author?.location ?? '',
      like_count: row.like_count,
      likeCount: row.like_count,
      collect_count: row.collect_count,
      collectCount: row.collect_count,
      comment_count: row.comment_count,
      commentCount: row.comment_count,
      liked: false,
      collected: false,
      tags: row.tags.map((name) => ({ name })),
      created_at: row.created_at.toISOString(),
    };
  }

  /** The users' cards, in the hits' order, with their note counts, whether the viewer follows each and each follows the viewer. */
  private async userCards(hits: UserHits, viewer: Principal | undefined): Promise<SearchUserView[]> {
    const [{ rows, postCounts }, follows] = await Promise.all([
      this.shared(this.sharedUserRows, hits, async () => {
        const [rows, postCounts] = await Promise.all([this.users.byIds(this.dataSource, hits.ids), this.posts.countsByAuthor(this.dataSource, hits.ids)]);
        return { rows, postCounts };
      }),
      viewer ? this.viewers.follows(this.dataSource, Number(viewer.id), hits.ids) : { following: new Set<string>(), followers: new Set<string>() },
    ]);
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return hits.ids.flatMap((id) => {
      const row = byId.get(String(id));
      if (!row) return [];
      const followed = follows.following.has(String(id));
      const followsViewer = follows.followers.has(String(id));
      return [
        {
          id: Number(row.id),
          user_id: row.user_id,
          nickname: row.nickname,
          avatar: row.avatar,
          bio: row.bio,
          location: row.location,
          verified: row.verified,
          fans_count: row.fans_count,
          post_count: postCounts.get(String(id)) ?? 0,
          followed,
          isFollowing: followed,
          isMutual: followed && followsViewer,
          buttonType: buttonType(followed, followsViewer),
        },
      ];
    });
  }
}
