/**
 * Settings row: Discord (docs/contract.md §4). Unlinked: get a one-time code and the `/link <code>` command to
 * type in the community's Discord; the row turns linked by itself (live user update). Linked: the
 * Discord id and unlink (discord.UNLINKED), and a warning when Discord refused the last direct
 * message because the player does not accept DMs (GET /api/profile/discord → dmFailedAt).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DiscordLinkCode, DiscordStatus } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkedAccountRow } from '../accounts';
import { api } from '../api';
import { setSuccessMessage } from '../app-state';
import { dayjs } from '../dates';
import { updateSessionUser, useSession } from '../session';
import { DiscordGlyph } from './icons';

export function DiscordRow() {
  const { t } = useTranslation();
  const discordId = (useSession((s) => s.user) as { discordId?: string | null } | null)?.discordId ?? null;
  const [code, setCode] = useState<DiscordLinkCode | null>(null);
  const [copied, setCopied] = useState(false);
  const status = useQuery({
    queryKey: ['reach', 'discord', discordId],
    queryFn: ({ signal }) => api.get<DiscordStatus>('/profile/discord', { signal, silent: true }),
    enabled: Boolean(discordId),
  });
  const dmFailed = Boolean(discordId && status.data?.discordId === discordId && status.data.dmFailedAt);

  const generate = async () => {
    setCode(await api.post<DiscordLinkCode>('/profile/discord/generate-link-code'));
    setCopied(false);
  };
  const unlink = async () => {
    await api.delete('/profile/discord/link');
    updateSessionUser({ discordId: null } as Record<string, unknown>);
    setCode(null);
    setSuccessMessage({ key: 'discord.UNLINKED', timeout: 4000 });
  };
  const command = code ? `/link ${code.data}` : '';

  return (
    <>
      <LinkedAccountRow
        testId="linked-discord"
        icon={<DiscordGlyph />}
        title="Discord"
        linked={Boolean(discordId)}
        detail={discordId ? t('reach.discord.linkedAs', { id: discordId }) : t('reach.discord.hint')}
        action={
          discordId ? (
            <Button variant="outlined" color="error" onClick={() => void unlink().catch(() => undefined)}>
              {t('reach.discord.unlink')}
            </Button>
          ) : (
            <Button variant="outlined" onClick={() => void generate().catch(() => undefined)}>
              {code ? t('reach.discord.newCode') : t('reach.discord.getCode')}
            </Button>
          )
        }
      />
      {dmFailed && (
        <Alert data-testid="discord-dm-failed" severity="warning" sx={{ mb: 1.5 }}>
          {t('reach.discord.dmFailed')}
        </Alert>
      )}
      {code && !discordId && (
        <Box
          data-testid="discord-code"
          sx={{
            mb: 1.5,
            p: 1.5,
            borderRadius: 2,
            bgcolor: 'action.hover',
            border: 1,
            borderColor: 'divider',
          }}
        >
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {t('reach.discord.codeTitle')}
          </Typography>
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', my: 1, flexWrap: 'wrap', rowGap: 1 }}
          >
            <Box
              component="code"
              sx={{
                fontFamily: 'ui-monospace, monospace',
                fontSize: '1.15rem',
                letterSpacing: 1,
                px: 1.25,
                py: 0.5,
                borderRadius: 1,
                bgcolor: 'background.default',
              }}
            >
              {command}
            </Box>
            <Button
              size="small"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(command)
                  .then(() => setCopied(true))
                  .catch(() => undefined)
              }
            >
              {copied ? t('reach.discord.copied') : t('reach.discord.copy')}
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('reach.discord.codeHelp', { time: dayjs(code.expiresAt).fromNow() })}
          </Typography>
        </Box>
      )}
    </>
  );
}
