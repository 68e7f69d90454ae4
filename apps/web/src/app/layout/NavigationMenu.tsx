/**
 * The navigation sidebar's content (docs/contract.md §2 Sidebar), shared by the docked sidebar and the phone
 * drawer. Plain React + CSS: it is part of the first paint.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router';
import { LanguageSwitch } from '../../features/locale/LanguageSwitch';
import { openQrDialog } from '../../features/qr/state';
import { logout, useSession } from '../../features/session/store';
import controls from '../../ui/controls.module.css';
import { FriendsIcon, LobbyIcon, LoginIcon, LogoutIcon, NotificationsIcon } from '../../ui/icons';
import { Logo } from '../../ui/Logo';
import { APP_VERSION } from '../versionCheck';
import { setFriendsOpen } from './layoutState';
import styles from './NavigationMenu.module.css';
import { activeMatchId, type NavItem, type NavSection, navSectionsFor } from './navItems';

function NavEntry({ item }: { item: NavItem }) {
  const { t } = useTranslation();
  const Icon = item.icon;
  return (
    <li>
      <NavLink to={item.to} end className={styles.link}>
        <Icon />
        <span>{t(item.label)}</span>
        {item.badge ? (
          <span className={styles.badge} title={t('nav.unseenDrops', { count: item.badge })}>
            {item.badge > 99 ? '99+' : item.badge}
          </span>
        ) : null}
      </NavLink>
    </li>
  );
}

/** Log out from the menu: the session ends, the app goes to the login route (sessionRules). */
function LogoutEntry() {
  const { t } = useTranslation();
  return (
    <li>
      <button
        type="button"
        className={styles.link}
        onClick={() => {
          logout();
          // The cached server data belongs to the old session (the cache is not in the first paint).
          void import('../../features/api/queryClient').then((m) => m.queryClient.clear());
        }}
      >
        <LogoutIcon />
        <span>{t('accounts.logout')}</span>
      </button>
    </li>
  );
}

/** One group of entries; groups after the first have a small heading ("Account", "Admin"). */
function NavGroup({ section, children }: { section: NavSection; children?: ReactNode }) {
  const { t } = useTranslation();
  const headingId = `nav-heading-${section.id}`;
  return (
    <>
      {section.heading && (
        <h2 id={headingId} className={styles.heading}>
          {t(section.heading)}
        </h2>
      )}
      <ul className={styles.list} aria-labelledby={section.heading ? headingId : undefined}>
        {section.items.map((item) => (
          <NavEntry key={item.to} item={item} />
        ))}
        {children}
      </ul>
    </>
  );
}

function MatchLobbyButton({ matchId }: { matchId: string }) {
  const { t } = useTranslation();
  return (
    <Link
      to={`/match/${matchId}`}
      className={`${controls.button} ${controls.primary} ${controls.fullWidth} ${styles.lobby}`}
    >
      <LobbyIcon size={20} />
      {t('nav.matchLobby')}
    </Link>
  );
}

/** Visitors: log in (the login screen: Steam popup or e-mail), and the notifications bell, which does nothing yet (docs/contract.md §2). */
function GuestActions() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className={styles.actions}>
      <button
        type="button"
        className={`${controls.button} ${controls.primary}`}
        onClick={() => navigate('/login')}
      >
        <LoginIcon size={20} />
        {t('nav.login')}
      </button>
      <button
        type="button"
        className={controls.iconButton}
        aria-label={t('nav.notifications')}
        title={t('nav.notifications')}
      >
        <NotificationsIcon size={20} />
      </button>
    </div>
  );
}

/** Below the wide layout the friends sidebar is a drawer; this opens it. */
function FriendsToggle() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`${controls.button} ${controls.outlined} ${styles.friendsToggle}`}
      onClick={() => setFriendsOpen(true)}
    >
      <FriendsIcon size={20} />
      {t('nav.friends')}
    </button>
  );
}

/** Opens the QR dialog that signs the phone in to the mobile queue app (/m). */
function PhoneQueueButton() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`${controls.button} ${controls.outlined} ${controls.fullWidth}`}
      onClick={openQrDialog}
      data-testid="open-qr"
    >
      <svg width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
        <path d="M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm0 3v13h10V5H7Zm5 14.2a1 1 0 1 0 0 2 1 1 0 0 0 0-2Z" />
      </svg>
      {t('reach.qr.open')}
    </button>
  );
}

export function NavigationMenu() {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  const user = useSession((s) => s.user);
  const matchId = loggedIn ? activeMatchId(user) : null;
  return (
    <div className={styles.menu}>
      <Link to="/" className={styles.brand} aria-label={t('app.home')}>
        <Logo />
      </Link>
      <nav aria-label={t('nav.label')}>
        {navSectionsFor(loggedIn, user).map((section) => (
          <NavGroup key={section.id} section={section}>
            {section.id === 'account' && <LogoutEntry />}
          </NavGroup>
        ))}
      </nav>
      {matchId && <MatchLobbyButton matchId={matchId} />}
      <div className={styles.spacer} />
      {loggedIn && <PhoneQueueButton />}
      {loggedIn ? <FriendsToggle /> : <GuestActions />}
      <div className={styles.footer}>
        <LanguageSwitch />
        <span className={styles.version} title={APP_VERSION}>
          {t('app.version', { version: APP_VERSION.split('.').slice(0, 3).join('.') })}
        </span>
      </div>
    </div>
  );
}
