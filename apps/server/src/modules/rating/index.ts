// The rating module's entry: the Elo rules (elo.ts, pure) and the replay of a corrected or voided
// match through the players' later matches (history.ts, the admin's match tools).
export { eloDelta, eloRulesFromConfig, ratedOutcome } from './elo';
export { type EloCorrection, rerateMatch } from './history';
