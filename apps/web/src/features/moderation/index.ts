export { formatDateTime } from './rules';
export { BannedNotice, MutedNotice, useBan } from './SanctionNotice';
export { SanctionsDialog, type SanctionTarget } from './SanctionsDialog';
export { loadModeration, useModeration, useRunningSanctions } from './store';
