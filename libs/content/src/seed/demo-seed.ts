import type { INestApplicationContext } from '@nestjs/common';
import { type DemoSize, LOGGER, OBJECT_STORAGE, type ObjectStorage, type Principal } from '@shiliu/platform';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { type AuthorRow, AuthorRepository } from '../authors/author.repository';
import { CategoryRepository } from '../categories/category.repository';
import { CommentService } from '../comments/comment.service';
import { PostRepository } from '../posts/post.repository';
import { PostService } from '../posts/post.service';
import { ReactionRepository } from '../reactions/reaction.repository';
import { ReactionService } from '../reactions/reaction.service';
import { prng, storeDemoImages } from './demo-images';
import { demoChannels, demoComments, demoReplies } from './demo-text';

const DAY_MS = 86_400_000;
/** Notes are spread over the past five months, more of them recent. */
const SPREAD_DAYS = 150;
const TITLE_SUFFIXES = ['', '', '', '✨', '｜附清单', '（持续更新）', '第二弹', '｜超详细', '～', '🔥'];

/**
 * The embedded default's demo content: `size.notes` notes (300 by default) across the channels by the demo users (whom auth's seed
 * registered, so they are in the author snapshot already), with locally drawn images, tags, comments with
 * replies, likes and collections, dated over the past months. Everything goes through the service's own rules
 * and emits the usual events, so the other services' read models fill up as they would with real use.
 */
export async function seedDemoContent(app: INestApplicationContext, size: DemoSize): Promise<void> {
  const logger = app.get<Logger>(LOGGER);
  const authors = await app.get(AuthorRepository).all();
  if (authors.length === 0) {
    logger.warn('no users in the author snapshot: skipping demo notes');
    return;
  }
  const started = Date.now();
  const dataSource = app.get(DataSource);
  const posts = app.get(PostService);
  const comments = app.get(CommentService);
  const reactions = app.get(ReactionService);
  const categories = new Map((await app.get(CategoryRepository).list()).map((category) => [category.category_title, category.id]));
  const images = await storeDemoImages(app.get<ObjectStorage>(OBJECT_STORAGE));

  const random = prng(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const sample = <T>(list: readonly T[], count: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, count);
  };
  const principal = (author: AuthorRow): Principal => ({ audience: 'user', id: String(author.id), userId: author.user_id, sessionId: 'demo-seed' });
  const now = Date.now();

  for (let i = 0; i < size.notes; i++) {
    const channel = demoChannels[i % demoChannels.length];
    const author = pick(authors);
    const at = new Date(now - random() ** 1.7 * SPREAD_DAYS * DAY_MS - random() * 3_600_000);
    const paragraphs = sample(channel.paragraphs, 2 + Math.floor(random() * 2)).map((text) => `<p>${text}</p>`);
    if (random() < 0.1 && authors.length > 1) {
      const friend = pick(authors.filter((other) => other.id !== author.id));
      paragraphs.push(`<p>和 [@${friend.nickname}:${friend.user_id}] 一起～</p>`);
    }
    const post = await posts.create(
      principal(author),
      {
        title: `${pick(channel.titles)}${pick(TITLE_SUFFIXES)}`,
        content: paragraphs.join(''),
        category_id: categories.get(channel.category),
        type: 1,
        images: sample(images, 1 + Math.floor(random() ** 2 * 5)),
        tags: sample(channel.tags, 1 + Math.floor(random() * 3)),
      },
      at,
    );

    // Popularity is skewed: most notes get a few reactions, some get many.
    const audience = authors.filter((other) => other.id !== author.id);
    const likers = sample(audience, Math.floor(random() ** 2 * Math.min(audience.length, 25)));
    const collectors = sample(likers, Math.floor(likers.length * random() * 0.6));
    await dataSource.transaction(async (manager) => {
      for (const user of likers) await reactions.likePostWithin(manager, String(user.id), post.id);
      for (const user of collectors) await reactions.collectWithin(manager, String(user.id), post.id);
    });

    const commentCount = Math.floor(random() ** 1.5 * 6);
    for (let c = 0; c < commentCount; c++) {
      const commenter = pick(audience.length > 0 ? audience : authors);
      const commentAt = new Date(at.getTime() + random() * (now - at.getTime()));
      const top = await comments.create(principal(commenter), { post_id: post.id, content: pick(demoComments) }, commentAt);
      const replyCount = random() < 0.4 ? 1 + Math.floor(random() * 3) : 0;
      for (let r = 0; r < replyCount; r++) {
        const replier = r === 0 ? author : pick(authors);
        const replyAt = new Date(commentAt.getTime() + random() * (now - commentAt.getTime()));
        await comments.create(principal(replier), { post_id: post.id, content: pick(demoReplies), parent_id: top.id }, replyAt);
      }
    }
  }

  await app.get(ReactionRepository).spreadOverNotesLives(dataSource.manager);
  await app.get(PostRepository).estimateViewsFromEngagement(dataSource.manager);
  logger.info({ notes: size.notes, ms: Date.now() - started }, 'demo content loaded');
}
