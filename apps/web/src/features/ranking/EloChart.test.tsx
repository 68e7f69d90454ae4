import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EloChart } from './EloChart';

describe('Elo chart', () => {
  afterEach(cleanup);

  it('plots one point per Elo value, oldest left, with min and max labels', () => {
    render(
      <EloChart
        label="Elo over time"
        points={[
          { matchId: 'a', at: '2026-11-01T00:00:00Z', elo: 200 },
          { matchId: 'a', at: '2026-11-01T00:00:00Z', elo: 212 },
          { matchId: 'b', at: '2026-11-02T00:00:00Z', elo: 202 },
        ]}
      />,
    );
    const chart = screen.getByRole('img', { name: 'Elo over time' });
    const dots = [...chart.querySelectorAll('circle')];
    expect(dots).toHaveLength(3);
    const xs = dots.map((d) => Number(d.getAttribute('cx')));
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    // Higher Elo is drawn higher (smaller y).
    expect(Number(dots[1].getAttribute('cy'))).toBeLessThan(Number(dots[0].getAttribute('cy')));
    expect([...chart.querySelectorAll('text')].map((t) => t.textContent)).toEqual(['212', '206', '200']);
  });
});
