// The matches module's leaf entry: its pure rules (the lifecycle table, the room state, presence)
// and the reads of its tables that other modules need. None of these files imports another
// module, so importing them never closes a cycle with matches/service.ts, which imports queue,
// chat and gameservers (docs/architecture.md, Boundaries).
export { beforeLive, matchLifecycle, matchStateOf, statusOf } from './lifecycle';
export { predictedOutcomes } from './predictions';
export { presenceOf, rosterKey, waitsForPlayers } from './presence';
export {
  activeMatchPlayers,
  countMatchesByStatus,
  isCaptain,
  isMatchOver,
  lastFinishedMatchesOf,
  playedTogether,
  serverSecretOf,
} from './reads';
export { reliabilityColumn, reliabilityOf } from './reliability';
export { isRostered, type MatchRow, type PlayerRow, toStats } from './state';
export { recentResults, recentResultsColumn } from './stats';
