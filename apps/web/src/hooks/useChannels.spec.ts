import { channelPath, FOLLOWING, RECOMMEND, stripChannels } from './useChannels';

describe('the channels (public-side.md §2)', () => {
  it('opens with 推荐, whose id and path are recommend', () => {
    expect(RECOMMEND).toEqual({ id: 'recommend', name: '推荐', category_title: 'recommend' });
  });

  it('puts 推荐 at /explore and every category at /explore/<its title>', () => {
    expect(channelPath(RECOMMEND.category_title)).toBe('/explore');
    expect(channelPath('food')).toBe('/explore/food');
  });

  it('puts 关注 right after 推荐 for a logged-in student only', () => {
    const food = { id: 3, name: '美食', category_title: 'food' };
    expect(stripChannels([food], true)).toEqual([RECOMMEND, FOLLOWING, food]);
    expect(stripChannels([food], false)).toEqual([RECOMMEND, food]);
    expect(channelPath(FOLLOWING.category_title)).toBe('/explore/following');
  });
});
