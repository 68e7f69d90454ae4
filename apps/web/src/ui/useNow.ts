import { useEffect, useState } from 'react';

/**
 * The current time (epoch ms), refreshed every `everyMs` while `active`, so countdowns, elapsed
 * times and relative "last seen" texts stay true while shown. Inactive, it stops ticking.
 */
export function useNow(everyMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, active]);
  return now;
}
