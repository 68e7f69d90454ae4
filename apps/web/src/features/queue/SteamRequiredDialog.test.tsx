import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { SteamRequiredDialog } from './SteamRequiredDialog';
import { dispatchQueue, initialQueue, queueReducer, useQueue } from './state';

describe('Steam required for the queue', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    dispatchQueue({ type: 'reset' });
  });

  it('a STEAM_NOT_LINKED refusal opens the dialog state; closing or a reset ends it', () => {
    const open = queueReducer({ ...initialQueue, busy: true }, { type: 'steamRequired', open: true });
    expect(open).toMatchObject({ steamRequired: true, inQueue: false });
    expect(queueReducer(open, { type: 'steamRequired', open: false }).steamRequired).toBe(false);
    expect(queueReducer(open, { type: 'reset' }).steamRequired).toBe(false);
  });

  it('says what is missing and offers to link Steam, in the user language', async () => {
    render(<SteamRequiredDialog />);
    expect(screen.queryByTestId('queue-steam-required')).toBeNull();
    dispatchQueue({ type: 'steamRequired', open: true });
    const dialog = await screen.findByRole('dialog', { name: 'Steam account needed' });
    expect(dialog.textContent).toContain('Link your Steam account before queueing');
    expect(screen.getByRole('button', { name: 'Link Steam and play' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(useQueue.getState().steamRequired).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await changeLanguage('de');
    try {
      dispatchQueue({ type: 'steamRequired', open: true });
      const german = await screen.findByRole('dialog', { name: 'Steam-Konto erforderlich' });
      expect(german.textContent).toContain('Verknüpfe zuerst dein Steam-Konto');
    } finally {
      await changeLanguage('en');
    }
  });
});
