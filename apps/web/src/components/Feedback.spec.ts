import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Skeleton, SKELETON, type SkeletonAnimation, type SkeletonType } from './Feedback';

const render = (props: { type?: SkeletonType; animation?: SkeletonAnimation; count?: number; avatar?: number; children?: string } = {}) => {
  const host = renderToStaticMarkup(createElement('div', null, createElement(Skeleton, props)));
  return { host, items: host.match(/class="skeleton-item [^"]*"/g) ?? [] };
};

describe('the skeleton loader', () => {
  it('defaults to six shimmering image cards with 200 px images and 48 px avatars', () => {
    expect(SKELETON).toEqual({ count: 6, avatarPx: 48, imageHeightPx: 200 });
    const { host, items } = render();
    expect(items).toHaveLength(6);
    expect(items[0]).toBe('class="skeleton-item skeleton-image-card skeleton-shimmer card"');
    expect(host).toContain('style="height:200px"');
  });

  it('draws user cards and user items around a 48 px avatar, and a custom shape as given', () => {
    expect(render({ type: 'user-item' }).host).toContain('class="skeleton round" style="width:48px;height:48px"');
    expect(render({ type: 'user-card', count: 1, avatar: 112 }).items).toEqual(['class="skeleton-item skeleton-user-card skeleton-shimmer"']);
    const custom = render({ type: 'custom', count: 2, children: '形状' });
    expect(custom.items).toHaveLength(2);
    expect(custom.host.match(/形状/g)).toHaveLength(2);
  });

  it('pulses or stays still on request', () => {
    expect(render({ animation: 'pulse', count: 1 }).items).toEqual(['class="skeleton-item skeleton-image-card skeleton-pulse card"']);
    expect(render({ animation: 'none', type: 'user-item', count: 3 }).items).toEqual(Array(3).fill('class="skeleton-item skeleton-user-item skeleton-none"'));
  });
});
