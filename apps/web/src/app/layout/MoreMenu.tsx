import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { logout } from '../../hooks/useSessionStart';
import { THEME_MODES } from '../../hooks/useTheme';
import { darken } from '../../lib/format';
import { DEFAULT_THEME_COLOR, useSession } from '../../lib/session';
import { AccountModal } from '../../features/account/components/AccountModal';

const SWATCHES = [DEFAULT_THEME_COLOR, '#ff8a00', '#2bb673', '#1e90ff', '#7c5cff', '#111827'];

export const SHORTCUTS: [string, string][] = [
  ['← / →', '笔记详情中切换上一张 / 下一张图片'],
  ['Esc', '关闭笔记详情或图片查看'],
  ['D', '点赞当前笔记'],
  ['S', '收藏当前笔记'],
  ['Shift + Enter', '发送评论'],
];

type Dialog = 'about' | 'shortcuts' | 'account' | null;

/** The more-menu: about, keyboard shortcuts, account and security, theme colour and mode, login or logout. */
export function MoreMenu({ compact = false }: { compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const box = useRef<HTMLDivElement>(null);
  const user = useSession((state) => state.user);
  const theme = useSession((state) => state.theme);
  const color = useSession((state) => state.themeColor);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => !box.current?.contains(event.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const show = (next: Dialog) => {
    setOpen(false);
    setDialog(next);
  };

  return (
    <div className={`more ${compact ? 'compact' : ''}`} ref={box}>
      <button type="button" className={compact ? 'icon-button' : 'side-link more-trigger'} aria-haspopup="menu" aria-expanded={open} aria-label="更多" onClick={() => setOpen(!open)}>
        <Icon name="menu" />
        {!compact && <span>更多</span>}
      </button>
      {open && (
        <div className="more-panel" role="menu">
          <button type="button" role="menuitem" className="menu-item" onClick={() => show('about')}>
            关于拾柳
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => show('shortcuts')}>
            键盘快捷键
          </button>
          {user && (
            <button type="button" role="menuitem" className="menu-item" onClick={() => show('account')}>
              账号与安全
            </button>
          )}
          <div className="menu-row">
            <span>主题色</span>
            <div className="swatches">
              {SWATCHES.map((swatch) => (
                <button key={swatch} type="button" className={`swatch ${swatch === color ? 'active' : ''}`} style={{ background: swatch }} aria-label={`主题色 ${swatch}`} onClick={() => useSession.getState().setThemeColor(swatch)} />
              ))}
              <label className="swatch custom" style={{ background: `linear-gradient(135deg, ${color}, ${darken(color)})` }} aria-label="自定义主题色">
                <input type="color" value={color} onChange={(event) => useSession.getState().setThemeColor(event.target.value)} />
              </label>
            </div>
          </div>
          <div className="menu-row">
            <span>外观</span>
            <div className="segmented" role="radiogroup" aria-label="外观">
              {THEME_MODES.map(({ mode, label, icon }) => (
                <button key={mode} type="button" role="radio" aria-checked={theme === mode} className={theme === mode ? 'active' : ''} onClick={() => useSession.getState().setTheme(mode)}>
                  <Icon name={icon} size={15} />
                  {label}
                </button>
              ))}
            </div>
          </div>
          {user ? (
            <button type="button" role="menuitem" className="menu-item danger" onClick={() => void logout()}>
              退出登录
            </button>
          ) : (
            <button
              type="button"
              role="menuitem"
              className="menu-item"
              onClick={() => {
                setOpen(false);
                useSession.getState().openAuth();
              }}
            >
              登录 / 注册
            </button>
          )}
        </div>
      )}
      {dialog === 'about' && (
        <Modal title="关于拾柳" onClose={() => setDialog(null)}>
          <div className="prose">
            <p>拾柳是一个校园图文社区：记录校园生活，分享学习、美食、出行与好物。</p>
            <p>这是一个开源学习项目。你的密码只以哈希形式保存，我们无法看到原文。</p>
          </div>
        </Modal>
      )}
      {dialog === 'shortcuts' && (
        <Modal title="键盘快捷键" onClose={() => setDialog(null)}>
          <dl className="shortcuts">
            {SHORTCUTS.map(([keys, text]) => (
              <div key={keys}>
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{text}</dd>
              </div>
            ))}
          </dl>
        </Modal>
      )}
      {dialog === 'account' && <AccountModal onClose={() => setDialog(null)} />}
    </div>
  );
}
