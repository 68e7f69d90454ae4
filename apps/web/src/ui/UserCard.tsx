import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { UserStatus } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BannerArt } from '../features/drops/art';
import { ReportButton } from '../features/reports/ReportButton';
import { eloOf, RecentResults } from './CardFigures';
import { ReliabilityStat } from './Reliability';
import { StatusLine } from './StatusLine';
import { UserAvatar } from './UserAvatar';

/** The user as cards show it (docs/contract.md §3 User); Elo shows as 200 when missing. */
export interface CardUser {
  _id: string;
  name: string | null;
  avatar: string | null;
  steamUrl: string | null;
  stats?: { elo?: number } | null;
  rank?: number | null;
  status?: UserStatus | null;
  recentResults?: readonly ('W' | 'L')[];
  /** Reliability in percent (null: no matches yet); left out where the source does not carry it. */
  reliability?: number | null;
  /** The chosen banner (drawn as a strip on top when known). */
  banner?: string;
}

export type CardRelation = 'self' | 'friend' | 'sent' | 'received' | 'none' | 'guest';

export interface CardActions {
  onAddFriend?: () => void;
  onMessage?: () => void;
  onAccept?: () => void;
  onCancel?: () => void;
  /** Only where removing fits (the player page); cards in lists leave it out. */
  onRemove?: () => void;
}

/** The friend and profile buttons of a user card; friend buttons follow the relation. */
export function CardButtons({
  user,
  relation,
  actions,
  size = 'small',
  hideProfile = false,
}: {
  user: CardUser;
  relation: CardRelation;
  actions: CardActions;
  size?: 'small' | 'medium';
  /** On the profile page itself. */
  hideProfile?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
      {!hideProfile && (
        <Button size={size} variant="outlined" component={Link} to={`/user/${user._id}`}>
          {t('friends.actions.profile')}
        </Button>
      )}
      {user.steamUrl && (
        <Button
          size={size}
          variant="outlined"
          color="inherit"
          href={user.steamUrl}
          target="_blank"
          rel="noopener"
        >
          {t('friends.actions.steam')}
        </Button>
      )}
      {relation === 'none' && actions.onAddFriend && (
        <Button size={size} variant="contained" onClick={actions.onAddFriend}>
          {t('friends.actions.addFriend')}
        </Button>
      )}
      {relation === 'friend' && actions.onMessage && (
        <Button size={size} variant="contained" onClick={actions.onMessage}>
          {t('friends.actions.message')}
        </Button>
      )}
      {relation === 'friend' && actions.onRemove && (
        <Button size={size} variant="outlined" color="error" onClick={actions.onRemove}>
          {t('friends.actions.remove')}
        </Button>
      )}
      {relation === 'received' && actions.onAccept && (
        <Button size={size} variant="contained" color="success" onClick={actions.onAccept}>
          {t('friends.actions.accept')}
        </Button>
      )}
      {relation === 'sent' && actions.onCancel && (
        <Button size={size} variant="outlined" color="warning" onClick={actions.onCancel}>
          {t('friends.actions.cancelRequest')}
        </Button>
      )}
      {relation !== 'self' && relation !== 'guest' && <ReportButton user={user} size={size} />}
    </Box>
  );
}

/**
 * The user card of docs/contract.md §2: avatar, name, status, Elo and rank, recent results as W/L letters,
 * the game-platform link, Profile and the friend buttons that fit the relation (none for
 * yourself; Add Friend only when there is neither a friendship nor a pending request).
 */
export function UserCard({
  user,
  relation,
  actions = {},
  elevation = 0,
}: {
  user: CardUser;
  relation: CardRelation;
  actions?: CardActions;
  elevation?: number;
}) {
  const { t } = useTranslation();
  const name = user.name ?? t('friends.unnamed');
  return (
    <Paper
      elevation={elevation}
      variant={elevation ? 'elevation' : 'outlined'}
      data-testid="user-card"
      aria-label={name}
      component="article"
      sx={{
        p: 2,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        minWidth: 0,
        bgcolor: 'background.paper',
        overflow: 'hidden',
      }}
    >
      {user.banner && (
        <Box sx={{ mx: -2, mt: -2, height: 40, overflow: 'hidden' }} data-testid="card-banner">
          <BannerArt banner={user.banner} height="100%" />
        </Box>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
        <UserAvatar user={user} size={48} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography
            component="h3"
            sx={{
              fontWeight: 700,
              fontSize: '1rem',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {name}
          </Typography>
          {user.status && <StatusLine status={user.status} dense />}
        </Box>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box>
          <Typography variant="caption" color="text.secondary" component="div">
            {t('friends.card.elo')}
          </Typography>
          <Typography sx={{ fontWeight: 800, color: 'primary.main' }}>{eloOf(user)}</Typography>
        </Box>
        {user.rank !== undefined && (
          <Box>
            <Typography variant="caption" color="text.secondary" component="div">
              {t('friends.card.rank')}
            </Typography>
            <Typography sx={{ fontWeight: 700 }}>
              {user.rank ? `#${user.rank}` : t('friends.card.unranked')}
            </Typography>
          </Box>
        )}
        {user.recentResults && user.recentResults.length > 0 && (
          <Box>
            <Typography variant="caption" color="text.secondary" component="div">
              {t('friends.card.recentResults')}
            </Typography>
            <RecentResults results={user.recentResults} />
          </Box>
        )}
        {user.reliability !== undefined && <ReliabilityStat percent={user.reliability} />}
      </Box>
      <CardButtons user={user} relation={relation} actions={actions} />
    </Paper>
  );
}
