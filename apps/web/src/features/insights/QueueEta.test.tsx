import type { QueueEta as QueueEtaAnswer } from '@openpug/shared';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';

let answer: QueueEtaAnswer | undefined;
vi.mock('./api', () => ({ useQueueEta: () => ({ data: answer }) }));

import { QueueEta } from './QueueEta';

describe("the queue widget's fill estimate", () => {
  beforeAll(() => initI18n('en'));
  afterEach(cleanup);

  it('says how fast the queue usually fills and from how many days, or that there is not enough data', () => {
    answer = { status: 'estimate', minutes: 6, days: 14, count: 4 };
    const { rerender } = render(<QueueEta count={4} />);
    expect(screen.getByTestId('queue-eta').textContent).toBe(
      'Usually fills in ~6 min at this hour · from 14 days',
    );
    answer = { status: 'estimate', minutes: 2, days: 1, count: 8 };
    rerender(<QueueEta count={8} />);
    expect(screen.getByTestId('queue-eta').textContent).toBe(
      'Usually fills in ~2 min at this hour · from 1 day',
    );
    answer = { status: 'notEnoughData', days: 3, count: 8 };
    rerender(<QueueEta count={8} />);
    expect(screen.getByTestId('queue-eta').textContent).toMatch(/^Not enough data yet/);
  });
});
