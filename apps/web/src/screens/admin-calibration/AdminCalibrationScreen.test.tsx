import type { Calibration } from '@openpug/shared';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';

let answer: Calibration | undefined;
vi.mock('../../features/insights/api', () => ({ useCalibration: () => ({ data: answer }) }));

import { AdminCalibrationScreen } from './AdminCalibrationScreen';

const show = () =>
  render(
    <MemoryRouter>
      <AdminCalibrationScreen />
    </MemoryRouter>,
  );

describe("the admins' calibration page", () => {
  beforeAll(() => initI18n('en'));
  afterEach(cleanup);

  it('says "not enough matches yet" below the minimum, with the count', () => {
    answer = { matches: 12, minMatches: 30, brier: null, bins: [] };
    show();
    expect(screen.getByTestId('calibration-not-enough').textContent).toContain('12 of 30');
    expect(screen.queryByTestId('reliability-plot')).toBeNull();
  });

  it('shows the Brier score, a point per bin on the SVG plot and the same figures as a table', () => {
    answer = {
      matches: 40,
      minMatches: 30,
      brier: 0.2331,
      bins: [
        { from: 0.3, to: 0.4, count: 20, predicted: 0.35, observed: 0.3 },
        { from: 0.7, to: 0.8, count: 20, predicted: 0.72, observed: 0.75 },
      ],
    };
    show();
    expect(screen.getByTestId('calibration-brier').textContent).toBe('0.233');
    const plot = screen.getByRole('img', { name: /Reliability plot/ });
    expect(plot.querySelectorAll('[data-testid="reliability-point"]')).toHaveLength(2);
    const rows = within(screen.getByTestId('calibration-table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'PredictionMatchesPredictedWon',
      '30–40 %2035 %30 %',
      '70–80 %2072 %75 %',
    ]);
  });
});
