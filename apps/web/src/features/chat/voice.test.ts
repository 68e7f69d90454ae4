import { Mp3Encoder } from '@breezystack/lamejs';
import { describe, expect, it } from 'vitest';
import { id3Tag, mixToMono, recordingName, toInt16, VOICE_KBPS, voiceFile } from './voice';

/** Reads an ID3v2.3 tag back: its size and its UTF-16 text frames. */
function readId3(bytes: Uint8Array): { size: number; frames: Record<string, string> } {
  expect(String.fromCharCode(...bytes.subarray(0, 3))).toBe('ID3');
  expect(bytes[3]).toBe(3);
  const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const frames: Record<string, string> = {};
  for (let at = 10; at < 10 + size; ) {
    const id = String.fromCharCode(...bytes.subarray(at, at + 4));
    const length = view.getUint32(at + 4);
    const body = bytes.subarray(at + 10, at + 10 + length);
    expect(body[0]).toBe(1); // UTF-16 with BOM
    expect([body[1], body[2]]).toEqual([0xff, 0xfe]);
    frames[id] = new TextDecoder('utf-16le').decode(body.subarray(3));
    at += 10 + length;
  }
  return { size: 10 + size, frames };
}

const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG1_RATES = [44_100, 48_000, 32_000];

/** Walks the MPEG audio frames after the tag; every header must be a valid MPEG-1 Layer III mono one. */
function mpegFrames(bytes: Uint8Array): { count: number; sampleRate: number; kbps: Set<number> } {
  let at = 0;
  let count = 0;
  let sampleRate = 0;
  const kbps = new Set<number>();
  while (at + 4 <= bytes.length) {
    const [b0, b1, b2, b3] = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]] as number[];
    expect(b0).toBe(0xff);
    expect(b1 & 0xe0).toBe(0xe0); // frame sync
    expect((b1 >> 3) & 3).toBe(3); // MPEG-1
    expect((b1 >> 1) & 3).toBe(1); // Layer III
    expect(b3 >> 6).toBe(3); // mono
    const bitrate = MPEG1_L3_KBPS[b2 >> 4] as number;
    sampleRate = MPEG1_RATES[(b2 >> 2) & 3] as number;
    kbps.add(bitrate);
    at += Math.floor((144 * bitrate * 1000) / sampleRate) + ((b2 >> 1) & 1);
    count++;
  }
  expect(at).toBe(bytes.length);
  return { count, sampleRate, kbps };
}

describe('voice recordings (docs/contract.md §9: tagged mp3, Recording-{timestamp})', () => {
  it('names the recording after its timestamp', () => {
    expect(recordingName(1_763_000_000_000)).toBe('Recording-1763000000000');
  });

  it('writes an ID3v2.3 tag with UTF-16 text frames', () => {
    const tag = id3Tag({ title: 'Recording-1', artist: 'Jörg 🎮', year: 2026, lengthMs: 1500.4 });
    const { size, frames } = readId3(tag);
    expect(size).toBe(tag.length);
    expect(frames).toEqual({
      TIT2: 'Recording-1',
      TPE1: 'Jörg 🎮',
      TYER: '2026',
      TLEN: '1500',
      TSSE: 'openpug (lamejs)',
    });
  });

  it('clamps PCM to 16 bits and mixes channels to mono', () => {
    expect(Array.from(toInt16(new Float32Array([0, 1, -1, 2, -0.5])))).toEqual([
      0, 32767, -32768, 32767, -16384,
    ]);
    expect(Array.from(mixToMono([new Float32Array([1, 0.5]), new Float32Array([0, 0.5, 9])]))).toEqual([
      0.5, 0.5,
    ]);
  });

  it('encodes a second of tone into a tagged MPEG-1 Layer III mono file', async () => {
    const rate = 44_100;
    const tone = new Float32Array(rate);
    for (let i = 0; i < tone.length; i++) tone[i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate);
    const file = await voiceFile(Mp3Encoder, tone, rate, {
      timestamp: Date.UTC(2026, 10, 21, 12),
      artist: 'Ann',
    });
    expect(file.name).toBe(`Recording-${Date.UTC(2026, 10, 21, 12)}.mp3`);
    expect(file.type).toBe('audio/mpeg');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { size, frames } = readId3(bytes);
    expect(frames.TIT2).toBe(`Recording-${Date.UTC(2026, 10, 21, 12)}`);
    expect(frames.TPE1).toBe('Ann');
    expect(frames.TLEN).toBe('1000');
    const audio = mpegFrames(bytes.subarray(size));
    expect(audio.sampleRate).toBe(rate);
    expect(audio.kbps).toEqual(new Set([VOICE_KBPS]));
    // A second is 38.3 frames of 1152 samples, plus the encoder's delay and padding.
    expect(audio.count).toBeGreaterThanOrEqual(39);
    expect(audio.count).toBeLessThanOrEqual(42);
  });
});
