import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAfterFirstPaint } from './AfterFirstPaint';

function Probe() {
  return <p>{useAfterFirstPaint() ? 'painted' : 'first'}</p>;
}

describe('useAfterFirstPaint', () => {
  it('is false for the first render and turns true only after the frame and the task after it', async () => {
    vi.useFakeTimers();
    try {
      const frames: FrameRequestCallback[] = [];
      vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
      render(<Probe />);
      expect(screen.getByText('first')).toBeTruthy();
      // The frame has not run: nothing changes, whatever the timers do.
      await act(async () => vi.runAllTimers());
      expect(screen.getByText('first')).toBeTruthy();
      // The frame runs (just before the paint); the task it queued runs after the paint.
      act(() => frames.shift()?.(0));
      expect(screen.getByText('first')).toBeTruthy();
      await act(async () => vi.runAllTimers());
      expect(screen.getByText('painted')).toBeTruthy();
    } finally {
      vi.restoreAllMocks();
      vi.useRealTimers();
    }
  });
});
