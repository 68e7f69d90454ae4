/**
 * /leaderboard. The title is plain React + CSS and paints with the first frame; the table (MUI,
 * the query cache) mounts once it has painted, as the landing's match lists do, so that its
 * downloads do not hold up the page's largest paint (bench/RESULTS.md, session 15).
 */
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyFeature } from '../../app/lazyFeature';
import { useAfterFirstPaint } from '../../app/useAfterFirstPaint';
import { PlainScreenPage } from '../../ui/PlainScreenPage';

const LeaderboardTable = lazyFeature(() => import('./LeaderboardTable').then((m) => m.LeaderboardTable));

export function LeaderboardScreen() {
  const { t } = useTranslation();
  const painted = useAfterFirstPaint();
  return (
    <PlainScreenPage title={t('screens.leaderboard.title')}>
      <Suspense fallback={null}>{painted && <LeaderboardTable />}</Suspense>
    </PlainScreenPage>
  );
}
