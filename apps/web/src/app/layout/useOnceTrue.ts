import { useState } from 'react';

/**
 * True from the first time `flag` is true. Lazily loaded overlays mount on first use and then
 * stay mounted, so their closing transitions still play.
 */
export function useOnceTrue(flag: boolean): boolean {
  const [seen, setSeen] = useState(flag);
  if (flag && !seen) setSeen(true);
  return seen || flag;
}
