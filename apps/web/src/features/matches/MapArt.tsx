/**
 * Our own artwork for the seven CS2 competitive maps: a colour scheme and one iconic motif each,
 * kept as a table of SVG shapes and drawn as inline SVG by one component (no image files to
 * fetch). Unknown maps get a neutral card.
 */
/** Paint of one shape; unset attributes are left off (SVG defaults). */
interface Paint {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  opacity?: number;
}
/** One shape of a map's picture, drawn in a 160×90 box: a path, a circle or a rectangle. */
type Shape = Paint &
  (
    | { d: string }
    | { cx: number; cy: number; r: number }
    | { x: number; y: number; width: number; height: number }
  );

interface Scheme {
  /** Sky gradient, top to bottom. */
  sky: [string, string];
  /** The strip at the bottom that carries the name. */
  ground: string;
  /** Colour of the name. */
  accent: string;
  /** Drawn in order over the sky, under the ground strip. */
  shapes: Shape[];
}

const schemes: Record<string, Scheme> = {
  de_ancient: {
    sky: ['#0f3b2e', '#1f6b4a'],
    ground: '#0b2a20',
    accent: '#8fe3a0',
    shapes: [
      { d: 'M40 74h80l-8-10H48zM52 64h56l-7-10H59zM63 54h34l-6-10H69zM73 44h14l-3-8h-8z', fill: '#3f8f5e' },
      { d: 'M74 74h12V60H74z', fill: '#0b2a20' },
      { cx: 128, cy: 22, r: 7, fill: '#c8f7c5', opacity: 0.8 },
      { d: 'M12 74c6-20 10-30 14-30s4 10 2 30M140 74c4-18 8-26 11-26s2 10 0 26', fill: '#1b5a3c' },
    ],
  },
  de_anubis: {
    sky: ['#10284f', '#2c5aa0'],
    ground: '#1f3a66',
    accent: '#f2c14e',
    shapes: [
      { cx: 80, cy: 28, r: 12, fill: '#f2c14e' },
      { d: 'M30 70L62 36 94 70z', fill: '#d9a441' },
      { d: 'M62 36l32 34H72z', fill: '#b07d2b' },
      { d: 'M104 70V30l5-6 5 6v40z', fill: '#e8c37a' },
      { d: 'M0 74c20-4 40 4 60 0s40-4 60 0 30 2 40 0v16H0z', fill: '#3d7fd0', opacity: 0.7 },
    ],
  },
  de_dust2: {
    sky: ['#c98a3d', '#f0c27a'],
    ground: '#a86d2e',
    accent: '#ffe0a3',
    shapes: [
      { d: 'M46 74V34h48v40H82V50a12 12 0 0 0-24 0v24z', fill: '#d9a35c' },
      { d: 'M46 34h48v6H46z', fill: '#b9823f' },
      { x: 104, y: 56, width: 18, height: 18, fill: '#7a5a2e' },
      { x: 112, y: 40, width: 16, height: 16, fill: '#8e6a37' },
      { d: 'M104 56l18 18M122 56l-18 18', stroke: '#5c4220', strokeWidth: 2 },
    ],
  },
  de_inferno: {
    sky: ['#5e1f16', '#c0452b'],
    ground: '#4a1a12',
    accent: '#ffb199',
    shapes: [
      { d: 'M70 74V30l10-12 10 12v44z', fill: '#d97a4a' },
      { d: 'M76 44a4 4 0 0 1 8 0v8h-8z', fill: '#4a1a12' },
      { d: 'M78 24h4v-8h-4z', fill: '#f0c27a' },
      { d: 'M28 74V50h30v24zM102 74V56h30v18z', fill: '#b85a36' },
      { d: 'M24 50l19-10 19 10zM98 56l19-9 19 9z', fill: '#8e3b22' },
    ],
  },
  de_mirage: {
    sky: ['#3b2a5a', '#c77d5a'],
    ground: '#5c3f3a',
    accent: '#ffd6a5',
    shapes: [
      { d: 'M50 74V52h44v22z', fill: '#e0b48a' },
      { d: 'M50 52a22 22 0 0 1 44 0z', fill: '#f0c99a' },
      { d: 'M71 30h2v-6h-2z', fill: '#ffd6a5' },
      { d: 'M108 74V26h8v48z', fill: '#d8a57a' },
      { d: 'M106 26l6-8 6 8z', fill: '#f0c99a' },
      { d: 'M60 74v-10a4 4 0 0 1 8 0v10zM76 74v-10a4 4 0 0 1 8 0v10z', fill: '#5c3f3a' },
    ],
  },
  de_nuke: {
    sky: ['#13202e', '#2e4a63'],
    ground: '#1a2633',
    accent: '#f4d03f',
    shapes: [
      { d: 'M26 74c6-16 6-32 0-48h32c-6 16-6 32 0 48z', fill: '#9fb3c8' },
      {
        d: 'M30 24c4-8 10-4 14-10 4 6 10 2 12 10',
        fill: 'none',
        stroke: '#cfd9e3',
        strokeWidth: 3,
        opacity: 0.6,
      },
      { cx: 110, cy: 46, r: 20, fill: '#f4d03f' },
      { cx: 110, cy: 46, r: 4, fill: '#1a2633' },
      {
        d: 'M110 46l-9-15.6a18 18 0 0 1 18 0zM110 46l18 0a18 18 0 0 1-9 15.6zM110 46l-9 15.6a18 18 0 0 1-9-15.6z',
        fill: '#1a2633',
      },
    ],
  },
  de_train: {
    sky: ['#26323a', '#5b6f63'],
    ground: '#2b2f2c',
    accent: '#9fd6a8',
    shapes: [
      { d: 'M0 76h160M0 82h160', stroke: '#8a8f8a', strokeWidth: 2 },
      { d: 'M28 70V40h70v30z', fill: '#3f7a55' },
      { d: 'M98 70V50h26l8 10v10z', fill: '#2f5e41' },
      { x: 36, y: 46, width: 14, height: 10, fill: '#c9e6cf' },
      { x: 56, y: 46, width: 14, height: 10, fill: '#c9e6cf' },
      { x: 76, y: 46, width: 14, height: 10, fill: '#c9e6cf' },
      { cx: 44, cy: 72, r: 5, fill: '#1b1f1c' },
      { cx: 82, cy: 72, r: 5, fill: '#1b1f1c' },
      { cx: 116, cy: 72, r: 5, fill: '#1b1f1c' },
    ],
  },
};

const fallback: Scheme = { sky: ['#1c2433', '#33405a'], ground: '#151b27', accent: '#c7d0e0', shapes: [] };

function ShapeArt({ shape }: { shape: Shape }) {
  if ('d' in shape) return <path {...shape} />;
  if ('r' in shape) return <circle {...shape} />;
  return <rect {...shape} />;
}

/** A 16:9 map card picture with the map's name. */
export function MapArt({
  mapKey,
  name,
  showName = true,
}: {
  mapKey: string;
  name: string;
  showName?: boolean;
}) {
  const s = schemes[mapKey] ?? fallback;
  const id = `sky-${mapKey}`;
  return (
    <svg
      viewBox="0 0 160 90"
      // Without a map (a match before its veto) the picture says nothing: hidden from screen readers.
      {...(name ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true })}
      style={{ display: 'block', width: '100%', height: 'auto' }}
    >
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={s.sky[0]} />
          <stop offset="1" stopColor={s.sky[1]} />
        </linearGradient>
      </defs>
      <rect width="160" height="90" fill={`url(#${id})`} />
      <g>
        {s.shapes.map((shape) => (
          // A map's shapes are fixed and distinct, so each one is its own key.
          <ShapeArt key={JSON.stringify(shape)} shape={shape} />
        ))}
      </g>
      <rect y="74" width="160" height="16" fill={s.ground} />
      {showName && (
        <text
          x="80"
          y="86.5"
          textAnchor="middle"
          fill={s.accent}
          fontFamily="system-ui, sans-serif"
          fontWeight="800"
          fontSize="11"
          letterSpacing="1"
        >
          {name.toUpperCase()}
        </text>
      )}
    </svg>
  );
}
