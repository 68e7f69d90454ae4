// The queue module's leaf entry: the escalating cooldowns, which matches (leavers, substitutes)
// and admin use. service.ts imports matches and moderation, which import these back.
export { activeCooldown, cooldownHistory, liftCooldowns, recordOffence } from './cooldowns';
