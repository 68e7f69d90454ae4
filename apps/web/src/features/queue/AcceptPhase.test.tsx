import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { logout, useSession } from '../session/store';
import { QueueWidget } from './QueueWidget';

// The arena list the widget shows while queued: no server here to ask.
vi.mock('../arena/api', () => ({ useArenaServers: () => ({ data: { servers: [] } }) }));
// The fill estimate while searching: a young server has too little history.
vi.mock('../insights/api', () => ({
  useQueueEta: () => ({ data: { status: 'notEnoughData', days: 0, count: 1 } }),
}));

import { dispatchQueue } from './state';

const players = Array.from({ length: 10 }, (_, i) => ({
  userId: i === 0 ? 'me' : `p${i}`,
  name: `Player${i}`,
  avatar: null,
  accepted: false,
}));

describe('the accept phase keeps to the essentials', () => {
  beforeAll(() => initI18n('en'));
  beforeEach(() => {
    // A browser that has not been asked about notifications yet.
    vi.stubGlobal('Notification', { permission: 'default', requestPermission: vi.fn(async () => 'granted') });
    vi.stubGlobal(
      'Audio',
      class {
        loop = false;
        src = '';
        play = () => Promise.resolve();
        pause = () => undefined;
      },
    );
    useSession.setState({
      token: 'tok',
      isTokenSet: true,
      user: { _id: 'me', name: 'Player0', teamSpeakId: 'ts-1' },
    });
  });
  afterEach(() => {
    cleanup();
    dispatchQueue({ type: 'reset' });
    logout();
    vi.unstubAllGlobals();
  });

  it('offers notifications while searching, not in the dialog; the widget has no Leave during the phase', async () => {
    render(
      <MemoryRouter>
        <QueueWidget />
      </MemoryRouter>,
    );
    act(() => dispatchQueue({ type: 'ack', inQueue: true, count: 3, now: Date.now() }));
    const widget = screen.getByTestId('queue-widget');
    expect(within(widget).getByRole('button', { name: 'Leave' })).toBeTruthy();
    expect(within(widget).getByRole('link', { name: 'Allow notifications' })).toBeTruthy();

    act(() => dispatchQueue({ type: 'ready', players, deadline: Date.now() + 30_000 }));
    const dialog = await screen.findByTestId('accept-dialog');
    expect(within(dialog).queryByTestId('notify-allow')).toBeNull();
    expect(within(widget).queryByRole('button', { name: 'Leave' })).toBeNull();
    expect(within(widget).queryByTestId('notify-allow')).toBeNull();
    expect(widget.textContent).toContain('Match found!');
    expect(widget.textContent).not.toContain('Searching');
    // Keyboard: Accept has the focus, so Enter accepts.
    const accept = within(screen.getByRole('dialog')).getByRole('button', { name: 'Accept' });
    expect(document.activeElement).toBe(accept);
  });
});
