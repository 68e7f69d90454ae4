import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { logout, useSession } from '../../features/session/store';
import { initI18n } from '../../i18n';
import { NavigationMenu } from './NavigationMenu';

const signIn = (role: 'ADMIN' | 'USER') =>
  useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'u1', name: 'Ace', role } });
const renderMenu = () =>
  render(
    <MemoryRouter>
      <NavigationMenu />
    </MemoryRouter>,
  );
const iconOf = (link: HTMLElement) => link.querySelector('svg')?.innerHTML;

describe('navigation menu sections', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    logout();
  });

  it('admins get their entries under an Admin heading, Users with its own icon', () => {
    signIn('ADMIN');
    renderMenu();
    const admin = screen.getByRole('list', { name: 'Admin' });
    const users = within(admin).getByRole('link', { name: 'Users' });
    expect(within(admin).getByRole('link', { name: 'Manage drops' })).toBeTruthy();
    const settings = screen.getByRole('link', { name: 'Settings' });
    expect(iconOf(users)).not.toBe(iconOf(settings));
    // The player's own entries are not under the Admin heading.
    expect(within(admin).queryByRole('link', { name: 'Leaderboard' })).toBeNull();
  });

  it('players see no Admin section; Log out sits in the Account group and ends the session', () => {
    signIn('USER');
    renderMenu();
    expect(screen.queryByRole('heading', { name: 'Admin' })).toBeNull();
    const account = screen.getByRole('list', { name: 'Account' });
    expect(within(account).getByRole('link', { name: 'Settings' })).toBeTruthy();
    fireEvent.click(within(account).getByRole('button', { name: 'Log out' }));
    expect(useSession.getState().isTokenSet).toBe(false);
  });
});
