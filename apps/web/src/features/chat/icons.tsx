/** Line icons for the chat (same drawing style as ui/icons.tsx: 24×24, stroked with currentColor). */
import type { ReactNode } from 'react';
import { LineIcon, type IconProps as P } from '../../ui/icons';

// The chat draws its icons a little smaller than the app's default.
function I({ size = 20, ...props }: P & { children: ReactNode }) {
  return <LineIcon size={size} {...props} />;
}

export const CloseIcon = (p: P) => (
  <I {...p}>
    <path d="M6 6l12 12M18 6 6 18" />
  </I>
);
export const SendIcon = (p: P) => (
  <I {...p}>
    <path d="M4 12 20 4l-6 16-3-7z" />
    <path d="m11 13 9-9" />
  </I>
);
export const AttachIcon = (p: P) => (
  <I {...p}>
    <path d="m20 11.5-8.2 8.2a5 5 0 0 1-7.1-7.1l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.8-7.8" />
  </I>
);
export const MicIcon = (p: P) => (
  <I {...p}>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" />
  </I>
);
export const EmojiIcon = (p: P) => (
  <I {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </I>
);
export const ReplyIcon = (p: P) => (
  <I {...p}>
    <path d="M9 7 4 12l5 5" />
    <path d="M4 12h10a6 6 0 0 1 6 6v1" />
  </I>
);
export const ShieldIcon = (p: P) => (
  <I {...p}>
    <path d="M12 3 5 6v5c0 4.5 3 8.5 7 10 4-1.5 7-5.5 7-10V6z" />
  </I>
);
export const DownIcon = (p: P) => (
  <I {...p}>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </I>
);
export const ZoomInIcon = (p: P) => (
  <I {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5M11 8v6M8 11h6" />
  </I>
);
export const ZoomOutIcon = (p: P) => (
  <I {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5M8 11h6" />
  </I>
);
export const RotateIcon = (p: P) => (
  <I {...p}>
    <path d="M20 11a8 8 0 1 0-2.3 5.7" />
    <path d="M20 4v7h-7" />
  </I>
);
export const ResetIcon = (p: P) => (
  <I {...p}>
    <path d="M4 4v6h6" />
    <path d="M4.5 14a8 8 0 1 0 1.9-8.3L4 10" />
  </I>
);
export const StopIcon = (p: P) => (
  <I {...p}>
    <rect x="6" y="6" width="12" height="12" rx="2" />
  </I>
);
export const TrashIcon = (p: P) => (
  <I {...p}>
    <path d="M4 7h16M9 7V4h6v3M6.5 7l1 13h9l1-13" />
  </I>
);
export const FileIcon = (p: P) => (
  <I {...p}>
    <path d="M14 3H6.5A1.5 1.5 0 0 0 5 4.5v15A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V8z" />
    <path d="M14 3v5h5" />
  </I>
);
export const RoomsIcon = (p: P) => (
  <I {...p}>
    <path d="M4 6h16M4 12h16M4 18h10" />
  </I>
);
export const ExpandIcon = (p: P) => (
  <I {...p}>
    <path d="M14 4h6v6M10 20H4v-6M20 4l-7 7M4 20l7-7" />
  </I>
);
export const MoreIcon = (p: P) => (
  <I {...p}>
    <circle cx="12" cy="5.5" r="1.2" />
    <circle cx="12" cy="12" r="1.2" />
    <circle cx="12" cy="18.5" r="1.2" />
  </I>
);
export const StarIcon = (p: P) => (
  <I {...p}>
    <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.8l-5.2 2.8 1-5.8-4.3-4.1 5.9-.9z" />
  </I>
);
