/**
 * /settings (docs/contract.md §2, §4): banner (from the unlocked banners), notification sound with preview,
 * language, and the linked accounts: Steam (popup) and the voice server (link dialog / unlink).
 * Discord and WhatsApp add their rows in the marked slots below (LinkedAccountRow).
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import {
  DEFAULT_BANNER,
  DEFAULT_SOUND,
  LOCALES,
  type Locale,
  type Profile,
  type Unlocks,
} from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkedAccountRow } from '../../features/accounts/LinkedAccountRow';
import { LogoutButton } from '../../features/accounts/LogoutButton';
import { SteamLogo } from '../../features/accounts/SteamButton';
import { NOTIFICATION_SOUNDS, playSound } from '../../features/accounts/sounds';
import { reportSteamPopupError, steamLink } from '../../features/accounts/steamPopup';
import { linkedVoiceText, unlinkVoice } from '../../features/accounts/voiceLink';
import { openVoiceLinkDialog } from '../../features/accounts/voiceLinkState';
import { api } from '../../features/api/client';
import { setLoading, setSuccessMessage } from '../../features/app-state/store';
import { DiscordRow } from '../../features/discord/DiscordRow';
import { setLocale } from '../../features/locale/locale';
import { QueueAlertSection } from '../../features/queue-alerts';
import { updateSessionUser, useSession } from '../../features/session/store';
import { WhatsAppRow } from '../../features/whatsapp/WhatsAppRow';
import { ScreenPage } from '../../ui/ScreenPage';
import { Section } from '../profile/ProfileScreen';
import { YourDataSection } from './YourDataSection';

function PlayIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M8 5v14l11-7z" />
    </svg>
  );
}

function HeadsetIcon() {
  return (
    <svg width={22} height={22} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M12 3a9 9 0 0 0-9 9v6a3 3 0 0 0 3 3h2v-8H5v-1a7 7 0 0 1 14 0v1h-3v8h2a3 3 0 0 0 3-3v-6a9 9 0 0 0-9-9Z" />
    </svg>
  );
}

const soundLabel = (file: string) => file.replace(/\.\w+$/, '');

async function saveProfile(body: Record<string, unknown>, quiet = false) {
  if (!quiet) setLoading(true);
  const profile = await api.patch<Profile>('/profile', body, { silent: quiet });
  if (!quiet) setLoading(false);
  updateSessionUser(profile as unknown as Record<string, unknown>);
  return profile;
}

function Appearance() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const currentBanner = String(user?.banner ?? DEFAULT_BANNER);
  const currentSound = String(user?.sound ?? NOTIFICATION_SOUNDS[0]);
  // Only what the player has unlocked (defaults + what their drops unlock; competition module).
  const unlocks = useQuery({
    queryKey: ['profile', 'unlocks'],
    queryFn: ({ signal }) => api.get<Unlocks>('/profile/unlocks', { silent: true, signal }),
  });
  const fromProfile = Array.isArray(user?.unlockedBanners) ? (user.unlockedBanners as string[]) : [];
  const unlocked = [...new Set([...fromProfile, ...(unlocks.data?.banners ?? [])])];
  const banners = unlocked.includes(currentBanner) ? unlocked : [currentBanner, ...unlocked];
  const unlockedSounds = unlocks.data?.sounds ?? [DEFAULT_SOUND];
  const sounds: string[] = [
    ...new Set([currentSound, ...NOTIFICATION_SOUNDS.filter((file) => unlockedSounds.includes(file))]),
  ];
  const [banner, setBanner] = useState(currentBanner);
  const [sound, setSound] = useState(currentSound);
  const dirty = banner !== currentBanner || sound !== currentSound;

  const save = async () => {
    try {
      await saveProfile({ banner, sound });
      setSuccessMessage({ key: 'myProfile.PROFILE_SAVED_SUCCESSFULLY' });
    } catch {
      // Error dialog (BANNER_NOT_UNLOCKED …).
    }
  };

  return (
    <Section title={t('accounts.settings.appearance')}>
      <Stack spacing={2.5}>
        <TextField
          select
          label={t('accounts.settings.banner')}
          value={banner}
          onChange={(e) => setBanner(e.target.value)}
          helperText={t('accounts.settings.bannerHint')}
        >
          {banners.map((b) => (
            <MenuItem key={b} value={b}>
              {b}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            select
            fullWidth
            label={t('accounts.settings.sound')}
            value={sound}
            onChange={(e) => {
              setSound(e.target.value);
              playSound(e.target.value);
            }}
          >
            {sounds.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`accounts.sounds.${soundLabel(s)}`, { defaultValue: soundLabel(s) })}
              </MenuItem>
            ))}
          </TextField>
          <Tooltip title={t('accounts.settings.preview')}>
            <IconButton
              aria-label={t('accounts.settings.preview')}
              onClick={() => playSound(sound)}
              sx={{ mt: 1, border: 1, borderColor: 'divider' }}
            >
              <PlayIcon />
            </IconButton>
          </Tooltip>
        </Stack>
        <Box>
          <Button variant="contained" disabled={!dirty} onClick={() => void save()}>
            {t('accounts.profile.save')}
          </Button>
        </Box>
      </Stack>
    </Section>
  );
}

function Language() {
  const { t, i18n } = useTranslation();
  const change = async (locale: Locale) => {
    await setLocale(locale);
    // The server writes e-mails and bot messages in the account's language.
    await saveProfile({ locale }, true).catch(() => undefined);
  };
  return (
    <Section title={t('language.label')}>
      <TextField
        select
        fullWidth
        label={t('language.label')}
        value={i18n.language}
        onChange={(e) => void change(e.target.value as Locale)}
      >
        {LOCALES.map((l) => (
          <MenuItem key={l} value={l} lang={l}>
            {t(`language.${l}`)}
          </MenuItem>
        ))}
      </TextField>
    </Section>
  );
}

function LinkedAccounts() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const steamUrl = typeof user?.steamUrl === 'string' ? user.steamUrl : null;
  const teamSpeakId = typeof user?.teamSpeakId === 'string' ? user.teamSpeakId : null;

  const linkSteam = async () => {
    try {
      await steamLink();
      setSuccessMessage({ key: 'accounts.steam.linked' });
    } catch (err) {
      reportSteamPopupError(err);
    }
  };

  return (
    <Section title={t('accounts.settings.linkedAccounts')}>
      <Box>
        <LinkedAccountRow
          testId="linked-steam"
          icon={<SteamLogo />}
          title="Steam"
          linked={Boolean(user?.steamId)}
          detail={
            steamUrl ? (
              <Link href={steamUrl} target="_blank" rel="noopener noreferrer">
                {t('accounts.settings.steamProfile')}
              </Link>
            ) : (
              t('accounts.settings.steamHint')
            )
          }
          action={
            user?.steamId ? null : (
              <Button variant="outlined" onClick={() => void linkSteam()}>
                {t('accounts.settings.link')}
              </Button>
            )
          }
        />
        <LinkedAccountRow
          testId="linked-voice"
          icon={<HeadsetIcon />}
          title={t('accounts.voice.title')}
          linked={Boolean(teamSpeakId)}
          detail={
            teamSpeakId ? (
              // The nickname it had when linked (else the uid shortened); the uid in full on hover.
              <span title={teamSpeakId} data-testid="voice-identity">
                {linkedVoiceText(t, teamSpeakId, user?.teamSpeakName)}
              </span>
            ) : (
              t('accounts.voice.homeHint')
            )
          }
          action={
            teamSpeakId ? (
              <Button
                variant="outlined"
                color="error"
                onClick={() => void unlinkVoice().catch(() => undefined)}
              >
                {t('accounts.voice.unlink')}
              </Button>
            ) : (
              <Button variant="outlined" onClick={openVoiceLinkDialog}>
                {t('accounts.settings.link')}
              </Button>
            )
          }
        />
        <DiscordRow />
        <WhatsAppRow />
      </Box>
    </Section>
  );
}

export function SettingsScreen() {
  const { t } = useTranslation();
  return (
    <ScreenPage title={t('screens.settings.title')}>
      <Stack spacing={3} sx={{ maxWidth: 720 }}>
        <LinkedAccounts />
        <Section title={t('queueAlerts.title')}>
          <QueueAlertSection />
        </Section>
        <Appearance />
        <Language />
        <YourDataSection />
        <Box>
          <LogoutButton />
        </Box>
      </Stack>
    </ScreenPage>
  );
}
