// What other features use of accounts: the sounds, the Steam link, the voice-link dialog's opener,
// the linked-account row of the settings and the login hand-over. The forms and dialogs are the
// screens' and the layout's (they import the component files directly, docs/architecture.md).
export { LinkedAccountRow } from './LinkedAccountRow';
export { SteamLogo } from './SteamButton';
export { completeLogin } from './sessionRules';
export { playSound, soundUrl } from './sounds';
export { reportSteamPopupError, steamLink } from './steamPopup';
export { openVoiceLinkDialog } from './voiceLinkState';
