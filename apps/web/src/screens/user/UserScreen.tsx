/**
 * A player's page (/user/:userId): the header card, the sections as tabs, the chosen one below.
 * A plain screen (app/routeTable.ts PLAIN_SCREENS): the frame and the header are React + CSS and
 * paint as soon as the card has arrived; the tabs and the sections (MUI) mount after that paint
 * (bench/RESULTS.md, session 16).
 */
import type { UserCard } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useParams } from 'react-router';
import { AfterFirstPaint, useAfterFirstPaint } from '../../app/AfterFirstPaint';
import { lazyFeature } from '../../app/lazyFeature';
import type { UserContent } from '../../app/routeTable';
import { ApiError } from '../../features/api/client';
import { getEarlyOr, takeArrived } from '../../features/api/early';
import { queryClient } from '../../features/api/queryClient';
import { useFriendsStore } from '../../features/friends/store';
import { UserHeader } from './UserHeader';
import styles from './UserScreen.module.css';

const UserTabs = lazyFeature(() => import('./UserTabs').then((m) => m.UserTabs));

const SECTIONS: UserContent[] = ['matches', 'drops', 'stats', 'friends', 'highlights'];

export function UserScreen() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { userId = '' } = useParams();
  const current = SECTIONS.find((section) => pathname.endsWith(`/${section}`)) ?? false;
  // Friends' live status, loaded after the first paint: the sync brings the shared schemas (zod).
  const painted = useAfterFirstPaint();
  useEffect(() => {
    if (painted) void import('../../features/friends/sync').then((m) => m.ensureFriendsSync());
  }, [painted]);
  const cardPath = `/users/${encodeURIComponent(userId)}`;
  // The app's one query cache, passed in: a plain screen renders outside FeatureProviders.
  const query = useQuery(
    {
      queryKey: ['users', 'card', userId],
      queryFn: ({ signal }) => getEarlyOr<UserCard>(cardPath, { silent: true, signal }),
      // The route's first request (features/api/early.ts), when it is already in.
      initialData: () => takeArrived<UserCard>(cardPath)?.value,
      initialDataUpdatedAt: Date.now(),
      retry: false,
    },
    queryClient,
  );
  // A friend's live status beats the card's snapshot.
  const live = useFriendsStore(
    (s) => s.friends.find((f) => f._id === userId) ?? (s.me?._id === userId ? s.me : null),
  );
  const user = query.data && live ? { ...query.data, status: live.status, name: live.name } : query.data;

  if (query.isError) {
    const missing =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <div className={styles.missing}>
        <h1 className={styles.missingTitle}>{t('screens.user.title')}</h1>
        <p className={styles.missingText}>
          {missing ? t('friends.page.notFound') : t('friends.page.loadFailed')}
        </p>
      </div>
    );
  }
  return (
    <div className={styles.page}>
      <UserHeader user={user} />
      <div className={styles.tabs}>
        <AfterFirstPaint>
          <UserTabs sections={SECTIONS} current={current} />
        </AfterFirstPaint>
      </div>
      <Outlet />
    </div>
  );
}
