/**
 * Media repository: uploads stored as bytea in mx_media, downloads, and cropped/scaled
 * thumbnails made with sharp and cached in mx_thumbnails.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Homeserver } from './context';
import { MatrixError, mxNotFound } from './errors';
import { mxMedia, mxThumbnails } from './schema';

export async function storeMedia(
  hs: Homeserver,
  userId: string,
  data: Buffer,
  contentType: string,
  filename: string | null,
) {
  if (data.length > hs.maxUploadBytes)
    throw new MatrixError(413, 'M_TOO_LARGE', 'Cannot upload files larger than the limit');
  const mediaId = randomBytes(18).toString('base64url');
  await hs.db.insert(mxMedia).values({
    mediaId,
    userId,
    contentType: contentType || 'application/octet-stream',
    filename,
    size: data.length,
    data,
    createdAt: hs.now(),
  });
  return `mxc://${hs.serverName}/${mediaId}`;
}

export async function loadMedia(hs: Homeserver, serverName: string, mediaId: string) {
  if (serverName !== hs.serverName) throw mxNotFound('Not found');
  const [row] = await hs.db.select().from(mxMedia).where(eq(mxMedia.mediaId, mediaId));
  if (!row) throw mxNotFound('Not found');
  return row;
}

const MAX_THUMB = 800;

export async function thumbnail(
  hs: Homeserver,
  serverName: string,
  mediaId: string,
  width: number,
  height: number,
  method: 'crop' | 'scale',
) {
  const w = Math.min(Math.max(Math.round(width), 1), MAX_THUMB);
  const h = Math.min(Math.max(Math.round(height), 1), MAX_THUMB);
  const [cached] = await hs.db
    .select()
    .from(mxThumbnails)
    .where(
      and(
        eq(mxThumbnails.mediaId, mediaId),
        eq(mxThumbnails.width, w),
        eq(mxThumbnails.height, h),
        eq(mxThumbnails.method, method),
      ),
    );
  if (cached) return { contentType: cached.contentType, data: cached.data };
  const media = await loadMedia(hs, serverName, mediaId);
  if (!media.contentType.startsWith('image/')) throw mxNotFound('No thumbnail for this media');
  const jpeg = media.contentType === 'image/jpeg';
  let data: Buffer;
  try {
    const pipeline = sharp(media.data, { animated: false })
      .rotate()
      .resize(w, h, { fit: method === 'crop' ? 'cover' : 'inside', withoutEnlargement: method === 'scale' });
    data = await (jpeg ? pipeline.jpeg({ quality: 80 }) : pipeline.png()).toBuffer();
  } catch {
    throw mxNotFound('Cannot generate a thumbnail for this media');
  }
  const contentType = jpeg ? 'image/jpeg' : 'image/png';
  await hs.db
    .insert(mxThumbnails)
    .values({ mediaId, width: w, height: h, method, contentType, data })
    .onConflictDoNothing();
  return { contentType, data };
}
