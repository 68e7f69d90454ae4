/**
 * Add friends (/search): the player directory (GET /api/users, paged, name filter) as user cards
 * with their friend actions. The same screen is a player's friends tab (/user/:userId/friends,
 * `content` = 'friends'): the API lists only the viewer's own friends, so other players' pages
 * say that their list is theirs to see.
 */

import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { UsersPage } from '@openpug/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { ScreenProps } from '../../app/screenModules';
import { api } from '../../features/api/client';
import { FriendUserCard } from '../../features/friends/FriendUserCard';
import { filterByName } from '../../features/friends/state';
import { useFriendsStore } from '../../features/friends/store';
import { ensureFriendsSync } from '../../features/friends/sync';
import { useSession } from '../../features/session/store';
import { SearchIcon } from '../../ui/icons';
import { ScreenPage } from '../../ui/ScreenPage';
import { ScreenSection } from '../../ui/ScreenSection';

export const PAGE_SIZE = 12;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const gridSx = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
} as const;

function SearchField({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
}) {
  return (
    <TextField
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={label}
      fullWidth
      sx={{ mb: 2, maxWidth: 520 }}
      slotProps={{
        htmlInput: { 'aria-label': label, type: 'search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon size={18} />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** The player directory. */
function PlayerDirectory() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const filter = useDebounced(text.trim(), 250);
  const query = useQuery({
    queryKey: ['users', 'directory', filter, page],
    queryFn: ({ signal }) =>
      api.get<UsersPage>('/users', {
        query: { filter: filter || undefined, page, limit: PAGE_SIZE, sort: 'name', order: 1 },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const pages = query.data ? Math.max(1, Math.ceil(query.data.totalDocs / PAGE_SIZE)) : 1;
  return (
    <>
      <SearchField
        value={text}
        onChange={(next) => {
          setText(next);
          setPage(1);
        }}
        label={t('friends.search.placeholder')}
      />
      {query.data && (
        <Typography color="text.secondary" sx={{ mb: 2, fontSize: '0.875rem' }} aria-live="polite">
          {t('friends.search.results', { count: query.data.totalDocs })}
        </Typography>
      )}
      {query.isPending ? (
        <Box sx={gridSx}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={170} />
          ))}
        </Box>
      ) : query.data && query.data.docs.length > 0 ? (
        <Box sx={gridSx} data-testid="player-directory">
          {query.data.docs.map((user) => (
            <FriendUserCard key={user._id} user={user} />
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary">
          {filter ? t('friends.search.empty') : t('friends.search.emptyAll')}
        </Typography>
      )}
      {pages > 1 && (
        <Pagination
          sx={{ mt: 3, display: 'flex', justifyContent: 'center' }}
          count={pages}
          page={page}
          onChange={(_, next) => setPage(next)}
          color="primary"
        />
      )}
    </>
  );
}

/** A player's friends tab: the viewer's own friends on their own page. */
function UserFriends() {
  const { t } = useTranslation();
  const { userId } = useParams();
  const me = useSession((s) => s.user?._id);
  const friends = useFriendsStore((s) => s.friends);
  const loaded = useFriendsStore((s) => s.loaded);
  const [text, setText] = useState('');
  useEffect(ensureFriendsSync, []);
  const own = Boolean(me) && me === userId;
  const shown = filterByName(friends, text);
  return (
    <ScreenSection title={t('friends.search.friendsOf')}>
      {!own ? (
        <Typography color="text.secondary">{t('friends.search.friendsPrivate')}</Typography>
      ) : loaded && friends.length === 0 ? (
        <Typography color="text.secondary">{t('friends.search.noFriends')}</Typography>
      ) : (
        <>
          <SearchField value={text} onChange={setText} label={t('friends.search.filterFriends')} />
          {shown.length === 0 && text.trim() ? (
            <Typography color="text.secondary">{t('friends.sidebar.noMatches')}</Typography>
          ) : (
            <Box sx={gridSx}>
              {shown.map((friend) => (
                <FriendUserCard key={friend._id} user={friend} />
              ))}
            </Box>
          )}
        </>
      )}
    </ScreenSection>
  );
}

export function SearchScreen({ content }: ScreenProps) {
  const { t } = useTranslation();
  useEffect(ensureFriendsSync, []);
  if (content === 'friends') return <UserFriends />;
  return (
    <ScreenPage title={t('screens.search.title')}>
      <PlayerDirectory />
    </ScreenPage>
  );
}
