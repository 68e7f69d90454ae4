import { z } from 'zod';

/**
 * Error catalogue of docs/contract.md §8. Every refused call answers `{ errors: { msg: KEY } }` with one of
 * these keys; the web shows the text in the user's language.
 */
export const ERROR_TEXTS = {
  en: {
    '404': '404 Page not found',
    BAD_TOKEN: 'Bad token',
    WRONG_PASSWORD: 'Wrong password',
    /** Login: an unknown e-mail and a wrong password get this one answer. */
    WRONG_CREDENTIALS: 'Wrong e-mail or password',
    USER_DOES_NOT_EXIST: 'User does not exists',
    PASSWORDS_DONT_MATCH: 'Passwords don´t match',
    PASSWORD_TOO_SHORT_MIN_5: 'Password too short, minimum 5 characters',
    BLOCKED_USER: 'Too many failed login attempts, user blocked temporarely',
    SERVER_TIMEOUT_CONNECTION_ERROR: 'Server is not responding, connection error',
    EMAIL_IS_NOT_VALID: 'E-mail not valid',
    IS_EMPTY: 'Empty fields',
    ERROR: 'Error',
    MISSING: 'Missing fields',
    NOT_FOUND_OR_ALREADY_VERIFIED: 'Not found or already verified',
    NOT_FOUND_OR_ALREADY_USED: 'Not found or already used',
    NOT_FOUND: 'Not found',
    UNAUTHORIZED: 'Unauthorized',
    EMAIL_ALREADY_EXISTS: 'E-mail already exists',
    STEAM_ALREADY_EXIST: 'An account linked to this game-platform account already exists',
    ID_MALFORMED: 'ID malformed',
    ERROR_WITH_FILTER: 'Error with filter',
    // Keys added by openpug beyond the catalogue (docs/contract.md §8).
    INVALID_INPUT: 'Invalid input',
    MALFORMED_JSON: 'The request body is not valid JSON',
    PAYLOAD_TOO_LARGE: 'The request is too large',
    TOO_MANY_REQUESTS: 'Too many requests, please wait a moment',
    QUEUE_COOLDOWN: 'You are on a queue cooldown',
    PUSH_ENDPOINT_NOT_PUBLIC: 'Notifications can only be sent to a public https push service',
    PUSH_ENDPOINT_TAKEN: 'This browser receives notifications for another account',
    NOT_AUTHENTICATED: 'Please log in first',
    BANNER_NOT_UNLOCKED: 'This banner is not unlocked yet',
    SOUND_NOT_UNLOCKED: 'This sound is not unlocked yet',
    TEAMSPEAK_ALREADY_LINKED: 'This TeamSpeak identity is already linked to another account',
    // Reaching players (issue 8).
    PHONE_IS_NOT_VALID: 'Enter the number in international format, e.g. +491701234567',
    WHATSAPP_NOT_LINKED: 'Link a WhatsApp number first',
    WHATSAPP_SIGNATURE_INVALID: 'The webhook signature is missing or wrong',
    WHATSAPP_VERIFY_TOKEN_INVALID: 'The webhook verify token is wrong',
    DISCORD_ALREADY_LINKED: 'This Discord account is already linked to another account',
    // Queue and match (issue 5).
    VOICE_NOT_LINKED: 'Link your TeamSpeak identity before queueing',
    STEAM_NOT_LINKED: 'Link your Steam account before queueing',
    NAME_REQUIRED: 'Choose a profile name before queueing',
    ALREADY_IN_QUEUE: 'You are already in the queue',
    ALREADY_IN_MATCH: 'You are already playing a match',
    NOT_IN_QUEUE: 'You are not in the queue',
    NO_ACCEPT_PHASE: 'There is no match to accept right now',
    NOT_YOUR_TURN: 'It is not your turn',
    NOT_A_PARTICIPANT: 'Only players of this match can do that',
    WRONG_MATCH_PHASE: 'That is not possible in this phase of the match',
    INVALID_PICK: 'This player cannot be picked',
    MAP_ALREADY_BANNED: 'This map is already banned',
    INVALID_MAP: 'This map is not in the map pool',
    // Competition (issue 7).
    LAST_ADMIN: 'The last admin cannot give up the admin role',
    // Friends (social).
    CANNOT_ADD_YOURSELF: 'You cannot send a friend request to yourself',
    ALREADY_FRIENDS: 'You are already friends',
    FRIEND_REQUEST_ALREADY_EXISTS: 'A friend request between you already exists',
    FRIEND_REQUEST_ALREADY_ANSWERED: 'This friend request was already answered',
    FRIEND_REQUEST_ALREADY_ACCEPTED: 'This friend request was already accepted',
    ONLY_RECIPIENT_CAN_ANSWER: 'Only the recipient can answer this friend request',
    NOT_FRIENDS: 'You are not friends',
    /** TeamSpeak ServerQuery did not answer in time, is reconnecting or is waiting out a flood ban. */
    VOICE_SERVER_UNAVAILABLE: 'The TeamSpeak server is not answering right now, please try again in a moment',
    // Community safety (bans, mutes).
    BANNED: 'You are banned',
    MUTED: 'You are muted in the chat',
    SANCTION_NOT_ACTIVE: 'This sanction has already ended or been lifted',
    CANNOT_SANCTION_YOURSELF: 'You cannot ban or mute yourself',
    CANNOT_REPORT_YOURSELF: 'You cannot report yourself',
    REPORT_MATCH_NOT_SHARED: 'You can only link a match you both played in',
    REPORT_ALREADY_RESOLVED: 'This report has already been resolved',
    // Substitute offers (a no-show's slot).
    SUBSTITUTE_TAKEN: 'Someone else took this slot first',
    SUBSTITUTE_EXPIRED: 'This substitute offer has ended',
    SUBSTITUTE_NOT_QUEUED:
      'Only players waiting in the queue or playing in the arena can take a substitute slot',
    NOT_YOUR_CAPTAIN_CALL: "Only the captain of this player's team can ask for a substitute",
    NOT_A_LEAVER: 'This player has not left the match',
    // GDPR self-service (deleting the account).
    ACCOUNT_DELETE_BUSY: 'Leave the queue and finish your match before deleting your account',
    STEAM_ACCOUNT_MISMATCH: 'Sign in with the Steam account linked to your account',
    CHAT_UNAVAILABLE: 'The chat server is not answering right now, please try again in a moment',
    // Chat moderation (global and match rooms).
    CHAT_NOT_A_MEMBER: 'This player is not in the chat room',
    CHAT_NOT_BANNED: 'This player is not banned from the chat room',
    CHAT_TARGET_PROTECTED: 'You cannot moderate this player',
    // Arena servers (admin area).
    ARENA_ADDRESS_INVALID: 'Enter the address as host:port',
    // Season details (admin).
    SEASON_ENDS_BEFORE_START: 'The season must end after it starts',
    // Queue insights.
    TIME_ZONE_INVALID: 'Unknown time zone',
    // Admin match tools.
    RESULT_MISMATCH: 'The winner does not match the score',
    NO_FREE_SERVER: 'No other game server is free right now',
    PLAYER_NOT_IN_MATCH: 'This player is not in the match',
    NOTHING_TO_CORRECT: 'This is the result the match already has',
    // "Notify me at N/10".
    QUEUE_ALERT_THRESHOLD_INVALID: 'Choose a number from 1 to 9, or off',
    QUEUE_ALERT_CHANNEL_NOT_LINKED: 'Link this channel first',
    QUIET_HOURS_INVALID: 'Quiet hours need a start and an end hour (0–23) that differ',
  },
  de: {
    '404': '404 Seite nicht gefunden',
    BAD_TOKEN: 'Ungültiges Token',
    WRONG_PASSWORD: 'Falsches Passwort',
    WRONG_CREDENTIALS: 'E-Mail-Adresse oder Passwort falsch',
    USER_DOES_NOT_EXIST: 'Benutzer existiert nicht',
    PASSWORDS_DONT_MATCH: 'Passwörter stimmen nicht überein',
    PASSWORD_TOO_SHORT_MIN_5: 'Passwort zu kurz, mindestens 5 Zeichen',
    BLOCKED_USER: 'Zu viele fehlgeschlagene Anmeldeversuche, Benutzer vorübergehend gesperrt',
    SERVER_TIMEOUT_CONNECTION_ERROR: 'Server antwortet nicht, Verbindungsfehler',
    EMAIL_IS_NOT_VALID: 'E-Mail ungültig',
    IS_EMPTY: 'Leere Felder',
    ERROR: 'Fehler',
    MISSING: 'Fehlende Felder',
    NOT_FOUND_OR_ALREADY_VERIFIED: 'Nicht gefunden oder bereits bestätigt',
    NOT_FOUND_OR_ALREADY_USED: 'Nicht gefunden oder bereits verwendet',
    NOT_FOUND: 'Nicht gefunden',
    UNAUTHORIZED: 'Nicht berechtigt',
    EMAIL_ALREADY_EXISTS: 'E-Mail existiert bereits',
    STEAM_ALREADY_EXIST: 'Ein Konto mit diesem Spieleplattform-Konto existiert bereits',
    ID_MALFORMED: 'ID fehlerhaft',
    ERROR_WITH_FILTER: 'Fehler im Filter',
    INVALID_INPUT: 'Ungültige Eingabe',
    MALFORMED_JSON: 'Die Anfrage ist kein gültiges JSON',
    PAYLOAD_TOO_LARGE: 'Die Anfrage ist zu groß',
    TOO_MANY_REQUESTS: 'Zu viele Anfragen, bitte warte einen Moment',
    QUEUE_COOLDOWN: 'Du hast gerade eine Warteschlangen-Sperre',
    PUSH_ENDPOINT_NOT_PUBLIC: 'Benachrichtigungen gehen nur an einen öffentlichen https-Push-Dienst',
    PUSH_ENDPOINT_TAKEN: 'Dieser Browser erhält Benachrichtigungen für ein anderes Konto',
    NOT_AUTHENTICATED: 'Bitte melde dich zuerst an',
    BANNER_NOT_UNLOCKED: 'Dieses Banner ist noch nicht freigeschaltet',
    SOUND_NOT_UNLOCKED: 'Dieser Sound ist noch nicht freigeschaltet',
    TEAMSPEAK_ALREADY_LINKED: 'Diese TeamSpeak-Identität ist bereits mit einem anderen Konto verknüpft',
    // Reaching players (issue 8).
    PHONE_IS_NOT_VALID: 'Gib die Nummer im internationalen Format ein, z. B. +491701234567',
    WHATSAPP_NOT_LINKED: 'Verknüpfe zuerst eine WhatsApp-Nummer',
    WHATSAPP_SIGNATURE_INVALID: 'Die Webhook-Signatur fehlt oder ist falsch',
    WHATSAPP_VERIFY_TOKEN_INVALID: 'Das Webhook-Verifizierungstoken ist falsch',
    DISCORD_ALREADY_LINKED: 'Dieses Discord-Konto ist bereits mit einem anderen Konto verknüpft',
    VOICE_NOT_LINKED: 'Verknüpfe zuerst deine TeamSpeak-Identität',
    STEAM_NOT_LINKED: 'Verknüpfe zuerst dein Steam-Konto',
    NAME_REQUIRED: 'Wähle zuerst einen Profilnamen',
    ALREADY_IN_QUEUE: 'Du bist bereits in der Warteschlange',
    ALREADY_IN_MATCH: 'Du spielst bereits ein Match',
    NOT_IN_QUEUE: 'Du bist nicht in der Warteschlange',
    NO_ACCEPT_PHASE: 'Gerade gibt es kein Match zum Annehmen',
    NOT_YOUR_TURN: 'Du bist nicht an der Reihe',
    NOT_A_PARTICIPANT: 'Nur Spieler dieses Matches können das tun',
    WRONG_MATCH_PHASE: 'Das ist in dieser Phase des Matches nicht möglich',
    INVALID_PICK: 'Dieser Spieler kann nicht gewählt werden',
    MAP_ALREADY_BANNED: 'Diese Map ist bereits gebannt',
    INVALID_MAP: 'Diese Map ist nicht im Map-Pool',
    // Competition (issue 7).
    LAST_ADMIN: 'Der letzte Admin kann die Admin-Rolle nicht abgeben',
    CANNOT_ADD_YOURSELF: 'Du kannst dir nicht selbst eine Freundschaftsanfrage senden',
    ALREADY_FRIENDS: 'Ihr seid bereits befreundet',
    FRIEND_REQUEST_ALREADY_EXISTS: 'Zwischen euch besteht bereits eine Freundschaftsanfrage',
    FRIEND_REQUEST_ALREADY_ANSWERED: 'Diese Freundschaftsanfrage wurde bereits beantwortet',
    FRIEND_REQUEST_ALREADY_ACCEPTED: 'Diese Freundschaftsanfrage wurde bereits angenommen',
    ONLY_RECIPIENT_CAN_ANSWER: 'Nur der Empfänger kann diese Freundschaftsanfrage beantworten',
    NOT_FRIENDS: 'Ihr seid nicht befreundet',
    VOICE_SERVER_UNAVAILABLE:
      'Der TeamSpeak-Server antwortet gerade nicht, bitte versuche es gleich noch einmal',
    BANNED: 'Du bist gesperrt',
    MUTED: 'Du bist im Chat stummgeschaltet',
    SANCTION_NOT_ACTIVE: 'Diese Sanktion ist bereits abgelaufen oder aufgehoben',
    CANNOT_SANCTION_YOURSELF: 'Du kannst dich nicht selbst sperren oder stummschalten',
    CANNOT_REPORT_YOURSELF: 'Du kannst dich nicht selbst melden',
    REPORT_MATCH_NOT_SHARED: 'Du kannst nur ein Match verknüpfen, in dem ihr beide gespielt habt',
    REPORT_ALREADY_RESOLVED: 'Diese Meldung wurde bereits bearbeitet',
    SUBSTITUTE_TAKEN: 'Jemand anderes war schneller und hat den Platz übernommen',
    SUBSTITUTE_EXPIRED: 'Dieses Ersatzspieler-Angebot ist abgelaufen',
    SUBSTITUTE_NOT_QUEUED: 'Nur Spieler in der Warteschlange oder in der Arena können als Ersatz einspringen',
    NOT_YOUR_CAPTAIN_CALL: 'Nur der Kapitän des Teams dieses Spielers kann einen Ersatz anfordern',
    NOT_A_LEAVER: 'Dieser Spieler hat das Match nicht verlassen',
    ACCOUNT_DELETE_BUSY: 'Verlasse die Warteschlange und beende dein Match, bevor du dein Konto löschst',
    STEAM_ACCOUNT_MISMATCH: 'Melde dich mit dem Steam-Konto an, das mit deinem Konto verknüpft ist',
    CHAT_UNAVAILABLE: 'Der Chat-Server antwortet gerade nicht, bitte versuche es gleich noch einmal',
    CHAT_NOT_A_MEMBER: 'Dieser Spieler ist nicht im Chatraum',
    CHAT_NOT_BANNED: 'Dieser Spieler ist im Chatraum nicht gesperrt',
    CHAT_TARGET_PROTECTED: 'Du kannst diesen Spieler nicht moderieren',
    ARENA_ADDRESS_INVALID: 'Gib die Adresse als host:port ein',
    SEASON_ENDS_BEFORE_START: 'Die Saison muss nach ihrem Beginn enden',
    TIME_ZONE_INVALID: 'Unbekannte Zeitzone',
    // Admin-Match-Werkzeuge.
    RESULT_MISMATCH: 'Der Sieger passt nicht zum Ergebnis',
    NO_FREE_SERVER: 'Gerade ist kein anderer Gameserver frei',
    PLAYER_NOT_IN_MATCH: 'Dieser Spieler ist nicht im Match',
    NOTHING_TO_CORRECT: 'Das Match hat dieses Ergebnis bereits',
    QUEUE_ALERT_THRESHOLD_INVALID: 'Wähle eine Zahl von 1 bis 9 oder aus',
    QUEUE_ALERT_CHANNEL_NOT_LINKED: 'Verknüpfe diesen Kanal zuerst',
    QUIET_HOURS_INVALID: 'Ruhezeiten brauchen eine Start- und eine Endstunde (0–23), die sich unterscheiden',
  },
} as const;

export type ErrorKey = keyof (typeof ERROR_TEXTS)['en'];
export const ERROR_KEYS = Object.keys(ERROR_TEXTS.en) as ErrorKey[];
export const errorKeySchema = z.enum(ERROR_KEYS as [ErrorKey, ...ErrorKey[]]);

/**
 * Body of every refused HTTP call. A sign-in refused for a running ban (403 BANNED) also says
 * why and until when (`ban`, as `{reason, endsAt}` of GET /api/moderation/me), so the login page
 * can tell the player.
 */
export const errorBodySchema = z.object({
  errors: z.object({
    msg: errorKeySchema,
    ban: z.object({ reason: z.string(), endsAt: z.number().int().nullable() }).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
export type ErrorDetail = Omit<ErrorBody['errors'], 'msg'>;

export function errorBody(msg: ErrorKey, detail?: ErrorDetail): ErrorBody {
  return { errors: { msg, ...detail } };
}

/** Client-side validation messages of docs/contract.md §5, keyed by rule. */
export const VALIDATION_TEXTS = {
  en: {
    email: 'Valid email is required',
    required: 'This field is required',
    password: 'Password is required',
    min: 'This field must have no less than {{length}} characters',
    url: 'Must be a valid URL',
    confirmed: 'Passwords must match',
  },
  de: {
    email: 'Eine gültige E-Mail ist erforderlich',
    required: 'Dieses Feld ist erforderlich',
    password: 'Passwort ist erforderlich',
    min: 'Dieses Feld muss mindestens {{length}} Zeichen haben',
    url: 'Muss eine gültige URL sein',
    confirmed: 'Passwörter müssen übereinstimmen',
  },
} as const;
export type ValidationRule = keyof (typeof VALIDATION_TEXTS)['en'];
