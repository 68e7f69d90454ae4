// The accounts module's leaf entry: the session and the rate limits, which many modules' routes
// use. service.ts is the entry for the rest; these two live here because moderation, chat and
// privacy import them while accounts/service.ts imports those modules back (docs/architecture.md,
// Boundaries: an entry re-exports only what does not pull the module's routes).
export { countCall, rateLimiter } from './rate-limit';
export {
  requestLocale,
  revokeSessions,
  sessionResponse,
  setChatRevoker,
  setMatrixSessionProvider,
} from './session';
