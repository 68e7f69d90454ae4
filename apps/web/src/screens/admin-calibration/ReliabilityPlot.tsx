/**
 * The reliability plot, drawn as SVG: per tenth of predicted probability, the mean prediction (x)
 * against how often team one really won (y). Points on the dashed diagonal are perfectly
 * calibrated; a dot's area follows its number of matches. The table beside it carries the same
 * figures in text.
 */
import Box from '@mui/material/Box';
import type { Calibration } from '@openpug/shared';
import { useTranslation } from 'react-i18next';

const SIZE = 320;
const PAD = { left: 44, right: 20, top: 12, bottom: 40 };
const W = SIZE - PAD.left - PAD.right;
const H = SIZE - PAD.top - PAD.bottom;
const x = (p: number) => PAD.left + p * W;
const y = (p: number) => PAD.top + (1 - p) * H;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

export function ReliabilityPlot({ bins }: { bins: Calibration['bins'] }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...bins.map((b) => b.count));
  const line = bins.map((b) => `${x(b.predicted).toFixed(1)},${y(b.observed).toFixed(1)}`).join(' ');
  return (
    <Box
      component="svg"
      viewBox={`0 0 ${SIZE} ${SIZE}`}
      role="img"
      aria-label={t('insights.calibration.plotLabel')}
      data-testid="reliability-plot"
      sx={{ width: '100%', maxWidth: 420, height: 'auto', display: 'block', color: 'text.secondary' }}
    >
      {TICKS.map((v) => (
        <g key={v}>
          <line x1={x(v)} x2={x(v)} y1={y(0)} y2={y(1)} stroke="currentColor" strokeOpacity={0.15} />
          <line x1={x(0)} x2={x(1)} y1={y(v)} y2={y(v)} stroke="currentColor" strokeOpacity={0.15} />
          <text x={x(v)} y={y(0) + 14} fontSize={10} textAnchor="middle" fill="currentColor">
            {Math.round(v * 100)}%
          </text>
          <text x={x(0) - 6} y={y(v) + 3} fontSize={10} textAnchor="end" fill="currentColor">
            {Math.round(v * 100)}%
          </text>
        </g>
      ))}
      <line
        x1={x(0)}
        y1={y(0)}
        x2={x(1)}
        y2={y(1)}
        stroke="currentColor"
        strokeDasharray="4 4"
        strokeOpacity={0.7}
      />
      <text
        x={x(0.62)}
        y={y(0.55)}
        fontSize={10}
        fill="currentColor"
        transform={`rotate(-45 ${x(0.62)} ${y(0.55)})`}
      >
        {t('insights.calibration.perfect')}
      </text>
      {bins.length > 1 && <polyline points={line} fill="none" stroke="#ff7a18" strokeWidth={2} />}
      {bins.map((b) => (
        <circle
          key={b.from}
          data-testid="reliability-point"
          cx={x(b.predicted)}
          cy={y(b.observed)}
          r={3 + 7 * Math.sqrt(b.count / most)}
          fill="#ff7a18"
          fillOpacity={0.85}
          stroke="#141a26"
        >
          <title>{`${Math.round(b.predicted * 100)}% → ${Math.round(b.observed * 100)}% (${b.count})`}</title>
        </circle>
      ))}
      <text x={PAD.left + W / 2} y={SIZE - 6} fontSize={11} textAnchor="middle" fill="currentColor">
        {t('insights.calibration.predicted')}
      </text>
      <text
        x={12}
        y={PAD.top + H / 2}
        fontSize={11}
        textAnchor="middle"
        fill="currentColor"
        transform={`rotate(-90 12 ${PAD.top + H / 2})`}
      >
        {t('insights.calibration.observed')}
      </text>
    </Box>
  );
}
