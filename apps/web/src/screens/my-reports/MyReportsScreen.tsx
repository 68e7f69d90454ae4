/** "My reports" (/reports): the player's reports with their outcome and the warnings they received. */
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MyReports } from '../../features/reports';
import { ScreenPage } from '../../ui/ScreenPage';

export function MyReportsScreen() {
  const { t } = useTranslation();
  return (
    <ScreenPage title={t('screens.myReports.title')}>
      <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 640 }}>
        {t('reports.mine.intro')}
      </Typography>
      <MyReports />
    </ScreenPage>
  );
}
