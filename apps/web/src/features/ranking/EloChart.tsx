import useMediaQuery from '@mui/material/useMediaQuery';
import type { EloPoint } from '@openpug/shared';

/** Elo over time as a small SVG line chart (oldest left); min/max labels on the left. */
export function EloChart({ points, label }: { points: EloPoint[]; label: string }) {
  // A narrower drawing on phones keeps the labels readable once scaled to the screen.
  const phone = useMediaQuery('(max-width:600px)');
  const W = phone ? 360 : 640;
  const H = phone ? 180 : 200;
  const pad = { l: 44, r: 12, t: 12, b: 20 };
  if (points.length === 0) return null;
  const values = points.map((p) => p.elo);
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) {
    min -= 10;
    max += 10;
  }
  const x = (i: number) =>
    pad.l + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (W - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - (v - min) / (max - min)) * (H - pad.t - pad.b);
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.elo).toFixed(1)}`).join(' ');
  const area = `${path} L${x(points.length - 1).toFixed(1)} ${H - pad.b} L${x(0).toFixed(1)} ${H - pad.b}Z`;
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      role="img"
      aria-label={label}
      style={{ display: 'block', maxHeight: 240 }}
    >
      <defs>
        <linearGradient id="elo-area" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#ffb547" stopOpacity="0.35" />
          <stop offset="1" stopColor="#ffb547" stopOpacity="0" />
        </linearGradient>
      </defs>
      {[max, (max + min) / 2, min].map((v) => (
        <g key={v}>
          <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} stroke="#ffffff" strokeOpacity="0.08" />
          <text x={pad.l - 8} y={y(v) + 4} textAnchor="end" fontSize="12" fill="#9aa4b2">
            {Math.round(v)}
          </text>
        </g>
      ))}
      <path d={area} fill="url(#elo-area)" />
      <path d={path} fill="none" stroke="#ffb547" strokeWidth="2.5" strokeLinejoin="round" />
      {points.map((p, i) => (
        <circle
          key={`${p.matchId}:${i === 0 ? 'before' : 'after'}`}
          cx={x(i)}
          cy={y(p.elo)}
          r="3.5"
          fill="#ffb547"
        >
          <title>{`${p.elo}`}</title>
        </circle>
      ))}
    </svg>
  );
}
