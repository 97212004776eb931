import { Icon } from './Icon';

/** The floating 回到顶部 button of the feed and notification pages. */
export function BackToTop() {
  return (
    <button type="button" className="float-button" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })} aria-label="回到顶部" title="回到顶部">
      <Icon name="up" size={20} />
    </button>
  );
}
