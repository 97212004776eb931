import type { PostSnapshot } from '@shiliu/contracts';
import { ServiceTestApp } from '@shiliu/platform/testing';
import { socialService } from '../src';

export type { Answer, TestUser } from '@shiliu/platform/testing';

/** The social service as every service's tests start one: fed auth's and content's events through the in-process bus. */
export class SocialTestApp extends ServiceTestApp {
  static async start(): Promise<SocialTestApp> {
    return new SocialTestApp(await ServiceTestApp.boot(socialService));
  }
}

let postSeq = 0;

/** A published note's snapshot as content would announce it. */
export function postSnapshot(author: { id: number; userId: string }, overrides: Partial<PostSnapshot> = {}): PostSnapshot {
  const id = 5000 + ++postSeq;
  return {
    id,
    author_id: author.id,
    author_user_id: author.userId,
    title: `笔记${id}`,
    content_text: '',
    category_id: 1,
    category_title: 'study',
    type: 1,
    tags: [],
    images: [`/api/files/images/${id}.png`],
    cover_url: null,
    video_url: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}
