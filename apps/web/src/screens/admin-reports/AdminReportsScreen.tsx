/**
 * The admins' reports queue (/admin/reports): open reports first (oldest first), then resolved
 * ones. Each report shows what was reported and both players' context — recent matches with
 * results, other reports against and by them, bans and mutes — and, while open, the resolve form
 * (dismiss, warn, mute, ban; a note for admins; the message the player is told; the duration).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  type AdminReport,
  type AdminReportPage,
  MAX_REPORT_NOTE_LENGTH,
  type ReportAction,
  type ReportParty,
  type ReportStatus,
  reportActions,
} from '@openpug/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../features/api/client';
import { setSuccessMessage } from '../../features/app-state';
import { DurationFields } from '../../features/moderation/DurationFields';
import { type DurationUnit, formatDateTime } from '../../features/moderation/rules';
import { needsDuration, needsMessage, resolveBody } from '../../features/reports';
import { useSession } from '../../features/session';
import { ListPagination, usePaging } from '../../ui/PagedTable';
import { ScreenPage } from '../../ui/ScreenPage';
import { tokens } from '../../ui/tokens';

type Filter = ReportStatus | 'all';
const QUERY_KEY = ['admin', 'reports'];

export function AdminReportsScreen() {
  const { t } = useTranslation();
  const isAdmin = useSession((s) => s.user?.role === 'ADMIN');
  const paging = usePaging(10);
  const [filter, setFilter] = useState<Filter>('open');
  const query = {
    page: paging.page + 1,
    limit: paging.limit,
    ...(filter === 'all' ? {} : { status: filter }),
  };
  const result = useQuery({
    queryKey: [...QUERY_KEY, query],
    queryFn: ({ signal }) => api.get<AdminReportPage>('/admin/reports', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: isAdmin,
  });
  if (!isAdmin)
    return (
      <ScreenPage title={t('screens.adminReports.title')}>
        <Typography color="text.secondary">{t('competition.admin.onlyAdmins')}</Typography>
      </ScreenPage>
    );
  const docs = result.data?.docs ?? [];
  return (
    <ScreenPage title={t('screens.adminReports.title')}>
      <Tabs
        value={filter}
        onChange={(_e, v: Filter) => {
          setFilter(v);
          paging.setPage(0);
        }}
        sx={{ mb: 2 }}
      >
        <Tab value="open" label={t('reports.admin.open')} />
        <Tab value="resolved" label={t('reports.admin.resolved')} />
        <Tab value="all" label={t('reports.admin.all')} />
      </Tabs>
      {docs.length === 0 && !result.isPending && (
        <Typography color="text.secondary" data-testid="reports-empty">
          {t('reports.admin.empty')}
        </Typography>
      )}
      <Stack spacing={2} data-testid="reports-queue">
        {docs.map((r) => (
          <ReportCard key={r._id} report={r} />
        ))}
      </Stack>
      <ListPagination paging={paging} count={result.data?.totalDocs ?? 0} sizes={[10, 25, 50]} />
    </ScreenPage>
  );
}

function ReportCard({ report: r }: { report: AdminReport }) {
  const { t, i18n } = useTranslation();
  const unnamed = t('competition.unnamed');
  return (
    <Paper
      variant="outlined"
      component="article"
      data-testid="report-card"
      sx={{ p: { xs: 1.5, sm: 2 }, bgcolor: 'background.paper', minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Chip
          size="small"
          color={r.status === 'open' ? 'warning' : 'default'}
          label={t(`reports.admin.status.${r.status}`)}
        />
        <Chip size="small" variant="outlined" label={t(`reports.categories.${r.category}`)} />
        <Typography variant="body2" color="text.secondary" sx={{ ml: { sm: 'auto' } }}>
          {formatDateTime(r.createdAt, i18n.language)}
        </Typography>
      </Box>
      <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
        {t('reports.admin.headline', {
          reporter: r.reporter.name ?? unnamed,
          reported: r.reported.name ?? unnamed,
        })}
        {r.matchId && (
          <>
            {' · '}
            <Link to={`/match/${r.matchId}`}>{t('reports.admin.match')}</Link>
          </>
        )}
      </Typography>
      <Typography
        variant="body2"
        sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        color={r.text ? 'text.primary' : 'text.secondary'}
      >
        {r.text || t('reports.admin.noText')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          mt: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <PartyContext title={t('reports.admin.reported')} party={r.reported} />
        <PartyContext title={t('reports.admin.reporter')} party={r.reporter} />
      </Box>
      <Box sx={{ mt: 2 }}>{r.resolution ? <Resolution report={r} /> : <ResolveForm report={r} />}</Box>
    </Paper>
  );
}

const RESULT_COLOURS = { W: tokens.success, L: tokens.error, D: '#777' } as const;

function PartyContext({ title, party: p }: { title: string; party: ReportParty }) {
  const { t, i18n } = useTranslation();
  const active = p.sanctions.filter((s) => s.active);
  const past = p.sanctions.filter((s) => !s.active);
  const date = (ms: number) => formatDateTime(ms, i18n.language);
  return (
    <Box
      data-testid="report-party"
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        p: 1.5,
        minWidth: 0,
        bgcolor: 'action.hover',
      }}
    >
      <Typography variant="caption" color="text.secondary" component="div">
        {title}
      </Typography>
      <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
        <Box
          component={Link}
          to={`/user/${p._id}/matches`}
          sx={{ color: 'primary.main', textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}
        >
          {p.name ?? t('competition.unnamed')}
        </Box>{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          · {t('friends.card.elo')} {p.elo}
        </Typography>
      </Typography>

      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t('reports.admin.recentMatches')}
      </Typography>
      {p.recentMatches.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('reports.admin.none')}
        </Typography>
      ) : (
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          {p.recentMatches.map((m) => (
            <Box
              key={m.matchId}
              component={Link}
              to={`/match/${m.matchId}`}
              title={[m.map, m.finishedAt ? date(m.finishedAt) : null].filter(Boolean).join(' · ')}
              sx={{
                px: 0.75,
                py: 0.25,
                borderRadius: 1,
                fontSize: '0.75rem',
                fontWeight: 700,
                color: '#fff',
                textDecoration: 'none',
                bgcolor: RESULT_COLOURS[m.result],
                fontVariantNumeric: 'tabular-nums',
              }}
            >
              {m.result} {m.score[0]}:{m.score[1]}
            </Box>
          ))}
        </Box>
      )}

      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t('reports.admin.sanctions')}
      </Typography>
      {p.sanctions.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('reports.admin.none')}
        </Typography>
      ) : (
        <Stack spacing={0.25}>
          {active.map((s) => (
            <Typography key={s._id} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              <Chip
                size="small"
                color={s.kind === 'ban' ? 'error' : 'warning'}
                label={t(`moderation.kinds.${s.kind}`)}
                sx={{ mr: 0.5 }}
              />
              {s.endsAt === null
                ? t('moderation.dialog.permanent')
                : t('moderation.dialog.until', { date: date(s.endsAt) })}
              {': '}
              {s.reason}
            </Typography>
          ))}
          {past.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('reports.admin.pastSanctions', { count: past.length })}
            </Typography>
          )}
        </Stack>
      )}

      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t('reports.admin.against', { count: p.reportsAgainst.length })}
      </Typography>
      <History items={p.reportsAgainst} />
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t('reports.admin.by', { count: p.reportsBy.length })}
      </Typography>
      <History items={p.reportsBy} />
    </Box>
  );
}

function History({ items }: { items: ReportParty['reportsAgainst'] }) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {items.slice(0, 5).map((h) => (
        <Typography component="li" variant="body2" key={h._id} sx={{ overflowWrap: 'anywhere' }}>
          {t(`reports.categories.${h.category}`)} · {h.other.name ?? t('competition.unnamed')} ·{' '}
          {h.action ? t(`reports.actions.${h.action}`) : t('reports.admin.status.open')} ·{' '}
          <Typography component="span" variant="caption" color="text.secondary">
            {formatDateTime(h.createdAt, i18n.language)}
          </Typography>
        </Typography>
      ))}
    </Box>
  );
}

function Resolution({ report: r }: { report: AdminReport }) {
  const { t, i18n } = useTranslation();
  const res = r.resolution;
  if (!res) return null;
  return (
    <Box data-testid="report-resolution" sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}>
      <Typography variant="body2" sx={{ fontWeight: 700 }}>
        {t('reports.admin.resolvedBy', {
          action: t(`reports.actions.${res.action}`),
          name: res.by.name ?? t('competition.unnamed'),
          date: formatDateTime(res.at, i18n.language),
        })}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        <strong>{t('reports.admin.note')}:</strong> {res.note}
      </Typography>
      {res.message && (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          <strong>{t('reports.admin.message')}:</strong> {res.message}
        </Typography>
      )}
    </Box>
  );
}

const ACTION_COLOURS: Record<ReportAction, 'inherit' | 'info' | 'warning' | 'error'> = {
  dismiss: 'inherit',
  warn: 'info',
  mute: 'warning',
  ban: 'error',
};

function ResolveForm({ report: r }: { report: AdminReport }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [action, setAction] = useState<ReportAction>('dismiss');
  const [note, setNote] = useState('');
  const [message, setMessage] = useState('');
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<DurationUnit>('days');
  const body = resolveBody({ action, note, message, amount, unit });
  const resolve = useMutation({
    mutationFn: () => api.post(`/admin/reports/${r._id}/resolve`, body),
    onSuccess: () => {
      setSuccessMessage({ key: 'reports.admin.done' });
      void client.invalidateQueries({ queryKey: QUERY_KEY });
      void client.invalidateQueries({ queryKey: ['admin', 'audit'] });
      void client.invalidateQueries({ queryKey: ['admin', 'sanctions'] });
    },
  });
  return (
    <Box
      component="form"
      data-testid="resolve-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (body && !resolve.isPending) resolve.mutate();
      }}
      sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5 }}
    >
      <Stack spacing={1.5}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={action}
          color={ACTION_COLOURS[action] === 'inherit' ? 'standard' : ACTION_COLOURS[action]}
          onChange={(_e, v: ReportAction | null) => v && setAction(v)}
          aria-label={t('reports.admin.action')}
          fullWidth
          sx={{
            maxWidth: 480,
            '& .MuiToggleButton-root': {
              px: { xs: 0.5, sm: 1.5 },
              fontSize: { xs: '0.7rem', sm: '0.8125rem' },
            },
          }}
        >
          {reportActions.map((a) => (
            <ToggleButton key={a} value={a}>
              {t(`reports.actions.${a}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {needsMessage(action) && (
          <TextField
            size="small"
            multiline
            minRows={2}
            label={t('reports.admin.message')}
            helperText={t(`reports.admin.messageHint.${action}`)}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_REPORT_NOTE_LENGTH } }}
          />
        )}
        {needsDuration(action) && (
          <DurationFields amount={amount} unit={unit} onAmount={setAmount} onUnit={setUnit} />
        )}
        <TextField
          size="small"
          label={t('reports.admin.note')}
          helperText={t('reports.admin.noteHint')}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          slotProps={{ htmlInput: { maxLength: MAX_REPORT_NOTE_LENGTH } }}
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            color={ACTION_COLOURS[action] === 'inherit' ? 'primary' : ACTION_COLOURS[action]}
            disabled={!body || resolve.isPending}
            data-testid="resolve-submit"
          >
            {t(`reports.admin.submit.${action}`)}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
