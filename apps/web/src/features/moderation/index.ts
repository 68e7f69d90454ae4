export { type DurationUnit, durationMinutes, formatDateTime } from './rules';
export { BannedNotice, MutedNotice, SignInBanNotice, useBan } from './SanctionNotice';
export { SanctionsDialog, type SanctionTarget } from './SanctionsDialog';
export { loadModeration, rememberSignInBan, useModeration, useRunningSanctions } from './store';
