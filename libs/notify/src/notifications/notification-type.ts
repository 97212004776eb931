/** public-side.md §3 "Notification": the types, numbered as the spec numbers them. */
export const NotificationType = {
  likePost: 1,
  likeComment: 2,
  collectPost: 3,
  commentPost: 4,
  replyComment: 5,
  follow: 6,
  mentionInComment: 7,
  mentionInPost: 8,
} as const;

export type NotificationType = (typeof NotificationType)[keyof typeof NotificationType];

/** The notifications page's four tabs, each an unread counter and a list call. */
export const tabs = ['comments', 'likes', 'collections', 'follows'] as const;
export type Tab = (typeof tabs)[number];

export const typesOfTab: Record<Tab, NotificationType[]> = {
  comments: [NotificationType.commentPost, NotificationType.replyComment, NotificationType.mentionInComment, NotificationType.mentionInPost],
  likes: [NotificationType.likePost, NotificationType.likeComment],
  collections: [NotificationType.collectPost],
  follows: [NotificationType.follow],
};

export function tabOf(type: number): Tab {
  const tab = tabs.find((each) => (typesOfTab[each] as number[]).includes(type));
  if (!tab) throw new Error(`No notification type ${type}`);
  return tab;
}

export const titles: Record<NotificationType, string> = {
  1: '赞了你的笔记',
  2: '赞了你的评论',
  3: '收藏了你的笔记',
  4: '评论了你的笔记',
  5: '回复了你的评论',
  6: '关注了你',
  7: '在评论中@了你',
  8: '在笔记中@了你',
};
