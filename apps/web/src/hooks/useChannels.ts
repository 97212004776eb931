import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call, type Channel } from '../lib/api/client';
import { sharedKeys } from '../lib/api/query-keys';
import { toast } from '../lib/toast';

/** The first channel, always there (public-side.md §2): label 推荐, path /recommend; /explore shows it too. */
export const RECOMMEND: Channel = { id: 0, name: '推荐', category_title: 'recommend' };

/** Where a channel's feed is: /explore plus the channel's path; 推荐's own is /explore, the route table's default. */
export const channelPath = (channel: string) => (channel === RECOMMEND.category_title ? '/explore' : `/explore/${channel}`);

/** The channel list loaded at start-up: 推荐 then the categories; only 推荐 (and 获取分类失败) when the call fails. */
export function useChannels(): { channels: Channel[]; ready: boolean } {
  const query = useQuery({ queryKey: sharedKeys.channels, queryFn: () => call(api.GET('/api/categories')), staleTime: 10 * 60_000, retry: 1 });
  useEffect(() => {
    if (query.isError) toast.error('获取分类失败');
  }, [query.isError]);
  return { channels: [RECOMMEND, ...(query.data ?? [])], ready: !query.isPending };
}
