import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call, type Channel } from '../lib/api/client';
import { sharedKeys } from '../lib/api/query-keys';
import { toast } from '../lib/toast';

/** A channel of the strip: 推荐, or one of the categories. */
export type ChannelEntry = Omit<Channel, 'id'> & { id: Channel['id'] | 'recommend' };

/** The first channel, always there (public-side.md §2): id and path recommend, label 推荐; /explore shows it too. */
export const RECOMMEND: ChannelEntry = { id: 'recommend', name: '推荐', category_title: 'recommend' };

/** Where a channel's feed is: /explore plus the channel's path; 推荐's own is /explore, the route table's default. */
export const channelPath = (channel: string) => (channel === RECOMMEND.category_title ? '/explore' : `/explore/${channel}`);

/**
 * The channel list loaded at start-up: 推荐 then the categories; only 推荐 (and 获取分类失败) when the call fails.
 * `categories` are the channels a note can be filed under.
 */
export function useChannels(): { channels: ChannelEntry[]; categories: Channel[]; ready: boolean } {
  const query = useQuery({ queryKey: sharedKeys.channels, queryFn: () => call(api.GET('/api/categories')), staleTime: 10 * 60_000, retry: 1 });
  useEffect(() => {
    if (query.isError) toast.error('获取分类失败');
  }, [query.isError]);
  const categories = query.data ?? [];
  return { channels: [RECOMMEND, ...categories], categories, ready: !query.isPending };
}
