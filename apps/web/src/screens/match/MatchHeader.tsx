/**
 * The top of the match room: both captains with the status, the score or the veto countdown, and a
 * finished match's result. Plain React + CSS: the room's first paint (and its largest text, the
 * result line) draws them before MUI has loaded (bench/RESULTS.md, session 16).
 */
import type { MatchPlayer, MatchState, TeamKey } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { Timer } from '../../ui/Timer';
import { UserAvatar } from '../../ui/UserAvatar';
import styles from './MatchHeader.module.css';

export const TEAM_COLOURS: Record<TeamKey, string> = { teamOne: '#4da3ff', teamTwo: '#ff7a59' };

function Captain({
  player,
  team,
  align,
  active,
}: {
  player: MatchPlayer;
  team: TeamKey;
  align: 'left' | 'right';
  active: boolean;
}) {
  const { t } = useTranslation();
  const colour = TEAM_COLOURS[team];
  return (
    <div
      className={align === 'right' ? `${styles.captain} ${styles.right}` : styles.captain}
      data-testid={`captain-${team}`}
    >
      <div
        className={styles.ring}
        style={{
          background: active ? colour : 'transparent',
          boxShadow: active ? `0 0 18px ${colour}` : 'none',
        }}
      >
        <UserAvatar user={player} size={52} />
      </div>
      <div className={styles.who}>
        <span className={styles.role} style={{ color: colour }}>
          {t('match.captain')} · {t(`match.${team}`)}
        </span>
        <p className={styles.name}>{player.name}</p>
        <span className={styles.elo}>{player.elo} Elo</span>
      </div>
    </div>
  );
}

const CHIP_CLASS: Partial<Record<MatchState['status'], string>> = {
  active: `${styles.chip} ${styles.chipActive}`,
  cancelled: `${styles.chip} ${styles.chipCancelled}`,
};

export function MatchHeader({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  // A match cancelled once its map was set shows where the game stopped; only the veto counts down.
  const showScore =
    state.status === 'active' ||
    state.status === 'finished' ||
    (state.status === 'cancelled' && state.map !== null);
  const vetoing = state.status === 'playerveto' || state.status === 'mapveto';
  return (
    <header className={styles.header}>
      <Captain player={state.teamOne.captain} team="teamOne" align="left" active={state.turn === 'teamOne'} />
      <div className={styles.centre}>
        <span className={CHIP_CLASS[state.status] ?? styles.chip} data-testid="match-status">
          {t(`match.status.${state.status}`)}
        </span>
        {showScore ? (
          <p className={styles.score} data-testid="match-score">
            <span style={{ color: TEAM_COLOURS.teamOne }}>{state.score.teamOne}</span>
            <span className={styles.scoreSeparator}>:</span>
            <span style={{ color: TEAM_COLOURS.teamTwo }}>{state.score.teamTwo}</span>
          </p>
        ) : (
          vetoing && (
            <div data-testid="match-countdown">
              <Timer deadline={state.deadline} size="1.8rem" />
            </div>
          )
        )}
      </div>
      <Captain
        player={state.teamTwo.captain}
        team="teamTwo"
        align="right"
        active={state.turn === 'teamTwo'}
      />
    </header>
  );
}

/** A finished match's winner (or a draw) and its map. */
export function MatchResult({ state }: { state: MatchState }) {
  const { t } = useTranslation();
  const winner = state.winner;
  return (
    <div
      data-testid="match-finished"
      className={styles.result}
      style={winner && winner !== 'draw' ? { borderColor: TEAM_COLOURS[winner] } : undefined}
    >
      <p className={styles.resultTitle}>
        {winner === 'draw' || !winner ? t('match.draw') : t('match.winner', { team: state[winner].name })}
      </p>
      <p className={styles.resultMap}>{state.map?.name}</p>
    </div>
  );
}
