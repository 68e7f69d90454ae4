import { MATCH_PAGE_TITLE } from '@openpug/shared';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenPage } from '../../ui/ScreenPage';

/** The match room (/match/:matchId). Its browser tab reads "Match Page" (SPEC §2). */
export function MatchScreen() {
  const { t } = useTranslation();
  useEffect(() => {
    const previous = document.title;
    document.title = MATCH_PAGE_TITLE;
    return () => {
      document.title = previous;
    };
  }, []);
  return <ScreenPage title={t('screens.match.title')} />;
}
