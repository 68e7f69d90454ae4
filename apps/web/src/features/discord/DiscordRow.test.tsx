import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n';
import { renderWithSession, sessionTestHooks } from '../../test/session';
import { DiscordRow } from './DiscordRow';

const DISCORD_ID = '700000000000000001';

async function renderLinked(dmFailedAt: number | null, lang: 'en' | 'de' = 'en') {
  await changeLanguage(lang);
  return renderWithSession(<DiscordRow />, {
    answer: () => ({ discordId: DISCORD_ID, dmFailedAt }),
    user: { discordId: DISCORD_ID },
  });
}

describe('settings: Discord row', () => {
  sessionTestHooks();

  it('says in words when Discord refused the last direct message', async () => {
    const fetch = await renderLinked(Date.UTC(2026, 0, 1));
    expect((await screen.findByTestId('discord-dm-failed')).textContent).toBe(
      'We could not send you a Discord message: enable direct messages from server members',
    );
    expect(String(fetch.mock.calls[0]?.[0])).toContain('/api/profile/discord');
  });

  it('in German too', async () => {
    await renderLinked(Date.UTC(2026, 0, 1), 'de');
    expect((await screen.findByTestId('discord-dm-failed')).textContent).toBe(
      'Wir konnten dir keine Discord-Nachricht schicken: erlaube Direktnachrichten von Servermitgliedern',
    );
  });

  it('shows nothing while DMs go through', async () => {
    const fetch = await renderLinked(null);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('discord-dm-failed')).toBeNull();
    expect(screen.getByTestId('linked-discord')).toBeTruthy();
  });
});
