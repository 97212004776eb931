import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call, type Channel } from '../lib/api/client';
import { sharedKeys } from '../lib/api/query-keys';
import { useSession } from '../lib/session';
import { toast } from '../lib/toast';

/** A channel of the strip: 推荐, 关注, or one of the categories. */
export type ChannelEntry = Omit<Channel, 'id'> & { id: Channel['id'] | 'recommend' | 'following' };

/** The first channel, always there (public-side.md §2): id and path recommend, label 推荐; /explore shows it too. */
export const RECOMMEND: ChannelEntry = { id: 'recommend', name: '推荐', category_title: 'recommend' };

/** The notes of the people one follows, right after 推荐, for a logged-in student only. */
export const FOLLOWING: ChannelEntry = { id: 'following', name: '关注', category_title: 'following' };

/** The strip's channels: 推荐, then 关注 when logged in, then the categories. */
export function stripChannels(categories: Channel[], loggedIn: boolean): ChannelEntry[] {
  return [RECOMMEND, ...(loggedIn ? [FOLLOWING] : []), ...categories];
}

/** Where a channel's feed is: /explore plus the channel's path; 推荐's own is /explore, the route table's default. */
export const channelPath = (channel: string) => (channel === RECOMMEND.category_title ? '/explore' : `/explore/${channel}`);

/**
 * The channel list loaded at start-up: 推荐, 关注 when logged in, then the categories; without the categories (and
 * with 获取分类失败) when the call fails.
 * `categories` are the channels a note can be filed under.
 */
export function useChannels(): { channels: ChannelEntry[]; categories: Channel[]; ready: boolean } {
  const loggedIn = useSession((state) => state.user !== null);
  const query = useQuery({ queryKey: sharedKeys.channels, queryFn: () => call(api.GET('/api/categories')), staleTime: 10 * 60_000, retry: 1 });
  useEffect(() => {
    if (query.isError) toast.error('获取分类失败');
  }, [query.isError]);
  const categories = query.data ?? [];
  return { channels: stripChannels(categories, loggedIn), categories, ready: !query.isPending };
}
