/**
 * /leaderboard. The title (ScreenPage, plain React + CSS) paints with the first frame; the table
 * (MUI, the query cache) mounts once it has painted, as the landing's match lists do, so that its
 * downloads do not hold up the page's largest paint (bench/RESULTS.md, session 15).
 */
import { useTranslation } from 'react-i18next';
import { AfterFirstPaint } from '../../app/AfterFirstPaint';
import { lazyFeature } from '../../app/lazyFeature';
import { ScreenPage } from '../../ui/ScreenPage';

const LeaderboardTable = lazyFeature(() => import('./LeaderboardTable').then((m) => m.LeaderboardTable));

export function LeaderboardScreen() {
  const { t } = useTranslation();
  return (
    <ScreenPage title={t('screens.leaderboard.title')}>
      <AfterFirstPaint>
        <LeaderboardTable />
      </AfterFirstPaint>
    </ScreenPage>
  );
}
