import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../../i18n';
import { useAppState } from '../app-state/store';
import { logout, useSession } from '../session/store';
import { MyReports } from './MyReports';
import { ReportDialog } from './ReportDialog';
import { outcomeKey, reportBody, resolveBody } from './rules';

const ID = '7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f';
const MATCH = '0a1b2c3d-9a0b-4c5d-8e6f-7d1c1f2e4e5f';
const wrap = (node: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
function stubFetch(answer: unknown, status = 200) {
  const calls: { url: string; method?: string; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(answer), { status });
    }),
  );
  return calls;
}

describe('report rules', () => {
  it('builds the report body only when complete; trims and leaves out empty parts', () => {
    expect(reportBody({ reportedId: ID, category: '', text: '', matchId: null })).toBeNull();
    expect(reportBody({ reportedId: '', category: 'other', text: '', matchId: null })).toBeNull();
    expect(reportBody({ reportedId: ID, category: 'other', text: '  ', matchId: null })).toEqual({
      reportedId: ID,
      category: 'other',
    });
    expect(reportBody({ reportedId: ID, category: 'cheating', text: ' wh ', matchId: MATCH })).toEqual({
      reportedId: ID,
      category: 'cheating',
      text: 'wh',
      matchId: MATCH,
    });
    expect(
      reportBody({ reportedId: ID, category: 'other', text: 'x'.repeat(1001), matchId: null }),
    ).toBeNull();
  });

  it('builds the resolve body per action', () => {
    const base = { note: ' seen ', message: '', amount: '2', unit: 'hours' as const };
    expect(resolveBody({ ...base, action: 'dismiss' })).toEqual({ action: 'dismiss', note: 'seen' });
    expect(resolveBody({ ...base, action: 'dismiss', note: ' ' })).toBeNull();
    expect(resolveBody({ ...base, action: 'warn' })).toBeNull();
    expect(resolveBody({ ...base, action: 'warn', message: 'be nice' })).toEqual({
      action: 'warn',
      note: 'seen',
      message: 'be nice',
    });
    expect(resolveBody({ ...base, action: 'mute', message: 'spam' })).toEqual({
      action: 'mute',
      note: 'seen',
      message: 'spam',
      minutes: 120,
    });
    expect(resolveBody({ ...base, action: 'ban', message: 'aimbot', unit: 'permanent' })).toEqual({
      action: 'ban',
      note: 'seen',
      message: 'aimbot',
    });
    expect(resolveBody({ ...base, action: 'ban', message: 'x', amount: '0' })).toBeNull();
  });

  it('names the outcome', () => {
    expect(outcomeKey({ status: 'open', outcome: null })).toBe('reports.mine.outcome.open');
    expect(outcomeKey({ status: 'resolved', outcome: 'no_action' })).toBe('reports.mine.outcome.no_action');
  });
});

describe('report dialog', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });

  it('sends category, text and the linked match; Send stays off until a category is chosen', async () => {
    useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'me', role: 'USER' } });
    const calls = stubFetch({}, 201);
    const onClose = vi.fn();
    wrap(<ReportDialog open onClose={onClose} target={{ _id: ID, name: 'Rude' }} matchId={MATCH} />);
    const dialog = screen.getByRole('dialog', { name: 'Report Rude' });
    const send = within(dialog).getByRole('button', { name: 'Send report' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Toxicity or abuse' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Details (optional)' }), {
      target: { value: 'insults' },
    });
    expect(within(dialog).getByText('7 / 1000 characters')).toBeTruthy();
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await waitFor(() =>
      expect(calls).toEqual([
        {
          url: '/api/reports',
          method: 'POST',
          body: { reportedId: ID, category: 'toxicity', text: 'insults', matchId: MATCH },
        },
      ]),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(useAppState.getState().successMessage?.key).toBe('reports.dialog.sent');
  });

  it('speaks German', async () => {
    await changeLanguage('de');
    try {
      wrap(<ReportDialog open onClose={() => {}} target={{ _id: ID, name: 'Rude' }} />);
      expect(screen.getByRole('dialog', { name: 'Rude melden' })).toBeTruthy();
      expect(screen.getByRole('radio', { name: 'Nicht erschienen oder verlassen' })).toBeTruthy();
    } finally {
      await changeLanguage('en');
    }
  });
});

describe('my reports', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows each report with its outcome and the warnings received', async () => {
    useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'me', role: 'USER' } });
    const report = (over: object) => ({
      _id: Math.random().toString(36),
      createdAt: 0,
      category: 'cheating',
      text: '',
      matchId: null,
      reported: { _id: ID, name: 'Sus' },
      status: 'resolved',
      resolvedAt: 1,
      outcome: 'action_taken',
      ...over,
    });
    stubFetch({
      docs: [
        report({}),
        report({ outcome: 'no_action' }),
        report({ status: 'open', outcome: null, resolvedAt: null }),
      ],
      warnings: [{ _id: 'w', at: 0, message: 'Mind your language' }],
    });
    wrap(<MyReports />);
    const rows = await screen.findAllByTestId('my-report');
    expect(rows.map((r) => r.querySelector('p')?.textContent)).toEqual([
      'Your report about Sus was reviewed: action taken',
      'Your report about Sus was reviewed: no action',
      'Your report about Sus is waiting for review',
    ]);
    expect(screen.getByTestId('my-warning').textContent).toContain('Mind your language');
  });
});
