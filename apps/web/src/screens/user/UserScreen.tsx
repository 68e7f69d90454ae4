import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import type { UserContent } from '../../app/routeTable';
import { ScreenPage } from '../../ui/ScreenPage';

const SECTIONS: UserContent[] = ['matches', 'drops', 'stats', 'friends', 'highlights'];

/** A player's page (/user/:userId): the sections as tabs, the chosen one below. */
export function UserScreen() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = SECTIONS.find((section) => pathname.endsWith(`/${section}`)) ?? false;
  return (
    <ScreenPage title={t('screens.user.title')}>
      <Tabs
        value={current}
        variant="scrollable"
        scrollButtons={false}
        aria-label={t('user.tabs.label')}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {SECTIONS.map((section) => (
          <Tab
            key={section}
            value={section}
            label={t(`user.tabs.${section}`)}
            component={Link}
            to={section}
          />
        ))}
      </Tabs>
      <Outlet />
    </ScreenPage>
  );
}
