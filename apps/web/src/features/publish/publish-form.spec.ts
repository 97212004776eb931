import { emptyForm, publishFormReducer } from './publish-form';

describe('the publish form', () => {
  it('starts empty, loading only when a draft is to be edited', () => {
    expect(emptyForm(null)).toMatchObject({ mode: 'image', title: '', tags: [], images: [], loading: false });
    expect(emptyForm(12)).toMatchObject({ draftId: 12, loading: true });
  });

  it('keeps the picked mentions as they come and drops the other mode’s media on a switch', () => {
    const image = { id: 'a', file: null, preview: 'p', url: 'u' };
    let form = publishFormReducer(emptyForm(null), { type: 'set', change: { images: [image], title: '标题' } });
    form = publishFormReducer(form, { type: 'mention', picked: { 小明: 'u1' } });
    form = publishFormReducer(form, { type: 'mention', picked: { 小红: 'u2' } });
    expect(form.picked).toEqual({ 小明: 'u1', 小红: 'u2' });
    expect(publishFormReducer(form, { type: 'mode', mode: 'image' })).toBe(form);
    const video = publishFormReducer(form, { type: 'mode', mode: 'video' });
    expect(video).toMatchObject({ mode: 'video', images: [], title: '标题' });
    const back = publishFormReducer({ ...video, video: { file: null, name: 'v', size: 1, url: 'v', coverUrl: null, thumbnail: null, thumbnailUrl: null } }, { type: 'mode', mode: 'image' });
    expect(back).toMatchObject({ mode: 'image', video: null, cover: null });
  });
});
