// The notify module's entry: background delivery with retries, locales and the notification texts.
export * from './deliver';
