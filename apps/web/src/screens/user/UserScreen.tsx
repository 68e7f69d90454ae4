import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { UserCard } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import type { UserContent } from '../../app/routeTable';
import { ApiError, api } from '../../features/api/client';
import { useFriendsStore } from '../../features/friends/store';
import { ensureFriendsSync } from '../../features/friends/sync';
import { UserHeader } from './UserHeader';

const SECTIONS: UserContent[] = ['matches', 'drops', 'stats', 'friends', 'highlights'];

/** A player's page (/user/:userId): the header card, the sections as tabs, the chosen one below. */
export function UserScreen() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { userId = '' } = useParams();
  const current = SECTIONS.find((section) => pathname.endsWith(`/${section}`)) ?? false;
  useEffect(ensureFriendsSync, []);
  const query = useQuery({
    queryKey: ['users', 'card', userId],
    queryFn: ({ signal }) => api.get<UserCard>(`/users/${userId}`, { silent: true, signal }),
    retry: false,
  });
  // A friend's live status beats the card's snapshot.
  const live = useFriendsStore(
    (s) => s.friends.find((f) => f._id === userId) ?? (s.me?._id === userId ? s.me : null),
  );
  const user = query.data && live ? { ...query.data, status: live.status, name: live.name } : query.data;

  if (query.isError) {
    const missing =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <Box sx={{ px: { xs: 2, md: 4 }, py: 6, textAlign: 'center' }}>
        <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 1 }}>
          {t('screens.user.title')}
        </Typography>
        <Typography color="text.secondary">
          {missing ? t('friends.page.notFound') : t('friends.page.loadFailed')}
        </Typography>
      </Box>
    );
  }
  return (
    <Box
      sx={{ px: { xs: 2, sm: 3, md: 4 }, py: { xs: 2.5, md: 4 }, maxWidth: 1200, mx: 'auto', width: '100%' }}
    >
      <UserHeader user={user} />
      <Tabs
        value={current}
        variant="scrollable"
        // Arrows beside the row whenever it is wider than the screen, phones included.
        scrollButtons="auto"
        allowScrollButtonsMobile
        data-testid="user-tabs"
        aria-label={t('user.tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {SECTIONS.map((section) => (
          <Tab
            key={section}
            value={section}
            label={t(`user.tabs.${section}`)}
            component={Link}
            to={section}
          />
        ))}
      </Tabs>
      <Outlet />
    </Box>
  );
}
