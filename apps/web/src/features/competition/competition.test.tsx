import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { navItemsFor } from '../../app/layout/navItems';
import { BannerArt, bannerNames, DropArt } from './art';
import { EloChart } from './EloChart';

describe('competition artwork and chart', () => {
  afterEach(cleanup);

  it('draws every banner of the shared list and falls back to ezpug for unknown names', () => {
    expect(bannerNames).toEqual(['ezpug', 'sunset', 'circuit', 'aurora', 'inferno']);
    render(<BannerArt banner="nope" label="Banner nope" />);
    const svg = screen.getByRole('img', { name: 'Banner nope' });
    expect(svg.querySelector('linearGradient')?.id).toBe('banner-ezpug');
  });

  it('draws built-in drop art, or the https image', () => {
    const { container, rerender } = render(<DropArt image="knife" rarity="legendary" />);
    expect(container.querySelector('svg rect')?.getAttribute('stroke')).toBe('#ffb300');
    rerender(<DropArt image="https://img.example/x.png" rarity="rare" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://img.example/x.png');
  });

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

  it('shows the admin entries only to admins', () => {
    const paths = (role: 'ADMIN' | 'USER') => navItemsFor(true, { _id: 'u1', role }).map((i) => i.to);
    expect(paths('ADMIN')).toEqual(expect.arrayContaining(['/admin/drops', '/admin/users']));
    expect(paths('USER')).not.toContain('/admin/drops');
    expect(paths('USER')).not.toContain('/admin/users');
  });
});
