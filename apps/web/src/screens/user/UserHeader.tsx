/**
 * The player page header: banner, avatar, name, status, Elo, rank, recent results and actions.
 * Plain React + CSS: the page's first paint (and its largest text, the name) draws it before MUI
 * has loaded; only the buttons (MUI) mount after that paint (bench/RESULTS.md, session 16).
 */
import type { UserCard as UserCardData } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { AfterFirstPaint } from '../../app/AfterFirstPaint';
import { lazyFeature } from '../../app/lazyFeature';
import { BannerArt } from '../../features/drops/art';
import { useSession } from '../../features/session/store';
import { eloOf, Figure, RecentResults } from '../../ui/CardFigures';
import { ReliabilityStat } from '../../ui/Reliability';
import { StatusLine } from '../../ui/StatusLine';
import { tokens } from '../../ui/tokens';
import { UserAvatar } from '../../ui/UserAvatar';
import styles from './UserScreen.module.css';

const UserHeaderButtons = lazyFeature(() => import('./UserHeaderButtons').then((m) => m.UserHeaderButtons));

export function UserHeader({ user }: { user: UserCardData | undefined }) {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  const myId = useSession((s) => s.user?._id);
  // The header's own height while it loads, so the tabs and the section below do not jump.
  if (!user) return <div className={styles.skeleton} />;
  return (
    <header data-testid="user-header" className={styles.header}>
      <div className={styles.banner}>
        <BannerArt
          banner={user.banner}
          height="100%"
          label={t('friends.page.banner', { banner: user.banner })}
        />
      </div>
      <div className={styles.body}>
        <div className={styles.identity}>
          <div className={styles.avatar}>
            <UserAvatar user={user} size={88} />
          </div>
          <div className={styles.who}>
            <h1 className={styles.name}>{user.name ?? t('friends.unnamed')}</h1>
            <StatusLine status={user.status} />
          </div>
        </div>
        <div className={styles.figures}>
          <Figure label={t('friends.card.elo')} size="large" style={{ color: tokens.accent }}>
            {eloOf(user)}
          </Figure>
          <Figure label={t('friends.card.rank')} size="large">
            {user.rank ? `#${user.rank}` : t('friends.card.unranked')}
          </Figure>
          {user.recentResults && user.recentResults.length > 0 && (
            <Figure label={t('friends.card.recentResults')} style={{ paddingTop: 4 }}>
              <RecentResults results={user.recentResults} />
            </Figure>
          )}
          {user.reliability !== undefined && <ReliabilityStat percent={user.reliability} size="large" />}
        </div>
        {/* Steam, and friend buttons for anyone signed in but the player themself. */}
        {(user.steamUrl || (loggedIn && myId !== user._id)) && (
          <div className={styles.buttons}>
            <AfterFirstPaint>
              <UserHeaderButtons user={user} />
            </AfterFirstPaint>
          </div>
        )}
      </div>
    </header>
  );
}
