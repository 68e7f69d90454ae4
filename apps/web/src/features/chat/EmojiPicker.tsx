/** A small built-in emoji picker (no network, no emoji package). */
import Popover from '@mui/material/Popover';
import styles from './Chat.module.css';

export const EMOJIS = [
  '😀',
  '😂',
  '🤣',
  '😊',
  '😍',
  '😎',
  '🤔',
  '😅',
  '😉',
  '🙃',
  '😴',
  '😭',
  '😡',
  '🤯',
  '🥳',
  '😬',
  '🙄',
  '😇',
  '🤝',
  '👍',
  '👎',
  '👏',
  '🙌',
  '🙏',
  '💪',
  '👀',
  '🫡',
  '✌️',
  '👋',
  '🤞',
  '🔥',
  '💯',
  '🎉',
  '🏆',
  '🥇',
  '🎯',
  '💥',
  '⚡',
  '💀',
  '👑',
  '❤️',
  '💔',
  '✅',
  '❌',
  '⏰',
  '🎮',
  '🔫',
  '💣',
  '🧠',
  '🍀',
  '🍕',
  '🍺',
  '☕',
  '🚀',
  '🐐',
  '🤡',
  '🤷',
  '😤',
  '🫠',
  '🥶',
];

export function EmojiPicker({
  anchor,
  onClose,
  onPick,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
  onPick: (emoji: string) => void;
}) {
  return (
    <Popover
      open={Boolean(anchor)}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
      transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      slotProps={{ paper: { sx: { p: 1, bgcolor: 'background.paper' } } }}
    >
      <div className={styles.emojiGrid} role="listbox" data-testid="emoji-picker">
        {EMOJIS.map((e) => (
          <button
            type="button"
            key={e}
            className={styles.emojiCell}
            onClick={() => onPick(e)}
            role="option"
            aria-selected={false}
          >
            {e}
          </button>
        ))}
      </div>
    </Popover>
  );
}
