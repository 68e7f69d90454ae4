import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The frame of every screen: a centred column with the screen's title as its heading. */
export function ScreenPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box
      sx={{ px: { xs: 2, sm: 3, md: 4 }, py: { xs: 2.5, md: 4 }, maxWidth: 1200, mx: 'auto', width: '100%' }}
    >
      <Typography variant="h1" component="h1" sx={{ mb: 3, fontSize: { xs: '1.6rem', md: '2rem' } }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
