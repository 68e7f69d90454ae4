// The auth module's entry for other modules: the route guards and who is calling.
export { currentUserId, requireAdmin, requireAuth } from './guard';
