/**
 * The match room (/match/:matchId, public; docs/contract.md §2 match page). Header with both captains and the
 * countdown; lobby (team columns, pick pool), map veto, active (map, score, connect/GOTV), finished
 * and cancelled views; scoreboard tab; help button; match chat. Browser tab title "Match Page".
 *
 * A plain screen (app/routeTable.ts PLAIN_SCREENS): the frame, the header and a finished match's
 * result are React + CSS and paint as soon as the state has arrived; the MUI parts (./MatchRoomParts)
 * mount after that paint, so their downloads do not hold up the page's largest paint, the result
 * line (bench/RESULTS.md, session 16).
 */
import { MATCH_PAGE_TITLE } from '@openpug/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AfterFirstPaint } from '../../app/AfterFirstPaint';
import { lazyFeature } from '../../app/lazyFeature';
import { useMatchRoom } from '../../features/matches/room';
import { useSession } from '../../features/session/store';
import { ScreenPage } from '../../ui/ScreenPage';
import { MatchHeader, MatchResult } from './MatchHeader';
import type { MatchTab } from './MatchRoomParts';
import styles from './MatchScreen.module.css';

const parts = () => import('./MatchRoomParts');
const MatchToolbar = lazyFeature(() => parts().then((m) => m.MatchToolbar));
const MatchMain = lazyFeature(() => parts().then((m) => m.MatchMain));
const MatchSide = lazyFeature(() => parts().then((m) => m.MatchSide));
const MatchRoomError = lazyFeature(() => parts().then((m) => m.MatchRoomError));

function Room({ matchId }: { matchId: string }) {
  const { t } = useTranslation();
  const myId = useSession((s) => s.user?._id ?? null);
  const { state, error, socket } = useMatchRoom(matchId);
  const [tab, setTab] = useState<MatchTab>('overview');
  // The chat column mounts once the main column has: two commits where one had been the page's
  // longest task (177 ms at Lighthouse's 4× slowdown, bench/RESULTS.md session 16).
  const [mainShown, setMainShown] = useState(false);

  if (error && !state)
    return (
      <AfterFirstPaint>
        <MatchRoomError error={error} />
      </AfterFirstPaint>
    );
  if (!state)
    return (
      <div className={styles.loading}>
        <div className={styles.spinner} role="progressbar" aria-label={t('match.loading')} />
      </div>
    );

  const part = { state, socket, myId };
  const overview = tab === 'overview' || !(state.status === 'active' || state.status === 'finished');
  return (
    <>
      <MatchHeader state={state} />
      <div className={styles.toolbar}>
        <AfterFirstPaint>
          <MatchToolbar {...part} tab={tab} onTab={setTab} />
        </AfterFirstPaint>
      </div>
      <div className={styles.columns}>
        <div className={styles.main}>
          {overview && state.status === 'finished' && <MatchResult state={state} />}
          <AfterFirstPaint onShown={() => setMainShown(true)}>
            <MatchMain {...part} tab={tab} />
          </AfterFirstPaint>
        </div>
        <div className={styles.side}>
          {mainShown && (
            <AfterFirstPaint>
              <MatchSide {...part} />
            </AfterFirstPaint>
          )}
        </div>
      </div>
    </>
  );
}

export function MatchScreen() {
  const { t } = useTranslation();
  const { matchId = '' } = useParams();
  useEffect(() => {
    const previous = document.title;
    document.title = MATCH_PAGE_TITLE;
    return () => {
      document.title = previous;
    };
  }, []);
  return (
    <ScreenPage title={t('screens.match.title')}>
      <Room key={matchId} matchId={matchId} />
    </ScreenPage>
  );
}
