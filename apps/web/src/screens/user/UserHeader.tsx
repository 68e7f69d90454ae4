import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { UserCard as UserCardData } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { BannerArt } from '../../features/drops/art';
import { useCardActions } from '../../features/friends/useCardActions';
import { ReliabilityStat } from '../../ui/Reliability';
import { StatusLine } from '../../ui/StatusLine';
import { tokens } from '../../ui/tokens';
import { UserAvatar } from '../../ui/UserAvatar';
import { CardButtons, eloOf, RecentResults } from '../../ui/UserCard';

function Stat({ label, value, accent }: { label: string; value: string; accent?: boolean }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography
        sx={{ fontWeight: 800, fontSize: '1.25rem', color: accent ? 'primary.main' : 'text.primary' }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/** The player page header: banner, avatar, name, status, Elo, rank, recent results and actions. */
export function UserHeader({ user }: { user: UserCardData | undefined }) {
  const { t } = useTranslation();
  const { relation, actions } = useCardActions(user?._id);
  // The header's own height while it loads, so the tabs and the section below do not jump when
  // it arrives (a phone stacks the avatar above the name: 350 px, which Lighthouse measured as a
  // 0.06 layout shift with 220; bench/RESULTS.md, session 15).
  if (!user) return <Skeleton variant="rounded" sx={{ mb: 3, height: { xs: 350, sm: 220 } }} />;
  return (
    <Box
      component="header"
      data-testid="user-header"
      sx={{
        mb: 3,
        borderRadius: 2,
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <Box sx={{ height: { xs: 72, md: 104 }, overflow: 'hidden' }}>
        <BannerArt
          banner={user.banner}
          height="100%"
          label={t('friends.page.banner', { banner: user.banner })}
        />
      </Box>
      <Box sx={{ px: { xs: 2, md: 3 }, pb: 2.5 }}>
        {/* On a phone the name gets the full width below the avatar, so its words fit on a line. */}
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            alignItems: 'flex-start',
            gap: { xs: 1, sm: 2 },
          }}
        >
          <Box
            sx={{
              borderRadius: '50%',
              border: `4px solid ${tokens.surface}`,
              lineHeight: 0,
              mt: { xs: -4, md: -5 },
              flexShrink: 0,
            }}
          >
            <UserAvatar user={user} size={88} />
          </Box>
          <Box sx={{ minWidth: 0, flex: 1, pt: { xs: 0, sm: 1.25 }, width: { xs: '100%', sm: 'auto' } }}>
            <Typography
              component="h1"
              sx={{
                fontSize: { xs: '1.35rem', sm: '1.5rem', md: '1.9rem' },
                fontWeight: 800,
                lineHeight: 1.2,
                // Lines break between words; only a word longer than the whole line is split.
                overflowWrap: 'break-word',
              }}
            >
              {user.name ?? t('friends.unnamed')}
            </Typography>
            <StatusLine status={user.status} />
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: { xs: 3, md: 5 }, mt: 2, flexWrap: 'wrap', alignItems: 'flex-end' }}>
          <Stat label={t('friends.card.elo')} value={String(eloOf(user))} accent />
          <Stat
            label={t('friends.card.rank')}
            value={user.rank ? `#${user.rank}` : t('friends.card.unranked')}
          />
          {user.recentResults && user.recentResults.length > 0 && (
            <Box>
              <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
                {t('friends.card.recentResults')}
              </Typography>
              <RecentResults results={user.recentResults} />
            </Box>
          )}
          {user.reliability !== undefined && <ReliabilityStat percent={user.reliability} size="large" />}
        </Box>
        {(user.steamUrl || (relation !== 'self' && relation !== 'guest')) && (
          <Box sx={{ mt: 2 }}>
            <CardButtons user={user} relation={relation} actions={actions} size="medium" hideProfile />
          </Box>
        )}
      </Box>
    </Box>
  );
}
