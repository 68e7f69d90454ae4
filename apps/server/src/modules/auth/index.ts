// The auth module's entry: the route guards and who is calling, and the session tokens (signed at
// login, checked on every request and socket; app.ts and the realtime hub make and use them).
export {
  bearerToken,
  currentUser,
  currentUserId,
  installAuthGuard,
  requireAdmin,
  requireAuth,
} from './guard';
export { createTokens, loadJwtSecret, type SessionTokens, type Tokens, withSessionCheck } from './tokens';
