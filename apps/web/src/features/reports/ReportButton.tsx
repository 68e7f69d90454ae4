/**
 * "Report" on a user card or the player page (and "Report a player" on the match page): opens the
 * report dialog, loaded only when first opened.
 */
import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportTarget } from './ReportDialog';
import { ReportIcon } from './ReportIcon';

const ReportDialog = lazy(() => import('./ReportDialog').then((m) => ({ default: m.ReportDialog })));

export function ReportButton({
  user,
  candidates,
  matchId,
  size = 'small',
}: {
  user?: ReportTarget;
  candidates?: ReportTarget[];
  matchId?: string;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size={size}
        color="inherit"
        startIcon={<ReportIcon size={16} />}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        data-testid="report-button"
        sx={{ color: 'text.secondary' }}
      >
        {t(user ? 'reports.button' : 'reports.buttonAny')}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ReportDialog
            open={open}
            onClose={() => setOpen(false)}
            target={user}
            candidates={candidates}
            matchId={matchId}
          />
        </Suspense>
      )}
    </>
  );
}
