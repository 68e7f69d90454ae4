// The moderation module's leaf entry: the sanctions in force and the audit log, which queue,
// friends, chat, drops, ranking, reports and admin read or write. service.ts imports chat and
// accounts, which import these back, so they are not re-exported there (docs/architecture.md,
// Boundaries).
export { recordAudit } from './audit';
export { activeSanction, banChecks, chatBlocked, refuseBanned } from './sanctions';
