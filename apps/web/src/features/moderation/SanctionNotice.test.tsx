/**
 * A banned player sees, in place of the queue widget's Play button, "Banned until <date>:
 * <reason>" (or "permanently"); the notice goes by itself at the ban's end. A muted player sees the
 * mute above the chat composer. Plus the dialog's duration rule.
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { QueueWidget } from '../queue/QueueWidget';
import { dispatchQueue } from '../queue/state';
import { logout, useSession } from '../session/store';
import { durationMinutes, formatDateTime, running } from './rules';
import { MutedNotice, SignInBanNotice } from './SanctionNotice';
import { rememberSignInBan, useModeration } from './store';

const NOW = Date.UTC(2026, 10, 21, 12);

function renderWidget() {
  return render(
    <MemoryRouter>
      <QueueWidget />
    </MemoryRouter>,
  );
}

describe('sanction notices', () => {
  beforeAll(() => initI18n('en'));
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date', 'setInterval', 'clearInterval'] });
    useSession.setState({
      token: 'tok',
      isTokenSet: true,
      user: { _id: 'me', name: 'Me', teamSpeakId: 'ts-1' },
    });
  });
  afterEach(() => {
    cleanup();
    dispatchQueue({ type: 'reset' });
    useModeration.setState({ userId: null, state: null });
    logout();
    vi.useRealTimers();
  });

  it('a banned player sees the ban instead of Play, until its end', () => {
    const endsAt = NOW + 60 * 60_000;
    useModeration.setState({ userId: 'me', state: { ban: { reason: 'Cheating', endsAt }, mute: null } });
    renderWidget();
    const widget = screen.getByTestId('queue-widget');
    expect(within(widget).queryByRole('button', { name: 'Play' })).toBeNull();
    expect(screen.getByTestId('queue-banned').textContent).toBe(
      `Banned until ${formatDateTime(endsAt, 'en')}: Cheating`,
    );
    act(() => vi.advanceTimersByTime(60 * 60_000 + 1000));
    expect(screen.queryByTestId('queue-banned')).toBeNull();
    expect(within(widget).getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('the login page tells a player signed out by a ban why and until when, until its end', () => {
    const endsAt = NOW + 2 * 60 * 60_000;
    rememberSignInBan({ reason: 'Griefing', endsAt });
    render(<SignInBanNotice />);
    expect(screen.getByTestId('login-banned').textContent).toBe(
      `Banned until ${formatDateTime(endsAt, 'en')}: Griefing`,
    );
    act(() => vi.advanceTimersByTime(2 * 60 * 60_000 + 1000));
    expect(screen.queryByTestId('login-banned')).toBeNull();
    rememberSignInBan(null);
  });

  it('a permanent ban says so; a mute alone leaves Play in place', () => {
    useModeration.setState({
      userId: 'me',
      state: { ban: { reason: 'Smurfing', endsAt: null }, mute: null },
    });
    renderWidget();
    expect(screen.getByTestId('queue-banned').textContent).toBe('Banned permanently: Smurfing');
    cleanup();
    useModeration.setState({ userId: 'me', state: { ban: null, mute: { reason: 'Spam', endsAt: null } } });
    renderWidget();
    expect(screen.queryByTestId('queue-banned')).toBeNull();
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it("another user's stored state is not shown", () => {
    useModeration.setState({
      userId: 'someone-else',
      state: { ban: { reason: 'x', endsAt: null }, mute: null },
    });
    renderWidget();
    expect(screen.queryByTestId('queue-banned')).toBeNull();
  });

  it('a muted player sees the mute in the chat', () => {
    const endsAt = NOW + 30 * 60_000;
    useModeration.setState({ userId: 'me', state: { ban: null, mute: { reason: 'Spam', endsAt } } });
    render(<MutedNotice />);
    expect(screen.getByTestId('chat-muted').textContent).toBe(
      `You are muted in the chat until ${formatDateTime(endsAt, 'en')}: Spam`,
    );
  });
});

describe('moderation rules', () => {
  it('turns the dialog duration into minutes (absent = permanent, null = invalid)', () => {
    expect(durationMinutes('90', 'minutes')).toBe(90);
    expect(durationMinutes('2', 'hours')).toBe(120);
    expect(durationMinutes('7', 'days')).toBe(7 * 1440);
    expect(durationMinutes('', 'permanent')).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', 'x', '']) expect(durationMinutes(bad, 'days')).toBeNull();
  });

  it('a sanction runs while permanent or before its end', () => {
    expect(running({ reason: 'r', endsAt: null }, NOW)).not.toBeNull();
    expect(running({ reason: 'r', endsAt: NOW + 1 }, NOW)).not.toBeNull();
    expect(running({ reason: 'r', endsAt: NOW }, NOW)).toBeNull();
    expect(running(null, NOW)).toBeNull();
  });
});
