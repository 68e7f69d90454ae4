import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The centred card the login, sign-up, verify, forgot and reset screens share. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Box sx={{ px: 2, py: { xs: 3, md: 6 }, display: 'flex', justifyContent: 'center' }}>
      <Paper
        variant="outlined"
        sx={{
          width: '100%',
          maxWidth: 440,
          p: { xs: 2.5, sm: 4 },
          borderRadius: 3,
          bgcolor: 'background.paper',
        }}
      >
        <Typography
          variant="h1"
          component="h1"
          sx={{ fontSize: { xs: '1.6rem', sm: '1.9rem' }, mb: subtitle ? 1 : 2.5 }}
        >
          {title}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {subtitle}
          </Typography>
        )}
        {children}
        {footer && (
          <Box sx={{ mt: 3, pt: 2, borderTop: 1, borderColor: 'divider', color: 'text.secondary' }}>
            {footer}
          </Box>
        )}
      </Paper>
    </Box>
  );
}
