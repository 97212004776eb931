import { channelPath, RECOMMEND } from './useChannels';

describe('the channels (public-side.md §2)', () => {
  it('opens with 推荐, whose id and path are recommend', () => {
    expect(RECOMMEND).toEqual({ id: 'recommend', name: '推荐', category_title: 'recommend' });
  });

  it('puts 推荐 at /explore and every category at /explore/<its title>', () => {
    expect(channelPath(RECOMMEND.category_title)).toBe('/explore');
    expect(channelPath('food')).toBe('/explore/food');
  });
});
