/**
 * /about (docs/contract.md §2): what the community is, its rules and how to reach it — the texts
 * admins wrote for the language, else the defaults — and how a match works, the Elo rules with
 * this deployment's numbers, and the version. Admins edit the texts of the current language here.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ABOUT_TEXT_MAX, type About, type Locale } from '@openpug/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { useSession } from '../../features/session/store';
import { EditTextsDialog } from '../../ui/EditTextsDialog';
import { ScreenPage } from '../../ui/ScreenPage';

const STEPS = ['queue', 'accept', 'draft', 'veto', 'server', 'elo'] as const;
const FIELDS = ['community', 'rules', 'contact'] as const;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper component="section" sx={{ p: { xs: 2, md: 3 } }} data-testid={testId}>
      <Typography component="h2" variant="h6" sx={{ fontWeight: 800, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Admin-written text as paragraphs (line breaks kept), else the default. */
const Text = ({ value }: { value: string }) => (
  <Typography sx={{ whiteSpace: 'pre-line', color: 'text.secondary' }}>{value}</Typography>
);

export function AboutScreen() {
  const { t, i18n } = useTranslation();
  const locale = (i18n.language === 'de' ? 'de' : 'en') as Locale;
  const isAdmin = useSession((s) => s.user?.role === 'ADMIN');
  const [editing, setEditing] = useState(false);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['about', locale],
    queryFn: ({ signal }) => api.get<About>('/about', { query: { locale }, signal }),
  });
  const about = query.data;
  const text = (field: (typeof FIELDS)[number]) => about?.texts[field] || t(`about.defaults.${field}`);
  return (
    <ScreenPage title={t('screens.about.title')}>
      {about && (
        <Stack spacing={2}>
          {isAdmin && (
            <Box>
              <Button variant="outlined" onClick={() => setEditing(true)}>
                {t('about.edit')}
              </Button>
            </Box>
          )}
          <Section title={t('about.community')} testId="about-community">
            <Text value={text('community')} />
          </Section>
          <Section title={t('about.rules')} testId="about-rules">
            <Text value={text('rules')} />
          </Section>
          <Section title={t('about.howTitle')} testId="about-how">
            <Box component="ol" sx={{ m: 0, pl: 3, color: 'text.secondary', '& li': { mb: 0.75 } }}>
              {STEPS.map((step) => (
                <li key={step}>
                  <strong>{t(`about.steps.${step}.title`)}</strong> —{' '}
                  {t(`about.steps.${step}.text`, { seconds: about.facts.acceptSeconds })}
                </li>
              ))}
            </Box>
          </Section>
          <Section title={t('about.eloTitle')} testId="about-elo">
            <Text value={t('about.eloText', about.facts)} />
          </Section>
          <Section title={t('about.contact')} testId="about-contact">
            <Text value={text('contact')} />
          </Section>
          <Typography variant="body2" color="text.secondary" data-testid="about-version">
            {t('about.version', { version: about.version })}
          </Typography>
        </Stack>
      )}
      {editing && about && (
        <EditTextsDialog
          title={t('about.editTitle', { language: t(`language.${locale}`) })}
          hint={t('about.editHint')}
          fields={FIELDS.map((name) => ({ name, label: t(`about.${name}`), maxLength: ABOUT_TEXT_MAX }))}
          initial={about.texts}
          onSave={async (draft) => {
            client.setQueryData(['about', locale], await api.put<About>('/about', { locale, ...draft }));
          }}
          onClose={() => setEditing(false)}
        />
      )}
    </ScreenPage>
  );
}
