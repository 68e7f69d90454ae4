import { DEFAULT_SOUND } from '@openpug/shared';

/** Notification sounds in public/sounds (made by scripts/make-sounds.sh). The first is the default. */
export const NOTIFICATION_SOUNDS = [DEFAULT_SOUND, 'chime.mp3', 'blip.mp3'] as const;

export const soundUrl = (file: string) => `/sounds/${encodeURIComponent(file)}`;

/** Plays a notification sound once; browsers may refuse before the first user gesture. */
export function playSound(file: string): void {
  const audio = new Audio(soundUrl(file));
  void audio.play().catch(() => undefined);
}
