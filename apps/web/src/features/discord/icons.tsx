/** Small brand-neutral glyphs for the settings rows (drawn here, no icon packs). */
export function DiscordGlyph() {
  return (
    <svg width={22} height={22} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M19.3 5.4A16 16 0 0 0 15.4 4l-.5 1a14.6 14.6 0 0 0-5.8 0l-.5-1a16 16 0 0 0-3.9 1.4C2.2 9.1 1.5 12.7 1.8 16.3A16 16 0 0 0 6.7 19l1-1.6a10 10 0 0 1-1.6-.8l.4-.3a11.4 11.4 0 0 0 11 0l.4.3c-.5.3-1 .6-1.6.8l1 1.6a16 16 0 0 0 4.9-2.7c.4-4.2-.7-7.8-2.9-10.9ZM8.7 14.1c-1 0-1.7-.9-1.7-2s.8-2 1.7-2 1.8.9 1.7 2c0 1.1-.8 2-1.7 2Zm6.6 0c-1 0-1.7-.9-1.7-2s.8-2 1.7-2 1.8.9 1.7 2c0 1.1-.7 2-1.7 2Z" />
    </svg>
  );
}
