/**
 * Loads the lamejs MP3 encoder on demand, as the prebuilt script it ships (see vite.config.ts for
 * why it is not bundled). It defines the global `lamejs`; loaded once, on the first voice message.
 */

import lamejsScriptUrl from 'lamejs-script?url';
import type { Mp3Encoder } from '@breezystack/lamejs';

export type Mp3EncoderClass = typeof Mp3Encoder;

let loading: Promise<Mp3EncoderClass> | null = null;

export function loadMp3Encoder(): Promise<Mp3EncoderClass> {
  loading ??= new Promise<Mp3EncoderClass>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = lamejsScriptUrl;
    script.async = true;
    script.onload = () => {
      const encoder = (window as unknown as { lamejs?: { Mp3Encoder?: Mp3EncoderClass } }).lamejs?.Mp3Encoder;
      if (encoder) resolve(encoder);
      else reject(new Error('lamejs did not load'));
    };
    script.onerror = () => reject(new Error('lamejs did not load'));
    document.head.append(script);
  }).catch((err) => {
    loading = null; // a later recording tries again
    throw err;
  });
  return loading;
}
