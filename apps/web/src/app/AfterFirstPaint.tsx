import { type ReactNode, Suspense, startTransition, useEffect, useState } from 'react';

/**
 * False on the first render, true once the browser has painted it. A lazy part rendered only then
 * starts its downloads after the first paint instead of in the same render (React.lazy imports
 * during rendering): Lighthouse counts every request that starts before the largest paint as
 * holding it up, and the landing page's match lists (MUI, the query cache: about 140 KB) had made
 * its LCP 3.1 s where its first paint was 1.9 s (bench/RESULTS.md, session 15).
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  // A transition: React renders what mounts then in slices that yield to the browser, instead of
  // one long task that would hold a tap (Lighthouse's total blocking time; bench/RESULTS.md,
  // session 16).
  useEffect(() => afterNextPaint(() => startTransition(() => setPainted(true))), []);
  return painted;
}

/** Runs `fn` in a task after the browser's next paint; returns what cancels it. */
export function afterNextPaint(fn: () => void): () => void {
  // requestAnimationFrame runs just before the next paint; the task it queues runs after it.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * Renders its (lazy) children once the first paint is done; nothing until they have loaded.
 * `onShown` is called once they have mounted: a screen mounts its next part only then, so each
 * part is a commit (one task) of its own rather than one long commit of them all.
 */
export function AfterFirstPaint({ children, onShown }: { children: ReactNode; onShown?: () => void }) {
  const painted = useAfterFirstPaint();
  return (
    <Suspense fallback={null}>
      {painted && children}
      {painted && onShown && <Shown onShown={onShown} />}
    </Suspense>
  );
}

/** Calls `onShown` after the commit it is part of (its Suspense siblings have mounted). */
function Shown({ onShown }: { onShown: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at the mount
  useEffect(() => {
    onShown();
  }, []);
  return null;
}
