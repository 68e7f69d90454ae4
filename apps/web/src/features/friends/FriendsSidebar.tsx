/**
 * The right-hand friends sidebar (docs/contract.md §2 Friends sidebar): the own card, the global chat entry,
 * tabs for friends (online / offline with counts), received requests (red dot), sent requests
 * and a name search, the add-friends button, and a context menu per item. On narrow screens the
 * layout shows the same component in a drawer.
 */

import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Friend, type FriendRequest, MIN_FRIEND_SEARCH_LENGTH } from '@openpug/shared';
import { type MouseEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setFriendsOpen } from '../../app/layout/layoutState';
import { eloOf } from '../../ui/CardFigures';
import { AddFriendIcon, ChatIcon, CheckIcon, MoreIcon, SearchIcon } from '../../ui/icons';
import { StatusLine } from '../../ui/StatusLine';
import { tokens } from '../../ui/tokens';
import { UserAvatar } from '../../ui/UserAvatar';
import { visuallyHidden } from '../../ui/visuallyHidden';
import { useGlobalChatUnread, useOpenDirectChat, useOpenGlobalChat } from '../chat';
import { answerFriendRequest, cancelFriendRequest, removeFriend } from './actions';
import { filterByName, groupFriends } from './state';
import { useFriendsStore } from './store';
import { ensureFriendsSync } from './sync';

type TabName = 'friends' | 'received' | 'sent' | 'search';
type Item =
  | { type: 'friend'; friend: Friend }
  | { type: 'received'; request: FriendRequest }
  | { type: 'sent'; request: FriendRequest };

const ignore = () => undefined;

function useGo() {
  const navigate = useNavigate();
  return (path: string) => {
    setFriendsOpen(false);
    navigate(path);
  };
}

function OwnCard() {
  const { t } = useTranslation();
  const me = useFriendsStore((s) => s.me);
  const go = useGo();
  if (!me) return <Box sx={{ height: 76 }} />;
  return (
    <ButtonBase
      onClick={() => go(`/user/${me._id}`)}
      sx={{ display: 'flex', gap: 1.5, p: 2, justifyContent: 'flex-start', textAlign: 'left', width: '100%' }}
    >
      {/* Named by what it shows, after a hidden "My profile" (an aria-label would hide the name and rank). */}
      <Box component="span" sx={visuallyHidden}>
        {t('friends.sidebar.ownCard')}
      </Box>
      <UserAvatar user={me} size={44} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography
          sx={{ fontWeight: 700, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {me.name ?? t('friends.unnamed')}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="div" data-testid="own-rank">
          {me.rank
            ? t('friends.sidebar.rankElo', { rank: me.rank, elo: eloOf(me) })
            : t('friends.sidebar.unrankedElo', { elo: eloOf(me) })}
        </Typography>
        <StatusLine status={me.status} dense />
      </Box>
    </ButtonBase>
  );
}

function GlobalChatEntry() {
  const { t } = useTranslation();
  const unread = useGlobalChatUnread();
  const openGlobalChat = useOpenGlobalChat();
  return (
    <ButtonBase
      onClick={() => {
        setFriendsOpen(false);
        openGlobalChat();
      }}
      sx={{
        mx: 2,
        mb: 1,
        px: 1.5,
        py: 1,
        gap: 1.25,
        borderRadius: 1.5,
        justifyContent: 'flex-start',
        bgcolor: tokens.hover,
        '&:hover': { bgcolor: tokens.accentSoft },
      }}
    >
      <ChatIcon size={18} />
      <Typography sx={{ flex: 1, textAlign: 'left', fontSize: '0.875rem', fontWeight: 600 }}>
        {t('friends.sidebar.globalChat')}
      </Typography>
      {unread > 0 && (
        <Box
          component="span"
          aria-label={t('friends.sidebar.unread', { count: unread })}
          sx={{
            px: 0.9,
            borderRadius: 5,
            bgcolor: 'error.main',
            color: '#fff',
            fontSize: '0.75rem',
            fontWeight: 700,
          }}
        >
          {unread}
        </Box>
      )}
    </ButtonBase>
  );
}

/** One row: avatar, name, a second line; click or right-click opens the item's menu. */
function Row({
  user,
  online,
  second,
  onMenu,
  trailing,
}: {
  user: { _id: string; name: string | null; avatar: string | null };
  online?: boolean;
  second: ReactNode;
  onMenu: (anchor: HTMLElement) => void;
  trailing?: ReactNode;
}) {
  const { t } = useTranslation();
  const name = user.name ?? t('friends.unnamed');
  const open = (event: MouseEvent<HTMLElement>) => {
    event.preventDefault();
    onMenu(event.currentTarget);
  };
  return (
    <Box
      component="li"
      data-testid="friend-item"
      data-name={name}
      sx={{ display: 'flex', alignItems: 'center', pr: 1, '&:hover': { bgcolor: tokens.hover } }}
    >
      <ButtonBase
        onClick={open}
        onContextMenu={open}
        aria-haspopup="menu"
        // Named by what it shows (name, then status), so the spoken name matches the visible one (WCAG 2.5.3).
        sx={{
          flex: 1,
          minWidth: 0,
          display: 'flex',
          gap: 1.25,
          px: 2,
          py: 0.9,
          justifyContent: 'flex-start',
        }}
      >
        <Badge
          overlap="circular"
          variant="dot"
          invisible={online === undefined}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          sx={{
            '& .MuiBadge-dot': {
              bgcolor: online ? tokens.success : tokens.textMuted,
              border: `2px solid ${tokens.surface}`,
              width: 12,
              height: 12,
              borderRadius: '50%',
            },
          }}
        >
          <UserAvatar user={user} size={34} />
        </Badge>
        <Box sx={{ minWidth: 0, flex: 1, textAlign: 'left' }}>
          <Typography
            sx={{
              fontSize: '0.875rem',
              fontWeight: 600,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {name}
          </Typography>
          {second}
        </Box>
      </ButtonBase>
      {trailing}
      <IconButton size="small" aria-label={t('friends.sidebar.more', { name })} onClick={open}>
        <MoreIcon size={18} />
      </IconButton>
    </Box>
  );
}

function GroupHeader({ label, count }: { label: string; count: number }) {
  return (
    <Typography
      component="h3"
      sx={{
        px: 2,
        pt: 1.5,
        pb: 0.5,
        fontSize: '0.7rem',
        fontWeight: 700,
        letterSpacing: '0.08em',
        textTransform: 'uppercase',
        color: 'text.secondary',
      }}
    >
      {label} — {count}
    </Typography>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Typography sx={{ px: 2, py: 3, color: 'text.secondary', fontSize: '0.875rem', textAlign: 'center' }}>
      {children}
    </Typography>
  );
}

const listSx = { listStyle: 'none', m: 0, p: 0 } as const;

function FriendList({
  friends,
  onMenu,
}: {
  friends: Friend[];
  onMenu: (item: Item, anchor: HTMLElement) => void;
}) {
  const { t } = useTranslation();
  const { online, offline } = groupFriends(friends);
  return (
    <>
      <section aria-label={t('friends.sidebar.online')}>
        <GroupHeader label={t('friends.sidebar.online')} count={online.length} />
        <Box component="ul" sx={listSx}>
          {online.map((friend) => (
            <Row
              key={friend._id}
              user={friend}
              online
              second={<StatusLine status={friend.status} dense />}
              onMenu={(anchor) => onMenu({ type: 'friend', friend }, anchor)}
            />
          ))}
        </Box>
      </section>
      <section aria-label={t('friends.sidebar.offline')}>
        <GroupHeader label={t('friends.sidebar.offline')} count={offline.length} />
        <Box component="ul" sx={listSx}>
          {offline.map((friend) => (
            <Row
              key={friend._id}
              user={friend}
              online={false}
              second={<StatusLine status={friend.status} dense />}
              onMenu={(anchor) => onMenu({ type: 'friend', friend }, anchor)}
            />
          ))}
        </Box>
      </section>
    </>
  );
}

function RequestList({
  kind,
  requests,
  onMenu,
}: {
  kind: 'received' | 'sent';
  requests: FriendRequest[];
  onMenu: (item: Item, anchor: HTMLElement) => void;
}) {
  const { t } = useTranslation();
  if (requests.length === 0) return <Empty>{t(`friends.sidebar.no_${kind}`)}</Empty>;
  return (
    <Box component="ul" sx={listSx}>
      {requests.map((request) => (
        <Row
          key={request._id}
          user={kind === 'received' ? request.requester : request.recipient}
          second={
            <Typography variant="caption" color="text.secondary">
              {t(`friends.sidebar.${kind}Hint`)}
            </Typography>
          }
          trailing={
            kind === 'received' ? (
              <IconButton
                size="small"
                aria-label={t('friends.actions.acceptShort')}
                title={t('friends.actions.acceptShort')}
                sx={{
                  color: '#fff',
                  bgcolor: 'success.main',
                  '&:hover': { bgcolor: 'success.dark' },
                  mr: 0.5,
                }}
                onClick={() => void answerFriendRequest(request._id, true).catch(ignore)}
              >
                <CheckIcon size={16} />
              </IconButton>
            ) : null
          }
          onMenu={(anchor) =>
            onMenu(kind === 'received' ? { type: 'received', request } : { type: 'sent', request }, anchor)
          }
        />
      ))}
    </Box>
  );
}

function ItemMenu({
  item,
  anchor,
  onClose,
}: {
  item: Item | null;
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const go = useGo();
  const openDirectChat = useOpenDirectChat();
  const run = (action: () => unknown) => () => {
    onClose();
    action();
  };
  const userId =
    item?.type === 'friend'
      ? item.friend._id
      : item?.type === 'received'
        ? item.request.requester._id
        : item?.request.recipient._id;
  const entries: ReactNode[] = [];
  if (item && userId) {
    entries.push(
      <MenuItem key="profile" onClick={run(() => go(`/user/${userId}`))}>
        {t('friends.menu.viewProfile')}
      </MenuItem>,
    );
    if (item.type === 'friend') {
      entries.push(
        <MenuItem
          key="message"
          onClick={run(() => {
            setFriendsOpen(false);
            openDirectChat(userId);
          })}
        >
          {t('friends.menu.sendMessage')}
        </MenuItem>,
        <MenuItem
          key="remove"
          sx={{ color: 'error.main' }}
          onClick={run(() => removeFriend(userId).catch(ignore))}
        >
          {t('friends.menu.removeFriend')}
        </MenuItem>,
      );
    }
    if (item.type === 'sent') {
      entries.push(
        <MenuItem key="cancel" onClick={run(() => cancelFriendRequest(item.request._id).catch(ignore))}>
          {t('friends.menu.cancelRequest')}
        </MenuItem>,
      );
    }
    if (item.type === 'received') {
      entries.push(
        <MenuItem key="accept" onClick={run(() => answerFriendRequest(item.request._id, true).catch(ignore))}>
          {t('friends.menu.acceptRequest')}
        </MenuItem>,
        <MenuItem
          key="decline"
          onClick={run(() => answerFriendRequest(item.request._id, false).catch(ignore))}
        >
          {t('friends.menu.declineRequest')}
        </MenuItem>,
      );
    }
  }
  return (
    <Menu anchorEl={anchor} open={Boolean(item && anchor)} onClose={onClose}>
      {entries}
    </Menu>
  );
}

function RedDot({ show, label }: { show: boolean; label: string }) {
  return (
    <Box component="span" sx={{ position: 'relative', display: 'inline-flex', alignItems: 'center' }}>
      {label}
      {show && (
        <Box
          component="span"
          data-testid="received-dot"
          sx={{
            ml: 0.5,
            width: 8,
            height: 8,
            borderRadius: '50%',
            bgcolor: 'error.main',
            display: 'inline-block',
          }}
        />
      )}
    </Box>
  );
}

export function FriendsSidebar() {
  const { t } = useTranslation();
  useEffect(ensureFriendsSync, []);
  const friends = useFriendsStore((s) => s.friends);
  const received = useFriendsStore((s) => s.received);
  const sent = useFriendsStore((s) => s.sent);
  const loaded = useFriendsStore((s) => s.loaded);
  const [tab, setTab] = useState<TabName>('friends');
  const [query, setQuery] = useState('');
  const [menu, setMenu] = useState<{ item: Item; anchor: HTMLElement } | null>(null);
  const go = useGo();
  const onMenu = (item: Item, anchor: HTMLElement) => setMenu({ item, anchor });
  const matches = filterByName(friends, query);

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
      data-testid="friends-sidebar"
    >
      <OwnCard />
      <GlobalChatEntry />
      <Tabs
        value={tab}
        onChange={(_, value: TabName) => setTab(value)}
        variant="fullWidth"
        aria-label={t('friends.sidebar.tabs')}
        sx={{
          minHeight: 40,
          borderBottom: 1,
          borderColor: 'divider',
          '& .MuiTab-root': {
            minWidth: 0,
            minHeight: 40,
            px: 0.5,
            fontSize: '0.75rem',
            textTransform: 'none',
          },
        }}
      >
        <Tab
          value="friends"
          label={
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
              {t('friends.sidebar.friendsTab')}
              <Box
                component="span"
                sx={{
                  px: 0.6,
                  borderRadius: 5,
                  fontSize: '0.68rem',
                  lineHeight: '16px',
                  bgcolor: tokens.hover,
                }}
              >
                {friends.length}
              </Box>
            </Box>
          }
        />
        <Tab
          value="received"
          label={<RedDot show={received.length > 0} label={t('friends.sidebar.receivedTab')} />}
        />
        <Tab value="sent" label={t('friends.sidebar.sentTab')} />
        <Tab
          value="search"
          aria-label={t('friends.sidebar.searchTab')}
          icon={<SearchIcon size={18} />}
          sx={{ flex: '0 0 44px' }}
        />
      </Tabs>
      <Box sx={{ flex: 1, overflowY: 'auto', minHeight: 0, pb: 1 }}>
        {tab === 'friends' &&
          (loaded && friends.length === 0 ? (
            <Empty>{t('friends.sidebar.noFriends')}</Empty>
          ) : (
            <FriendList friends={friends} onMenu={onMenu} />
          ))}
        {tab === 'received' && <RequestList kind="received" requests={received} onMenu={onMenu} />}
        {tab === 'sent' && <RequestList kind="sent" requests={sent} onMenu={onMenu} />}
        {tab === 'search' && (
          <>
            <Box sx={{ px: 2, pt: 1.5 }}>
              <TextField
                size="small"
                fullWidth
                autoFocus
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                placeholder={t('friends.sidebar.searchPlaceholder')}
                slotProps={{
                  htmlInput: { 'aria-label': t('friends.sidebar.searchPlaceholder') },
                  input: {
                    startAdornment: (
                      <InputAdornment position="start">
                        <SearchIcon size={16} />
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Box>
            {query.trim().length >= MIN_FRIEND_SEARCH_LENGTH &&
              (matches.length === 0 ? (
                <Empty>{t('friends.sidebar.noMatches')}</Empty>
              ) : (
                <FriendList friends={matches} onMenu={onMenu} />
              ))}
          </>
        )}
      </Box>
      <Box sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}>
        <Button
          fullWidth
          variant="contained"
          startIcon={<AddFriendIcon size={18} />}
          onClick={() => go('/search')}
        >
          {t('friends.sidebar.addFriends')}
        </Button>
      </Box>
      <ItemMenu item={menu?.item ?? null} anchor={menu?.anchor ?? null} onClose={() => setMenu(null)} />
    </Box>
  );
}
