import { useState } from 'react';
import styles from './UserAvatar.module.css';

/**
 * A user's avatar, or their initial on a colour derived from their id (also when the picture fails
 * to load). Plain React + CSS: the match room's and the player page's first paint draw it before
 * MUI has loaded (bench/RESULTS.md, session 16).
 */
export function UserAvatar({
  user,
  size = 40,
}: {
  user: { _id: string; name: string | null; avatar: string | null };
  size?: number;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  let hash = 0;
  for (const c of user._id) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const picture = user.avatar && failed !== user.avatar ? user.avatar : null;
  return (
    <span
      className={styles.avatar}
      style={{ width: size, height: size, fontSize: size * 0.42, background: `hsl(${hash % 360} 45% 32%)` }}
    >
      {picture ? (
        <img className={styles.image} src={picture} alt="" onError={() => setFailed(picture)} />
      ) : (
        (user.name ?? '?').trim().charAt(0).toUpperCase() || '?'
      )}
    </span>
  );
}
