/** A sanction's length: an amount and a unit (minutes, hours, days) or permanently. */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { DURATION_UNITS, type DurationUnit } from './rules';

export function DurationFields({
  amount,
  unit,
  invalid = false,
  onAmount,
  onUnit,
}: {
  amount: string;
  unit: DurationUnit;
  invalid?: boolean;
  onAmount(value: string): void;
  onUnit(value: DurationUnit): void;
}) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1}>
      {unit !== 'permanent' && (
        <TextField
          size="small"
          type="number"
          label={t('moderation.dialog.amount')}
          value={amount}
          onChange={(e) => onAmount(e.target.value)}
          error={invalid}
          slotProps={{ htmlInput: { min: 1, step: 1 } }}
          sx={{ width: 110 }}
        />
      )}
      <TextField
        select
        size="small"
        label={t('moderation.dialog.unit')}
        value={unit}
        onChange={(e) => onUnit(e.target.value as DurationUnit)}
        sx={{ minWidth: 150 }}
      >
        {DURATION_UNITS.map((u) => (
          <MenuItem key={u} value={u}>
            {t(`moderation.units.${u}`)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
