import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodeInput } from './CodeInput';

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];

describe('code input', () => {
  afterEach(cleanup);

  it('has four boxes and submits once all are filled', () => {
    const onComplete = vi.fn();
    render(<CodeInput length={4} label="Code digit" onComplete={onComplete} />);
    expect(boxes()).toHaveLength(4);
    fireEvent.change(boxes()[0], { target: { value: '1' } });
    fireEvent.change(boxes()[1], { target: { value: '2' } });
    fireEvent.change(boxes()[2], { target: { value: '3' } });
    expect(onComplete).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(boxes()[3]);
    fireEvent.change(boxes()[3], { target: { value: '4' } });
    expect(onComplete).toHaveBeenCalledWith('1234');
    expect(boxes().map((b) => b.value)).toEqual(['1', '2', '3', '4']);
  });

  it('ignores letters, fills every box from a paste, and moves back on Backspace', () => {
    const onComplete = vi.fn();
    render(<CodeInput length={4} label="Code digit" onComplete={onComplete} />);
    fireEvent.change(boxes()[0], { target: { value: 'a' } });
    expect(boxes()[0].value).toBe('');
    fireEvent.paste(boxes()[0], { clipboardData: { getData: () => ' 98-76 ' } });
    expect(onComplete).toHaveBeenCalledWith('9876');
    fireEvent.change(boxes()[3], { target: { value: '' } });
    fireEvent.keyDown(boxes()[3], { key: 'Backspace' });
    expect(boxes().map((b) => b.value)).toEqual(['9', '8', '', '']);
    expect(document.activeElement).toBe(boxes()[2]);
  });

  it('marks every box as invalid in the error state', () => {
    render(<CodeInput length={4} label="Code digit" error onComplete={() => undefined} />);
    for (const box of boxes()) expect(box.getAttribute('aria-invalid')).toBe('true');
  });
});
