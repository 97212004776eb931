import { DEFAULT_AVATAR } from '../lib/api/client';

/** A round avatar; a missing or broken one shows the default avatar. */
export function Avatar({ src, size = 32, alt = '' }: { src?: string | null; size?: number; alt?: string }) {
  return (
    <img
      className="avatar"
      src={src || DEFAULT_AVATAR}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      onError={(event) => {
        if (!event.currentTarget.src.endsWith(DEFAULT_AVATAR)) event.currentTarget.src = DEFAULT_AVATAR;
      }}
    />
  );
}
