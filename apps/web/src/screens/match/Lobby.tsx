import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import type { MatchPlayer, MatchState, TeamKey } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { MapArt } from '../../features/matches/MapArt';
import { bannedBy, canBan, canPick, isCaptainOnTurn, TEAM_SIZE } from '../../features/matches/permissions';
import { ReliabilityValue } from '../../ui/Reliability';
import { UserAvatar } from '../../ui/UserAvatar';
import { TEAM_COLOURS } from './MatchHeader';

function PlayerRow({ player, captain, me }: { player: MatchPlayer; captain: boolean; me: boolean }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 0.75, sm: 1.25 },
        p: { xs: 0.75, sm: 1 },
        minWidth: 0,
        borderRadius: 2,
        bgcolor: me ? 'rgba(255,122,24,0.12)' : 'rgba(255,255,255,0.04)',
        minHeight: 52,
      }}
    >
      <UserAvatar user={player} size={30} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography noWrap sx={{ fontWeight: 700 }}>
          {player.name}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {player.elo} Elo{captain ? ` · ${t('match.captain')}` : ''}
        </Typography>
      </Box>
    </Box>
  );
}

function EmptySlot() {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        minHeight: 52,
        borderRadius: 2,
        border: '1px dashed',
        borderColor: 'divider',
        display: 'grid',
        placeItems: 'center',
        color: 'text.disabled',
        fontSize: '0.85rem',
      }}
    >
      {t('match.emptySlot')}
    </Box>
  );
}

export function TeamColumn({ state, team, myId }: { state: MatchState; team: TeamKey; myId: string | null }) {
  const players = state[team].players;
  return (
    <Box data-testid={`team-${team}`} sx={{ flex: 1, minWidth: 0 }}>
      <Typography
        sx={{
          fontWeight: 800,
          mb: 1,
          color: TEAM_COLOURS[team],
          textTransform: 'uppercase',
          letterSpacing: '0.08em',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          fontSize: '0.8rem',
        }}
      >
        {state[team].name}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.75 }}>
        {players.map((p) => (
          <PlayerRow key={p._id} player={p} captain={p._id === state[team].captain._id} me={p._id === myId} />
        ))}
        {Array.from({ length: Math.max(0, TEAM_SIZE - players.length) }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: empty slots have no identity
          <EmptySlot key={i} />
        ))}
      </Box>
    </Box>
  );
}

const TURN_BANNER_ID = 'turn-banner';

/** The turn line: "Your turn" for the captain on turn, "<captain> is picking/banning" for everybody else. */
export function TurnBanner({ state, myId }: { state: MatchState; myId: string | null }) {
  const { t } = useTranslation();
  if (!state.turn) return null;
  const mine = isCaptainOnTurn(state, myId);
  const captain = state[state.turn].captain.name;
  const key = state.status === 'playerveto' ? 'pick' : 'ban';
  return (
    <Box
      role="status"
      id={TURN_BANNER_ID}
      data-testid="turn-banner"
      sx={{
        p: 1.5,
        mb: 2,
        borderRadius: 2,
        textAlign: 'center',
        fontWeight: 800,
        border: '1px solid',
        borderColor: mine ? 'primary.main' : 'divider',
        bgcolor: mine ? 'rgba(255,122,24,0.15)' : 'rgba(255,255,255,0.03)',
        color: mine ? 'primary.main' : 'text.primary',
        animation: mine ? 'op-pulse 1.6s ease-in-out infinite' : 'none',
        '@keyframes op-pulse': { '50%': { boxShadow: '0 0 0 4px rgba(255,122,24,0.15)' } },
      }}
    >
      {mine ? t(`match.turn.your_${key}`) : t(`match.turn.other_${key}`, { name: captain })}
    </Box>
  );
}

export function PickPool({
  state,
  myId,
  onPick,
}: {
  state: MatchState;
  myId: string | null;
  onPick: (id: string) => void;
}) {
  const { t } = useTranslation();
  const active = canPick(state, myId);
  return (
    <Box>
      <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 800, mb: 1 }}>
        {t('match.pool', { count: state.pool.length })}
      </Typography>
      <Box
        data-testid="pick-pool"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' },
          gap: 1,
        }}
      >
        {state.pool.map((p) => (
          <ButtonBase
            key={p._id}
            disabled={!active}
            onClick={() => onPick(p._id)}
            // Named by what it shows (name, Elo, reliability; WCAG 2.5.3); the turn banner says what a press does.
            aria-describedby={active ? TURN_BANNER_ID : undefined}
            data-testid="pool-player"
            sx={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              gap: 0.75,
              p: 1.5,
              minWidth: 0,
              borderRadius: 2,
              border: '1px solid',
              borderColor: active ? 'primary.main' : 'divider',
              bgcolor: 'rgba(255,255,255,0.03)',
              transition: 'transform 120ms, background 120ms',
              '&:hover': active ? { bgcolor: 'rgba(255,122,24,0.14)', transform: 'translateY(-2px)' } : {},
              '&.Mui-disabled': { opacity: 0.85 },
            }}
          >
            <UserAvatar user={p} size={44} />
            <Typography noWrap sx={{ fontWeight: 700, maxWidth: '100%' }}>
              {p.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {p.elo} Elo
            </Typography>
            {/* How often this player played their matches to the end: for the captains' picks. */}
            {p.reliability !== undefined && (
              <Typography variant="caption" sx={{ display: 'flex', gap: 0.5, minWidth: 0, maxWidth: '100%' }}>
                <Box
                  component="span"
                  sx={{ color: 'text.secondary', overflow: 'hidden', textOverflow: 'ellipsis' }}
                >
                  {t('reliability.label')}
                </Box>
                <ReliabilityValue percent={p.reliability} />
              </Typography>
            )}
          </ButtonBase>
        ))}
      </Box>
    </Box>
  );
}

export function MapVeto({
  state,
  myId,
  onBan,
}: {
  state: MatchState;
  myId: string | null;
  onBan: (key: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="map-veto"
      sx={{
        display: 'grid',
        gridTemplateColumns: {
          xs: 'repeat(2, minmax(0, 1fr))',
          sm: 'repeat(3, minmax(0, 1fr))',
          lg: 'repeat(4, minmax(0, 1fr))',
        },
        gap: 1.5,
      }}
    >
      {state.mapVeto.pool.map((m) => {
        const by = bannedBy(state, m.key);
        const chosen = state.map?.key === m.key;
        const active = canBan(state, myId, m.key);
        return (
          <ButtonBase
            key={m.key}
            disabled={!active}
            onClick={() => onBan(m.key)}
            data-testid={`map-${m.key}`}
            data-banned={by ?? undefined}
            aria-label={
              by
                ? t('match.bannedBy', { map: m.name, name: state[by].captain.name })
                : active
                  ? t('match.banMap', { map: m.name })
                  : m.name
            }
            sx={{
              position: 'relative',
              display: 'block',
              borderRadius: 2,
              overflow: 'hidden',
              border: '2px solid',
              borderColor: chosen ? 'success.main' : active ? 'primary.main' : 'transparent',
              transition: 'transform 120ms, filter 200ms',
              filter: by ? 'grayscale(0.9) brightness(0.45)' : 'none',
              '&:hover': active ? { transform: 'translateY(-2px)' } : {},
              '&.Mui-disabled': { opacity: 1 },
            }}
          >
            <MapArt mapKey={m.key} name={m.name} />
            {by && (
              <Box
                sx={{
                  position: 'absolute',
                  inset: 0,
                  display: 'grid',
                  placeItems: 'center',
                  textAlign: 'center',
                }}
              >
                <Box
                  sx={{
                    px: 1,
                    py: 0.25,
                    border: '2px solid',
                    borderColor: TEAM_COLOURS[by],
                    color: TEAM_COLOURS[by],
                    fontWeight: 900,
                    fontSize: '0.75rem',
                    letterSpacing: '0.06em',
                    transform: 'rotate(-8deg)',
                    bgcolor: 'rgba(0,0,0,0.55)',
                    borderRadius: 1,
                    maxWidth: '90%',
                  }}
                >
                  {t('match.banned')}
                  <Box
                    component="span"
                    sx={{
                      display: 'block',
                      fontSize: '0.7rem',
                      fontWeight: 700,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {state[by].captain.name}
                  </Box>
                </Box>
              </Box>
            )}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
