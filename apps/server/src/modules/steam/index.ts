// The steam module's leaf entry: the OpenID constants and the dev tools' provider address, and the
// signed ticket, used by dev and privacy without the Steam routes.
export { claimedIdPrefix, devOpenIdUrl, OPENID_NS } from './openid';
export { verifySteamTicket } from './ticket';
