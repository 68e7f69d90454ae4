/**
 * Countdown timer (docs/contract.md §2): mm:ss to a deadline, ticking every second, highlighted in the last
 * 10 seconds. Arithmetic in ./countdown.
 */
import { TIMER_TICK_MS } from '@openpug/shared';
import { formatMmSs, isUrgent, secondsLeft } from './countdown';
import { tokens } from './tokens';
import { useNow } from './useNow';

/**
 * Whole seconds left until `deadline` (epoch ms), re-rendering every `everyMs` (a second unless a
 * screen wants a finer tick); 0 without a deadline.
 */
export function useSecondsLeft(deadline: number | null, everyMs = TIMER_TICK_MS): number {
  const now = useNow(everyMs, deadline !== null);
  return deadline === null ? 0 : secondsLeft(deadline, now);
}

export function Timer({ deadline, size }: { deadline: number | null; size?: string }) {
  const left = useSecondsLeft(deadline);
  return (
    <span
      data-testid="timer"
      data-urgent={isUrgent(left)}
      style={{
        fontSize: size,
        fontWeight: 800,
        fontVariantNumeric: 'tabular-nums',
        color: isUrgent(left) ? tokens.error : undefined,
      }}
    >
      {formatMmSs(left)}
    </span>
  );
}
