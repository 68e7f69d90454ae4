/** Media from the authenticated media API, and the image viewer (docs/contract.md §2: zoom step 0.25, 0.1–10, rotate, reset). */
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './Chat.module.css';
import { mediaBlobUrl } from './engine';
import { CloseIcon, ResetIcon, RotateIcon, ZoomInIcon, ZoomOutIcon } from './icons';
import { zoomBy } from './rules';

/** A blob URL for an mxc:// URI (fetched with the access token), or null while loading / on failure. */
export function useMediaUrl(
  mxc: string | undefined,
  thumb?: { width: number; height: number },
): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const w = thumb?.width;
  const h = thumb?.height;
  useEffect(() => {
    let alive = true;
    setUrl(null);
    if (!mxc?.startsWith('mxc://')) return;
    mediaBlobUrl(mxc, w && h ? { width: w, height: h } : undefined)
      .then((u) => alive && setUrl(u))
      .catch((err) => console.error('[chat] media', err));
    return () => {
      alive = false;
    };
  }, [mxc, w, h]);
  return url;
}

export function ImageViewer({ src, alt, onClose }: { src: string | null; alt: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  useEffect(() => {
    if (src) {
      setZoom(1);
      setRotation(0);
    }
  }, [src]);
  const tool = (label: string, icon: React.ReactNode, onClick: () => void, testId: string) => (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={onClick} data-testid={testId} sx={{ color: '#fff' }}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Dialog
      open={Boolean(src)}
      onClose={onClose}
      fullScreen
      slotProps={{ paper: { sx: { bgcolor: 'rgba(5,8,14,0.94)' } } }}
    >
      <div className={styles.viewerBar}>
        <span className={styles.viewerZoom} data-testid="viewer-zoom">
          {Math.round(zoom * 100)}%
        </span>
        {tool(
          t('chat.viewer.zoomOut'),
          <ZoomOutIcon />,
          () => setZoom((z) => zoomBy(z, -1)),
          'viewer-zoom-out',
        )}
        {tool(t('chat.viewer.zoomIn'), <ZoomInIcon />, () => setZoom((z) => zoomBy(z, 1)), 'viewer-zoom-in')}
        {tool(
          t('chat.viewer.rotate'),
          <RotateIcon />,
          () => setRotation((r) => (r + 90) % 360),
          'viewer-rotate',
        )}
        {tool(
          t('chat.viewer.reset'),
          <ResetIcon />,
          () => {
            setZoom(1);
            setRotation(0);
          },
          'viewer-reset',
        )}
        {tool(t('chat.close'), <CloseIcon />, onClose, 'viewer-close')}
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: wheel zoom and click-outside close; the toolbar has the buttons */}
      <div
        className={styles.viewerStage}
        onWheel={(e) => setZoom((z) => zoomBy(z, e.deltaY < 0 ? 1 : -1))}
        onClick={(e) => e.target === e.currentTarget && onClose()}
        role="presentation"
      >
        {src && (
          <img
            src={src}
            alt={alt}
            className={styles.viewerImage}
            style={{ transform: `scale(${zoom}) rotate(${rotation}deg)` }}
          />
        )}
      </div>
    </Dialog>
  );
}
