import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserContent } from '../../app/routeTable';

/** The player page's sections as tabs (MUI; UserScreen mounts them after its header has painted). */
export function UserTabs({ sections, current }: { sections: UserContent[]; current: UserContent | false }) {
  const { t } = useTranslation();
  return (
    <Tabs
      value={current}
      variant="scrollable"
      // Arrows beside the row whenever it is wider than the screen, phones included.
      scrollButtons="auto"
      allowScrollButtonsMobile
      data-testid="user-tabs"
      aria-label={t('user.tabs.label')}
    >
      {sections.map((section) => (
        <Tab key={section} value={section} label={t(`user.tabs.${section}`)} component={Link} to={section} />
      ))}
    </Tabs>
  );
}
