/**
 * Competition artwork, drawn here as SVG: the banners (ezpug is everyone's default; drops unlock
 * the others) and the built-in drop images. Unknown names fall back to ezpug / the crate.
 */
import { DEFAULT_BANNER } from '@openpug/shared';
import type { ReactNode } from 'react';

const BANNER_ART: Record<string, { from: string; to: string; motif: (id: string) => ReactNode }> = {
  ezpug: {
    from: '#1b2433',
    to: '#2f4a6b',
    motif: () => (
      <g fill="none" stroke="#ffb547" strokeOpacity="0.35" strokeWidth="3">
        <path d="M0 90 L120 30 L240 90 L360 30 L480 90 L600 30 L720 90 L840 30 L960 90" />
        <path
          d="M0 110 L120 50 L240 110 L360 50 L480 110 L600 50 L720 110 L840 50 L960 110"
          strokeOpacity="0.18"
        />
      </g>
    ),
  },
  sunset: {
    from: '#ff7e5f',
    to: '#6a3093',
    motif: () => (
      <g>
        <circle cx="760" cy="120" r="90" fill="#ffd36e" fillOpacity="0.55" />
        <path d="M0 100 Q240 60 480 100 T960 100 V120 H0Z" fill="#2b1140" fillOpacity="0.55" />
      </g>
    ),
  },
  circuit: {
    from: '#0f2027',
    to: '#2c5364',
    motif: () => (
      <g fill="none" stroke="#4dd0e1" strokeOpacity="0.5" strokeWidth="2">
        <path d="M40 20 H200 V80 H360 M420 100 V40 H620 V90 H820 M700 20 V60 H920" />
        <circle cx="360" cy="80" r="6" fill="#4dd0e1" />
        <circle cx="820" cy="90" r="6" fill="#4dd0e1" />
        <circle cx="40" cy="20" r="6" fill="#4dd0e1" />
      </g>
    ),
  },
  aurora: {
    from: '#0b132b',
    to: '#1c2541',
    motif: () => (
      <g fill="none" strokeWidth="18" strokeLinecap="round" strokeOpacity="0.45">
        <path d="M-20 80 C200 10 380 120 600 40 S900 60 980 20" stroke="#5bffb0" />
        <path d="M-20 100 C220 40 420 130 640 70 S900 90 980 50" stroke="#7b6cff" />
      </g>
    ),
  },
  inferno: {
    from: '#3a0000',
    to: '#b31217',
    motif: () => (
      <g fill="#ff9a3c" fillOpacity="0.45">
        {[60, 180, 300, 420, 540, 660, 780, 900].map((x, i) => (
          <path
            key={x}
            d={`M${x} 120 Q${x - 30} ${70 - (i % 3) * 12} ${x} ${20 + (i % 2) * 20} Q${x + 30} ${70 - (i % 3) * 12} ${x} 120Z`}
          />
        ))}
      </g>
    ),
  },
};

export const bannerNames = Object.keys(BANNER_ART);

/** A banner as a full-width SVG (`height` in px; it stretches to its box). */
export function BannerArt({
  banner,
  height = 104,
  label,
}: {
  banner: string;
  height?: number | string;
  label?: string;
}) {
  const art = BANNER_ART[banner] ?? BANNER_ART.ezpug;
  const id = `banner-${banner in BANNER_ART ? banner : DEFAULT_BANNER}`;
  return (
    <svg
      viewBox="0 0 960 120"
      preserveAspectRatio="xMidYMid slice"
      width="100%"
      height={height}
      role="img"
      aria-label={label ?? banner}
      style={{ display: 'block' }}
    >
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={art.from} />
          <stop offset="1" stopColor={art.to} />
        </linearGradient>
      </defs>
      <rect width="960" height="120" fill={`url(#${id})`} />
      {art.motif(id)}
    </svg>
  );
}

export const RARITY_COLORS: Record<string, string> = {
  common: '#9aa4b2',
  uncommon: '#4caf50',
  rare: '#42a5f5',
  legendary: '#ffb300',
};

const DROP_SHAPES: Record<string, ReactNode> = {
  crate: (
    <g>
      <rect x="14" y="24" width="36" height="28" rx="3" fill="#8d6e63" />
      <rect x="12" y="18" width="40" height="10" rx="2" fill="#a1887f" />
      <rect x="29" y="18" width="6" height="34" fill="#5d4037" />
    </g>
  ),
  knife: (
    <g>
      <path d="M14 46 L44 14 Q50 12 48 20 L22 50Z" fill="#cfd8dc" />
      <rect x="8" y="44" width="16" height="8" rx="3" transform="rotate(-45 16 48)" fill="#5d4037" />
    </g>
  ),
  gloves: (
    <g fill="#26a69a">
      <path d="M18 52 V28 Q18 22 22 22 V14 Q26 12 27 16 V22 H30 V12 Q34 10 35 14 V22 H38 V14 Q42 12 43 16 V30 L48 26 Q52 28 48 34 L40 52Z" />
    </g>
  ),
  sticker: (
    <g>
      <circle cx="32" cy="32" r="20" fill="#ffca28" />
      <circle cx="25" cy="28" r="3" fill="#3e2723" />
      <circle cx="39" cy="28" r="3" fill="#3e2723" />
      <path d="M23 38 Q32 46 41 38" stroke="#3e2723" strokeWidth="3" fill="none" strokeLinecap="round" />
    </g>
  ),
  key: (
    <g fill="#ffd54f">
      <circle cx="22" cy="32" r="10" />
      <circle cx="22" cy="32" r="4" fill="#1b2433" />
      <rect x="30" y="29" width="24" height="6" rx="2" />
      <rect x="46" y="35" width="4" height="8" />
      <rect x="40" y="35" width="4" height="6" />
    </g>
  ),
  trophy: (
    <g fill="#ffb300">
      <path d="M20 14 H44 V28 Q44 40 32 42 Q20 40 20 28Z" />
      <path
        d="M20 18 H12 Q12 30 22 32 M44 18 H52 Q52 30 42 32"
        stroke="#ffb300"
        strokeWidth="3"
        fill="none"
      />
      <rect x="29" y="42" width="6" height="8" />
      <rect x="22" y="50" width="20" height="5" rx="2" />
    </g>
  ),
};

/** A drop's picture: a built-in artwork key, or an https image. */
export function DropArt({ image, rarity, size = 64 }: { image: string; rarity: string; size?: number }) {
  const color = RARITY_COLORS[rarity] ?? RARITY_COLORS.common;
  if (/^https:\/\//.test(image)) {
    return (
      <img
        src={image}
        alt=""
        width={size}
        height={size}
        style={{ objectFit: 'contain', borderRadius: 8, border: `2px solid ${color}` }}
      />
    );
  }
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true">
      <rect x="1" y="1" width="62" height="62" rx="10" fill="#141a24" stroke={color} strokeWidth="2" />
      <circle cx="32" cy="32" r="26" fill={color} fillOpacity="0.12" />
      {DROP_SHAPES[image] ?? DROP_SHAPES.crate}
    </svg>
  );
}
