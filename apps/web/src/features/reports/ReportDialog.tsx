/**
 * The report dialog: whom (fixed from a user card; chosen among the other players on the match
 * page), the category, a free text (up to 1,000 characters) and, on the match page, whether to
 * link the match. Sends POST /api/reports; a refusal (yourself, too many reports) shows in the
 * error dialog (api client).
 */
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { MAX_REPORT_TEXT_LENGTH, type ReportCategory, reportCategories } from '@openpug/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { setSuccessMessage } from '../app-state';
import { reportBody } from './rules';

export interface ReportTarget {
  _id: string;
  name: string | null;
}

export const MY_REPORTS_KEY = ['reports', 'mine'];

export function ReportDialog({
  open,
  onClose,
  target,
  candidates,
  matchId,
}: {
  open: boolean;
  onClose(): void;
  /** The player to report (a user card); leave out to choose among `candidates`. */
  target?: ReportTarget;
  candidates?: ReportTarget[];
  /** The match the report may link (the match page). */
  matchId?: string;
}) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width:600px)');
  const client = useQueryClient();
  const [reportedId, setReportedId] = useState(target?._id ?? '');
  const [category, setCategory] = useState<ReportCategory | ''>('');
  const [text, setText] = useState('');
  const [linkMatch, setLinkMatch] = useState(true);
  const body = reportBody({
    reportedId: target?._id ?? reportedId,
    category,
    text,
    matchId: matchId && linkMatch ? matchId : null,
  });
  const send = useMutation({
    mutationFn: () => api.post('/reports', body, { expect: 201 }),
    onSuccess: () => {
      setSuccessMessage({ key: 'reports.dialog.sent' });
      void client.invalidateQueries({ queryKey: MY_REPORTS_KEY });
      setCategory('');
      setText('');
      onClose();
    },
  });
  const name = target ? (target.name ?? t('friends.unnamed')) : null;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="report-dialog-title"
      data-testid="report-dialog"
    >
      <DialogTitle id="report-dialog-title" sx={{ overflowWrap: 'anywhere' }}>
        {name ? t('reports.dialog.title', { name }) : t('reports.dialog.titleAny')}
      </DialogTitle>
      <DialogContent dividers>
        <Stack
          component="form"
          id="report-form"
          spacing={2.5}
          onSubmit={(e) => {
            e.preventDefault();
            if (body && !send.isPending) send.mutate();
          }}
        >
          <DialogContentText variant="body2">{t('reports.dialog.intro')}</DialogContentText>
          {!target && (
            <TextField
              select
              size="small"
              label={t('reports.dialog.player')}
              value={reportedId}
              onChange={(e) => setReportedId(e.target.value)}
              data-testid="report-player"
            >
              {(candidates ?? []).map((c) => (
                <MenuItem key={c._id} value={c._id}>
                  {c.name ?? t('friends.unnamed')}
                </MenuItem>
              ))}
            </TextField>
          )}
          <FormControl>
            <FormLabel id="report-category">{t('reports.dialog.category')}</FormLabel>
            <RadioGroup
              aria-labelledby="report-category"
              value={category}
              onChange={(e) => setCategory(e.target.value as ReportCategory)}
            >
              {reportCategories.map((c) => (
                <FormControlLabel
                  key={c}
                  value={c}
                  control={<Radio size="small" />}
                  label={t(`reports.categories.${c}`)}
                />
              ))}
            </RadioGroup>
          </FormControl>
          <TextField
            multiline
            minRows={3}
            label={t('reports.dialog.text')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            helperText={t('reports.dialog.textHint', { count: text.length, max: MAX_REPORT_TEXT_LENGTH })}
            slotProps={{ htmlInput: { maxLength: MAX_REPORT_TEXT_LENGTH } }}
          />
          {matchId && (
            <FormControlLabel
              control={<Checkbox checked={linkMatch} onChange={(e) => setLinkMatch(e.target.checked)} />}
              label={t('reports.dialog.linkMatch')}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('reports.dialog.cancel')}</Button>
        <Button
          type="submit"
          form="report-form"
          variant="contained"
          color="error"
          disabled={!body || send.isPending}
          data-testid="report-send"
        >
          {t('reports.dialog.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
