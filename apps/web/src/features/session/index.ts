export { openGameLoginPopup } from './gameLogin';
export type { MatrixCredentials, Session, SessionUser } from './store';
export {
  endRevokedSession,
  logout,
  restoreSession,
  SESSION_STORAGE_KEYS,
  saveSession,
  updateSessionUser,
  useSession,
} from './store';
