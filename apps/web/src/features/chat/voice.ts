/**
 * Voice messages (docs/contract.md §9: "Recorded audio: tagged mp3, named Recording-{timestamp}").
 * Browsers record webm/ogg, so the recording is decoded to PCM with Web Audio and encoded to MP3
 * with lamejs (pure JS, loaded only when a recording is stopped), behind an ID3v2.3 tag.
 */
import type { Mp3EncoderClass } from './mp3-encoder';

/** Voice needs neither stereo nor a high rate: mono, 44.1 kHz, 64 kbit/s. */
export const VOICE_SAMPLE_RATE = 44_100;
export const VOICE_KBPS = 64;
/** lamejs encodes in MPEG-1 Layer III frames of 1152 samples; a block of frames per call. */
const ENCODE_BLOCK = 1152 * 40;

export interface VoiceTag {
  title: string;
  artist?: string;
  /** Year of the recording (TYER). */
  year: number;
  /** Duration in milliseconds (TLEN). */
  lengthMs: number;
}

/** The file name of a recorded voice message (docs/contract.md §3 Chat). */
export function recordingName(timestamp: number): string {
  return `Recording-${timestamp}`;
}

/** File extension of what MediaRecorder produced (the fallback when it cannot be re-encoded). */
export function extensionOf(mime: string): string {
  if (mime.includes('ogg')) return 'ogg';
  if (mime.includes('mp4')) return 'm4a';
  if (mime.includes('mpeg')) return 'mp3';
  return 'webm';
}

/** ID3v2 sizes are "syncsafe": 7 bits per byte, so no byte of the size can look like a frame sync. */
function syncsafe(n: number): number[] {
  return [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];
}

/** A text frame in UTF-16 with BOM (encoding 1), so any player name survives. */
function textFrame(id: string, text: string): Uint8Array {
  const body = new Uint8Array(1 + 2 + text.length * 2);
  body[0] = 1;
  body[1] = 0xff;
  body[2] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    body[3 + i * 2] = code & 0xff;
    body[4 + i * 2] = code >> 8;
  }
  const frame = new Uint8Array(10 + body.length);
  for (let i = 0; i < 4; i++) frame[i] = id.charCodeAt(i);
  new DataView(frame.buffer).setUint32(4, body.length); // v2.3 frame sizes are plain 32-bit
  frame.set(body, 10);
  return frame;
}

/** An ID3v2.3 tag: title, artist, year, length and the encoder. */
export function id3Tag(tag: VoiceTag): Uint8Array {
  const frames = [
    textFrame('TIT2', tag.title),
    ...(tag.artist ? [textFrame('TPE1', tag.artist)] : []),
    textFrame('TYER', String(tag.year)),
    textFrame('TLEN', String(Math.round(tag.lengthMs))),
    textFrame('TSSE', 'openpug (lamejs)'),
  ];
  const size = frames.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(10 + size);
  out.set([0x49, 0x44, 0x33, 3, 0, 0, ...syncsafe(size)]);
  let at = 10;
  for (const f of frames) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

/** Float PCM [-1, 1] to the 16-bit samples lamejs takes. */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] as number));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Mixes every channel of a decoded recording down to one. */
export function mixToMono(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0] as Float32Array;
  const length = Math.min(...channels.map((c) => c.length));
  const out = new Float32Array(length);
  for (const c of channels) for (let i = 0; i < length; i++) out[i] = (out[i] as number) + (c[i] as number);
  for (let i = 0; i < length; i++) out[i] = (out[i] as number) / channels.length;
  return out;
}

const yieldToBrowser = () => new Promise<void>((r) => setTimeout(r, 0));

/** Encodes mono PCM to MP3 frames; yields between blocks so a long clip does not freeze the page. */
export async function encodeMp3(
  Encoder: Mp3EncoderClass,
  samples: Float32Array,
  sampleRate: number,
): Promise<Uint8Array[]> {
  const encoder = new Encoder(1, sampleRate, VOICE_KBPS);
  const pcm = toInt16(samples);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < pcm.length; at += ENCODE_BLOCK) {
    const out = encoder.encodeBuffer(pcm.subarray(at, at + ENCODE_BLOCK));
    if (out.length > 0) parts.push(new Uint8Array(out));
    if (at > 0 && at % (ENCODE_BLOCK * 10) === 0) await yieldToBrowser();
  }
  const tail = encoder.flush();
  if (tail.length > 0) parts.push(new Uint8Array(tail));
  return parts;
}

/** The tagged MP3 file of mono PCM. */
export async function voiceFile(
  Encoder: Mp3EncoderClass,
  samples: Float32Array,
  sampleRate: number,
  meta: { timestamp: number; artist?: string },
): Promise<File> {
  const title = recordingName(meta.timestamp);
  const tag = id3Tag({
    title,
    artist: meta.artist,
    year: new Date(meta.timestamp).getFullYear(),
    lengthMs: (samples.length / sampleRate) * 1000,
  });
  const frames = await encodeMp3(Encoder, samples, sampleRate);
  return new File([tag, ...frames] as BlobPart[], `${title}.mp3`, { type: 'audio/mpeg' });
}

/** What the browser recorded (webm/ogg/mp4) as a tagged MP3: decoded and resampled by Web Audio. */
export async function recordingToMp3(
  recorded: Blob,
  meta: { timestamp: number; artist?: string },
): Promise<File> {
  const { loadMp3Encoder } = await import('./mp3-encoder');
  const Encoder = await loadMp3Encoder();
  const decoder = new OfflineAudioContext(1, 1, VOICE_SAMPLE_RATE);
  const audio = await decoder.decodeAudioData(await recorded.arrayBuffer());
  const channels = Array.from({ length: audio.numberOfChannels }, (_, i) => audio.getChannelData(i));
  return voiceFile(Encoder, mixToMono(channels), audio.sampleRate, meta);
}
