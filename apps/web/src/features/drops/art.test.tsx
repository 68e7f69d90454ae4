import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BannerArt, bannerNames, DropArt } from './art';

describe('drop and banner artwork', () => {
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
});
