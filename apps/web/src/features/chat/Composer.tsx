/**
 * The composer (docs/contract.md §2, §5 chat sending): 'Type a message ...', emoji picker, file upload, pasted
 * files, voice recorder (when there is no text), send (when there is text or an attachment) and
 * reply-to. Text is trimmed, empty text is not sent, and nothing is sent twice at once.
 */
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { MatrixEvent, Room } from 'matrix-js-sdk';
import type { RoomMessageEventContent } from 'matrix-js-sdk/lib/types';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMmSs } from '../../ui/countdown';
import { useNow } from '../../ui/useNow';
import { MutedNotice } from '../moderation';
import { useSession } from '../session';
import styles from './Chat.module.css';
import { EmojiPicker } from './EmojiPicker';
import { askNotificationPermission, getClient } from './engine';
import { AttachIcon, CloseIcon, EmojiIcon, FileIcon, MicIcon, SendIcon, StopIcon, TrashIcon } from './icons';
import { CHAT, msgtypeForMime } from './rules';
import { extensionOf, recordingName, recordingToMp3 } from './voice';

async function imageInfo(file: File): Promise<{ w?: number; h?: number }> {
  if (!file.type.startsWith('image/')) return {};
  try {
    const bitmap = await createImageBitmap(file);
    const info = { w: bitmap.width, h: bitmap.height };
    bitmap.close();
    return info;
  } catch {
    return {};
  }
}

export function Composer({
  room,
  replyTo,
  onCancelReply,
  onSent,
}: {
  room: Room;
  replyTo: MatrixEvent | null;
  onCancelReply: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);
  const lastTyping = useRef(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // A new room starts with an empty composer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per room
  useEffect(() => {
    setText('');
    setFile(null);
  }, [room.roomId]);

  const typingNotice = (value: string) => {
    const c = getClient();
    if (!c) return;
    const now = Date.now();
    if (value && now - lastTyping.current >= CHAT.typingThrottleMs) {
      lastTyping.current = now;
      void c.sendTyping(room.roomId, true, CHAT.typingTimeoutMs).catch(() => undefined);
    }
    if (!value && lastTyping.current) {
      lastTyping.current = 0;
      void c.sendTyping(room.roomId, false, 0).catch(() => undefined);
    }
  };

  const sendFile = async (f: File) => {
    const c = getClient();
    if (!c) return;
    const { content_uri } = await c.uploadContent(f, {
      name: f.name,
      type: f.type || 'application/octet-stream',
    });
    const msgtype = msgtypeForMime(f.type);
    const info = { mimetype: f.type || 'application/octet-stream', size: f.size, ...(await imageInfo(f)) };
    const content = { msgtype, body: f.name, filename: f.name, url: content_uri, info };
    await c.sendMessage(room.roomId, content as unknown as RoomMessageEventContent);
  };

  const send = async () => {
    const c = getClient();
    const body = text.trim();
    if (!c || sending.current || (!body && !file)) return;
    sending.current = true;
    setBusy(true);
    const reply = replyTo?.getId();
    const attachment = file;
    setText('');
    setFile(null);
    onCancelReply();
    typingNotice('');
    try {
      if (attachment) await sendFile(attachment);
      if (body) {
        const content: Record<string, unknown> = { msgtype: 'm.text', body };
        if (reply) content['m.relates_to'] = { 'm.in_reply_to': { event_id: reply } };
        await c.sendMessage(room.roomId, content as unknown as RoomMessageEventContent);
      }
      onSent();
    } catch (err) {
      // Chat send failures are only logged (docs/contract.md §8).
      console.error('[chat] send failed', err);
    } finally {
      sending.current = false;
      setBusy(false);
      input.current?.focus();
    }
  };

  const insertEmoji = (emoji: string) => {
    const el = input.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + emoji + text.slice(end);
    setText(next);
    setEmojiAnchor(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const hasContent = text.trim().length > 0 || file !== null;
  const replySender = replyTo
    ? (room.getMember(replyTo.getSender() ?? '')?.name ?? replyTo.getSender())
    : null;

  return (
    <div className={styles.composer}>
      <MutedNotice className={styles.composerNote} />
      {replyTo && (
        <div className={styles.composerNote} data-testid="chat-replying">
          <span>
            {t('chat.replyingTo', { name: replySender })}{' '}
            <em>{String(replyTo.getContent().body ?? '').slice(0, 80)}</em>
          </span>
          <IconButton size="small" aria-label={t('chat.cancel')} onClick={onCancelReply}>
            <CloseIcon size={16} />
          </IconButton>
        </div>
      )}
      {file && (
        <div className={styles.composerNote} data-testid="chat-attachment">
          <span className={styles.attachmentName}>
            <FileIcon size={16} /> {file.name}
          </span>
          <IconButton size="small" aria-label={t('chat.removeAttachment')} onClick={() => setFile(null)}>
            <CloseIcon size={16} />
          </IconButton>
        </div>
      )}
      <div className={styles.composerRow}>
        <Tooltip title={t('chat.emoji')}>
          <IconButton
            size="small"
            aria-label={t('chat.emoji')}
            onClick={(e) => setEmojiAnchor(e.currentTarget)}
          >
            <EmojiIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('chat.attach')}>
          <IconButton size="small" aria-label={t('chat.attach')} onClick={() => fileInput.current?.click()}>
            <AttachIcon />
          </IconButton>
        </Tooltip>
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="chat-file-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) setFile(f);
            e.target.value = '';
          }}
        />
        <textarea
          ref={input}
          className={styles.input}
          rows={1}
          value={text}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          data-testid="chat-input"
          onFocus={askNotificationPermission}
          onChange={(e) => {
            setText(e.target.value);
            typingNotice(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          onPaste={(e) => {
            // A pasted item is used only if it is a file.
            for (const item of Array.from(e.clipboardData.items)) {
              if (item.kind !== 'file') continue;
              const f = item.getAsFile();
              if (f) {
                e.preventDefault();
                setFile(f);
                return;
              }
            }
          }}
        />
        {hasContent ? (
          <Tooltip title={t('chat.send')}>
            <span>
              <IconButton
                size="small"
                color="primary"
                aria-label={t('chat.send')}
                onClick={() => void send()}
                disabled={busy}
                data-testid="chat-send"
              >
                <SendIcon />
              </IconButton>
            </span>
          </Tooltip>
        ) : (
          <VoiceRecorder onRecorded={(f) => setFile(f)} />
        )}
      </div>
      <EmojiPicker anchor={emojiAnchor} onClose={() => setEmojiAnchor(null)} onPick={insertEmoji} />
    </div>
  );
}

/**
 * Voice recorder (docs/contract.md §9): records with MediaRecorder, then hands over the tagged mp3
 * 'Recording-{timestamp}.mp3' (see voice.ts). Microphone failures are only logged (docs/contract.md §8); if the
 * browser cannot decode its own recording, the recording is kept in its original format.
 */
function VoiceRecorder({ onRecorded }: { onRecorded: (file: File) => void }) {
  const { t } = useTranslation();
  const [recording, setRecording] = useState<{ started: number; recorder: MediaRecorder } | null>(null);
  const [encoding, setEncoding] = useState(false);
  const now = useNow(1000, recording !== null);
  const cancelled = useRef(false);

  const finish = async (chunks: Blob[], type: string, timestamp: number) => {
    const recorded = new Blob(chunks, { type });
    setEncoding(true);
    try {
      onRecorded(await recordingToMp3(recorded, { timestamp, artist: useSession.getState().user?.name }));
    } catch (err) {
      console.error('[chat] mp3 encoding failed, sending the original recording', err);
      onRecorded(new File([recorded], `${recordingName(timestamp)}.${extensionOf(type)}`, { type }));
    } finally {
      setEncoding(false);
    }
  };

  const start = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      const started = Date.now();
      cancelled.current = false;
      recorder.ondataavailable = (e) => chunks.push(e.data);
      recorder.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        if (!cancelled.current)
          void finish(chunks, (recorder.mimeType || 'audio/webm').split(';')[0] as string, started);
      };
      recorder.start();
      setRecording({ started, recorder });
    } catch (err) {
      console.error('[chat] microphone', err);
    }
  };
  const stop = (cancel: boolean) => {
    cancelled.current = cancel;
    recording?.recorder.stop();
    setRecording(null);
  };

  if (!recording)
    return (
      <Tooltip title={t('chat.record')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('chat.record')}
            onClick={() => void start()}
            disabled={encoding}
            data-testid="chat-record"
          >
            <MicIcon />
          </IconButton>
        </span>
      </Tooltip>
    );
  return (
    <span className={styles.recording} data-testid="chat-recording">
      <span className={styles.recordDot} />
      {formatMmSs((now - recording.started) / 1000)}
      <IconButton size="small" aria-label={t('chat.cancel')} onClick={() => stop(true)}>
        <TrashIcon size={18} />
      </IconButton>
      <IconButton
        size="small"
        color="primary"
        aria-label={t('chat.stopRecording')}
        onClick={() => stop(false)}
      >
        <StopIcon size={18} />
      </IconButton>
    </span>
  );
}
