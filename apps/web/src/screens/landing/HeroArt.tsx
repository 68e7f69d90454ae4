import { tokens } from '../../ui/tokens';

const ACCENT = tokens.accent;

const TEAM_SLOTS = [
  [0, 0],
  [-34, -52],
  [-34, 52],
  [-78, -26],
  [-78, 26],
] as const;

function Team({ x, mirrored, color, fill }: { x: number; mirrored: boolean; color: string; fill: string }) {
  const direction = mirrored ? -1 : 1;
  return (
    <g>
      {TEAM_SLOTS.map(([dx, dy]) => (
        <g key={`${dx}:${dy}`} transform={`translate(${x + dx * direction} ${120 + dy})`}>
          <circle r="15" fill={fill} stroke={color} strokeWidth="2.5" />
          <circle cy="-3" r="5" fill={color} />
          <path d="M-8 9a8 7 0 0 1 16 0" fill={color} />
        </g>
      ))}
    </g>
  );
}

/** Two teams of five across a crosshair: the landing hero, drawn in SVG (no image download). */
export function HeroArt({ label }: { label: string }) {
  return (
    <svg
      viewBox="0 0 480 240"
      role="img"
      aria-label={label}
      style={{ width: '100%', height: 'auto', display: 'block' }}
    >
      <defs>
        <pattern id="hero-grid" width="24" height="24" patternUnits="userSpaceOnUse">
          <path d="M24 0H0v24" fill="none" stroke="rgba(255,255,255,0.05)" />
        </pattern>
        <radialGradient id="hero-glow">
          <stop offset="0" stopColor={ACCENT} stopOpacity="0.28" />
          <stop offset="1" stopColor={ACCENT} stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect width="480" height="240" rx="18" fill="url(#hero-grid)" />
      <circle cx="240" cy="120" r="110" fill="url(#hero-glow)" />
      <g stroke="rgba(255,255,255,0.14)" strokeDasharray="4 8" strokeWidth="2">
        <path d="M150 120H196M284 120H330" />
      </g>
      <g fill="none" stroke={ACCENT} strokeWidth="3" strokeLinecap="round">
        <circle cx="240" cy="120" r="36" />
        <path d="M240 70v22M240 148v22M190 120h22M268 120h22" />
      </g>
      <circle cx="240" cy="120" r="4" fill={ACCENT} />
      <Team x={150} mirrored={false} color={ACCENT} fill={tokens.accentSoft} />
      <Team x={330} mirrored color={tokens.textMuted} fill="rgba(152,162,179,0.12)" />
    </svg>
  );
}
