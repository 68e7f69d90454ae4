// The mobile module's entry for other modules: Web Push to a player's phone app.
export { hasPushSubscription, type MobileModuleState, pushToUsers } from './push';
