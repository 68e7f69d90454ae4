import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setSuccessMessage } from '../../features/app-state/store';
import { initI18n } from '../../i18n';
import { SuccessSnackbar } from '../../ui/SuccessSnackbar';
import { ForgotPasswordScreen } from './ForgotPasswordScreen';

const EMAIL = 'ann@example.test';

describe('forgot password: the sent notice', () => {
  beforeAll(() => initI18n('en'));
  afterEach(() => {
    cleanup();
    setSuccessMessage(null);
    vi.unstubAllGlobals();
  });

  it('is shown once, inline, with the address (no snackbar copy of it)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ sent: true, email: EMAIL }), { status: 200 })),
    );
    render(
      <MemoryRouter>
        <ForgotPasswordScreen />
        <SuccessSnackbar />
      </MemoryRouter>,
    );
    fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: EMAIL } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain(EMAIL);
    // Give a snackbar the chance to appear, then count the notices.
    await new Promise((r) => setTimeout(r, 50));
    expect(
      screen.getAllByText((_, el) => el?.childElementCount === 0 && Boolean(el.textContent?.includes(EMAIL))),
    ).toHaveLength(1);
  });
});
