import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * One row of the settings screen's linked accounts: icon, service name, what is linked, and the
 * action. The Discord and WhatsApp features add their rows with this component.
 */
export function LinkedAccountRow({
  icon,
  title,
  linked,
  detail,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  linked: boolean;
  detail?: ReactNode;
  action: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack
      data-testid={testId}
      direction="row"
      spacing={2}
      sx={{
        py: 1.75,
        borderTop: 1,
        borderColor: 'divider',
        '&:first-of-type': { borderTop: 0, pt: 0 },
        flexWrap: 'wrap',
        rowGap: 1.5,
        alignItems: 'center',
      }}
    >
      <Box
        sx={{
          width: 40,
          height: 40,
          borderRadius: 2,
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'action.hover',
          color: 'text.primary',
          flexShrink: 0,
        }}
      >
        {icon}
      </Box>
      <Box sx={{ flex: 1, minWidth: 140 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography sx={{ fontWeight: 700 }}>{title}</Typography>
          <Chip
            size="small"
            label={linked ? t('accounts.settings.linked') : t('accounts.settings.notLinked')}
            color={linked ? 'success' : 'default'}
            variant="outlined"
          />
        </Stack>
        {detail && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {detail}
          </Typography>
        )}
      </Box>
      <Box sx={{ ml: 'auto' }}>{action}</Box>
    </Stack>
  );
}
