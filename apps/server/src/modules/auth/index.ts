// The auth module's entry for other modules: the route guards and who is calling; session tokens for the entry point.
export { currentUserId, requireAdmin, requireAuth } from './guard';
export { createTokens, loadJwtSecret } from './tokens';
