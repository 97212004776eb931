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
import { storeDemoClip } from './demo-clips';
import { prng, storeDemoImages } from './demo-images';
import { type DemoChannel, demoChannels, type DemoNote } from './demo-text';

const DAY_MS = 86_400_000;
/** Notes are spread over the past five months, more of them recent. */
const SPREAD_DAYS = 150;
/** The demo student whose notifications and profile a first visitor is shown (README.md signs in as her). */
const HOST = 'xiaoshiliu';

/**
 * Who among the demo accounts (auth's seed) writes and reads which channel. Anyone else in the author snapshot (a
 * test's students) gets two channels drawn at random.
 */
const INTERESTS: Record<string, string[]> = {
  xiaoshiliu: ['campus', 'food', 'photography'],
  lin_xiaoyu: ['study', 'entertainment'],
  chen_mo: ['photography', 'travel'],
  zhou_tiantian: ['food', 'travel'],
  wang_haoran: ['sports', 'campus'],
  li_sisi: ['fashion', 'food'],
  zhang_yifan: ['travel', 'photography'],
  liu_xingchen: ['photography', 'study'],
  huang_jiajia: ['study', 'fashion'],
  zhao_ziyu: ['travel', 'food'],
  sun_mengqi: ['food', 'campus'],
  zhou_jie: ['entertainment', 'campus'],
  wu_yutong: ['study', 'entertainment'],
  xu_ming: ['study', 'sports'],
  ma_xiaoxiao: ['travel', 'photography'],
  hu_yang: ['sports', 'travel'],
  guo_jingjing: ['study', 'campus'],
  he_yu: ['sports', 'travel'],
  luo_qian: ['food', 'entertainment'],
  liang_chen: ['campus', 'food'],
  song_yi: ['photography', 'entertainment'],
  tang_guo: ['fashion', 'campus'],
  han_xue: ['sports', 'photography'],
  feng_lei: ['campus', 'study'],
  cao_yue: ['entertainment', 'study'],
  deng_zi: ['entertainment', 'fashion'],
  peng_bo: ['campus', 'entertainment'],
  xie_wan: ['fashion', 'photography'],
  yu_hang: ['sports', 'travel'],
  ye_zhi: ['entertainment', 'study'],
  campus_library: ['study'],
  student_union: ['campus'],
};

/**
 * The embedded default's demo content: `size.notes` notes (300 by default) by the demo users (whom auth's seed
 * registered, so they are in the author snapshot already), each from a hand-written template of its channel, with
 * images of its subject drawn locally, its own conversation in the comments, and likes and collections mostly from
 * the students who follow that channel. Templates come in turn, so the newest notes never share a title; only past
 * the templates' count do older notes repeat one. Everything goes through the service's own rules and emits the
 * usual events, so the other services' read models and notifications fill up as they would with real use.
 */
export async function seedDemoContent(app: INestApplicationContext, size: DemoSize): Promise<void> {
  const logger = app.get<Logger>(LOGGER);
  const authors = await app.get(AuthorRepository).all();
  if (authors.length < 2) {
    logger.warn('fewer than two users in the author snapshot: skipping demo notes');
    return;
  }
  const started = Date.now();
  const dataSource = app.get(DataSource);
  const posts = app.get(PostService);
  const comments = app.get(CommentService);
  const reactions = app.get(ReactionService);
  const categories = new Map((await app.get(CategoryRepository).list()).map((category) => [category.category_title, category.id]));
  const storage = app.get<ObjectStorage>(OBJECT_STORAGE);
  const images = await storeDemoImages(storage, demoChannels.map((channel) => channel.subject));
  const clips = new Map<string, string | null>();
  for (const channel of demoChannels) if (channel.notes.some((note) => note.video)) clips.set(channel.subject, await storeDemoClip(storage, channel.subject));
  if ([...clips.values()].includes(null)) logger.info('no ffmpeg with an H.264 encoder here: the demo video notes are published with pictures');

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
  const mention = (user: AuthorRow) => `[@${user.nickname}:${user.user_id}]`;

  const interests = new Map(authors.map((author) => [author.id, INTERESTS[author.user_id] ?? sample(demoChannels, 2).map((channel) => channel.category)]));
  const fansOf = (channel: DemoChannel) => authors.filter((author) => interests.get(author.id)!.includes(channel.category));
  const host = authors.find((author) => author.user_id === HOST);
  /** Someone to mention in a note or comment: often the host, so her notifications show mentions; else a fellow fan. */
  const friendOf = (writer: AuthorRow, channel: DemoChannel) => {
    if (host && host.id !== writer.id && random() < 0.35) return host;
    const fans = fansOf(channel).filter((fan) => fan.id !== writer.id);
    return pick(fans.length > 0 ? fans : authors.filter((other) => other.id !== writer.id));
  };

  // The newest note first: the i-th note is the i-th newest, so the templates' first round is what the feed opens on.
  const now = Date.now();
  const dates = Array.from({ length: size.notes }, () => now - random() ** 1.7 * SPREAD_DAYS * DAY_MS - random() * 3_600_000).sort((a, b) => b - a);
  const templatesPerChannel = Math.max(...demoChannels.map((channel) => channel.notes.length));

  for (let i = 0; i < size.notes; i++) {
    const channel = demoChannels[i % demoChannels.length];
    const round = Math.floor(i / demoChannels.length);
    const template: DemoNote = channel.notes[round % channel.notes.length];
    const fans = fansOf(channel);
    // The host writes one note in each of her channels early on, so her profile and notifications have something to show.
    const hostWrites = host !== undefined && round === 1 && interests.get(host.id)!.includes(channel.category);
    const author = hostWrites ? host : random() < 0.85 && fans.length > 0 ? pick(fans) : pick(authors);
    const at = new Date(dates[i]);
    const paragraphs = template.text.map((text) => `<p>${text}</p>`);
    if (random() < 0.12) paragraphs.push(`<p>和 ${mention(friendOf(author, channel))} 一起～</p>`);
    const drawn = images.get(channel.subject)!;
    const cover = (round + i) % drawn.length;
    // The clip pans across the subject's first (portrait) picture, which is its cover.
    const clip = template.video ? clips.get(channel.subject) : null;
    const post = await posts.create(
      principal(author),
      {
        title: template.title,
        content: paragraphs.join(''),
        category_id: categories.get(channel.category),
        ...(clip
          ? { type: 2, video: { url: clip, coverUrl: drawn[0], name: `${template.title}.mp4` } }
          : { type: 1, images: Array.from({ length: 1 + Math.floor(random() ** 2 * 4) }, (_, k) => drawn[(cover + k) % drawn.length]) }),
        tags: [...new Set([...template.tags, ...(random() < 0.5 ? [channel.tag] : [])])],
      },
      at,
    );

    // Popularity is skewed, and repeats of a template (older notes) draw less; the channel's fans like far more often.
    const others = authors.filter((other) => other.id !== author.id);
    const firstUse = round < templatesPerChannel;
    const reach = random() ** 2 * (firstUse ? 1 : 0.4);
    const likers = others.filter((other) => random() < reach * (interests.get(other.id)!.includes(channel.category) ? 0.95 : 0.3));
    if (author.id === host?.id && firstUse) likers.push(...sample(others.filter((other) => !likers.includes(other)), 6));
    const collectors = likers.filter(() => random() < 0.35);
    await dataSource.transaction(async (manager) => {
      for (const user of likers) await reactions.likePostWithin(manager, String(user.id), post.id);
      for (const user of collectors) await reactions.collectWithin(manager, String(user.id), post.id);
    });

    const talkers = fans.filter((fan) => fan.id !== author.id);
    const commenterFor = () => pick(talkers.length > 0 && random() < 0.8 ? talkers : others);
    // Replies come within three days of what they answer, and never after now.
    const later = (from: number) => from + random() * Math.min(now - from, 3 * DAY_MS);
    const threads = firstUse ? template.threads : template.threads.slice(0, 1);
    const extra = Math.floor(reach * 4);
    const remarks = channel.remarks.filter((remark) => !template.threads.some((thread) => thread[0] === remark));
    for (const thread of [...threads, ...sample(remarks, extra).map((remark) => [remark])]) {
      const commenter = commenterFor();
      let when = later(at.getTime());
      const top = await comments.create(principal(commenter), { post_id: post.id, content: thread[0].replace('@友', () => mention(friendOf(commenter, channel))) }, new Date(when));
      for (const [r, reply] of thread.slice(1).entries()) {
        when = later(when);
        await comments.create(principal(r % 2 === 0 ? author : commenter), { post_id: post.id, content: reply, parent_id: top.id }, new Date(when));
      }
      if (random() < 0.3) await dataSource.transaction((manager) => reactions.likeCommentWithin(manager, String(author.id), top.id));
    }
  }

  await app.get(ReactionRepository).spreadOverNotesLives(dataSource.manager);
  await app.get(PostRepository).estimateViewsFromEngagement(dataSource.manager);
  logger.info({ notes: size.notes, ms: Date.now() - started }, 'demo content loaded');
}
