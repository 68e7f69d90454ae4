/**
 * The voice-link code input (docs/contract.md §5): one box per digit (4), typing moves on, Backspace moves
 * back, a pasted code fills all boxes. `onComplete` fires once all boxes hold a digit.
 */
import Box from '@mui/material/Box';
import { useRef, useState } from 'react';

export interface CodeInputProps {
  length: number;
  onComplete: (code: string) => void;
  error?: boolean;
  disabled?: boolean;
  /** Accessible name of the group; each box is "<label> <n>". */
  label: string;
}

export function CodeInput({ length, onComplete, error = false, disabled = false, label }: CodeInputProps) {
  const [digits, setDigits] = useState<string[]>(() => Array(length).fill(''));
  const refs = useRef<(HTMLInputElement | null)[]>([]);

  const update = (next: string[], focusIndex: number) => {
    setDigits(next);
    refs.current[Math.min(focusIndex, length - 1)]?.focus();
    if (next.every((d) => d !== '')) onComplete(next.join(''));
  };

  const fill = (index: number, text: string) => {
    const incoming = text.replace(/\D/g, '');
    if (!incoming) return;
    const next = [...digits];
    let i = index;
    for (const char of incoming) {
      if (i >= length) break;
      next[i] = char;
      i += 1;
    }
    update(next, i);
  };

  return (
    <Box role="group" aria-label={label} sx={{ display: 'flex', gap: 1.5, justifyContent: 'center' }}>
      {digits.map((digit, index) => (
        <Box
          // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions
          key={index}
          component="input"
          ref={(el: HTMLInputElement | null) => {
            refs.current[index] = el;
          }}
          value={digit}
          disabled={disabled}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={`${label} ${index + 1}`}
          aria-invalid={error || undefined}
          onFocus={(e: React.FocusEvent<HTMLInputElement>) => e.currentTarget.select()}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => {
            const value = e.currentTarget.value;
            if (value === '') {
              const next = [...digits];
              next[index] = '';
              setDigits(next);
              return;
            }
            // A whole code (autofill) fills every box; a typed digit replaces the box's digit.
            const typed = value.replace(/\D/g, '');
            fill(typed.length >= length ? 0 : index, typed.length >= length ? typed : typed.slice(-1));
          }}
          onKeyDown={(e: React.KeyboardEvent<HTMLInputElement>) => {
            if (e.key === 'Backspace' && digit === '' && index > 0) {
              e.preventDefault();
              const next = [...digits];
              next[index - 1] = '';
              setDigits(next);
              refs.current[index - 1]?.focus();
            } else if (e.key === 'ArrowLeft' && index > 0) refs.current[index - 1]?.focus();
            else if (e.key === 'ArrowRight' && index < length - 1) refs.current[index + 1]?.focus();
          }}
          onPaste={(e: React.ClipboardEvent<HTMLInputElement>) => {
            e.preventDefault();
            fill(index, e.clipboardData.getData('text'));
          }}
          sx={{
            width: 52,
            height: 60,
            textAlign: 'center',
            fontSize: '1.75rem',
            fontWeight: 700,
            fontFamily: 'inherit',
            color: 'text.primary',
            bgcolor: 'background.default',
            border: '2px solid',
            borderColor: error ? 'error.main' : 'divider',
            borderRadius: 1.5,
            outline: 'none',
            caretColor: 'transparent',
            '&:focus': { borderColor: error ? 'error.main' : 'primary.main' },
            '&:disabled': { opacity: 0.5 },
          }}
        />
      ))}
    </Box>
  );
}

/** Clears the boxes after a wrong code: remount with a new key. */
export const codeInputKey = (attempt: number) => `code-${attempt}`;
