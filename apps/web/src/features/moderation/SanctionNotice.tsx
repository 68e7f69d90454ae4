/**
 * What a sanctioned player sees: the ban in place of the queue widget's Play button ("Banned
 * until <date>: <reason>", or permanently), the mute above the chat composer.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ActiveSanction } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { useNow } from '../../ui/useNow';
import { formatDateTime, running } from './rules';
import { useRunningSanctions, useSignInBan } from './store';

/** "until <date>: <reason>" / "permanently: <reason>" for `moderation.<kind>`. */
export function useSanctionText() {
  const { t, i18n } = useTranslation();
  return (kind: 'banned' | 'muted', s: ActiveSanction) =>
    s.endsAt === null
      ? t(`moderation.${kind}.permanent`, { reason: s.reason })
      : t(`moderation.${kind}.until`, { date: formatDateTime(s.endsAt, i18n.language), reason: s.reason });
}

export function BannedNotice({ ban }: { ban: ActiveSanction }) {
  const text = useSanctionText();
  return (
    // On a phone a line of its own under the widget's title: the reason may be long.
    <Box
      data-testid="queue-banned"
      role="status"
      sx={{ minWidth: 0, flex: { xs: '1 1 100%', sm: '1 1 240px' }, maxWidth: { sm: 400 } }}
    >
      <Typography variant="body2" sx={{ fontWeight: 700, color: 'error.main', overflowWrap: 'anywhere' }}>
        {text('banned', ban)}
      </Typography>
    </Box>
  );
}

/**
 * On the login page: the ban that signed this player out or refused their sign-in, while it
 * runs ("Banned until <date>: <reason>").
 */
export function SignInBanNotice() {
  const text = useSanctionText();
  const remembered = useSignInBan((s) => s.ban);
  const now = useNow(1000, remembered?.endsAt != null);
  const ban = running(remembered, now);
  if (!ban) return null;
  return (
    <Alert severity="error" variant="outlined" role="alert" data-testid="login-banned" sx={{ mb: 2 }}>
      {text('banned', ban)}
    </Alert>
  );
}

/** The queue widget's ban notice: the running ban, or null. */
export const useBan = () => useRunningSanctions().ban;

/** Above the chat composer: the running mute (or ban), nothing otherwise. */
export function MutedNotice({ className }: { className?: string }) {
  const { ban, mute } = useRunningSanctions();
  const text = useSanctionText();
  const shown = ban ? text('banned', ban) : mute ? text('muted', mute) : null;
  if (!shown) return null;
  return (
    <div className={className} data-testid="chat-muted" role="status">
      <span>{shown}</span>
    </div>
  );
}
