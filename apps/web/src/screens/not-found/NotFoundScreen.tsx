import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The catch-all page; its text is the `404` key of the shared error catalogue. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <Stack sx={{ flex: 1, alignItems: 'center', justifyContent: 'center', gap: 3, p: 3, minHeight: '60vh' }}>
      <Typography
        aria-hidden="true"
        sx={{
          fontSize: { xs: 96, md: 140 },
          fontWeight: 900,
          lineHeight: 1,
          color: 'primary.main',
          opacity: 0.9,
        }}
      >
        404
      </Typography>
      <Typography variant="h1" component="h1" sx={{ textAlign: 'center' }}>
        {t('404')}
      </Typography>
      <Button component={Link} to="/" variant="contained" size="large">
        {t('nav.matches')}
      </Button>
    </Stack>
  );
}
