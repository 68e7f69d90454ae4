/**
 * What the Discord bot says about the queue, in English and German (the linked player's language;
 * for a Discord user who is not linked, the language of their Discord client). Times go out as
 * Discord timestamps (`<t:unix:R>`), which every client shows in its own language and time zone
 * (https://discord.com/developers/docs/reference#message-formatting-timestamp-styles).
 */
import { ERROR_TEXTS, type ErrorKey, type Locale, PLAYERS_PER_MATCH } from '@openpug/shared';

const when = (ms: number) => `<t:${Math.ceil(ms / 1000)}:R>`;

const TEXTS = {
  en: {
    linked: 'Your Discord account is now linked to openpug. You will get a message when a game is found.',
    linkTaken: 'This Discord account is already linked to another openpug account.',
    linkCodeUnknown:
      'This code is unknown, expired or already used. Create a new one in your openpug settings.',
    notLinked: (url: string) =>
      `Your Discord account is not linked to openpug yet. Open ${url}, create a link code under Discord and send it here with /link <code>.`,
    settingsHint: (url: string) => `Fix it in your settings: ${url}`,
    cooldownUntil: (ends: number) => `It ends ${when(ends)}.`,
    joined: (n: number) =>
      `You are in the queue (${n}/${PLAYERS_PER_MATCH}). When ten are in, I will send you Accept and Decline buttons here in a direct message. Your place stays until you leave with /queue leave.`,
    left: (n: number) => `You left the queue (${n}/${PLAYERS_PER_MATCH}).`,
    status: (n: number) => `Queue: ${n}/${PLAYERS_PER_MATCH}.`,
    statusIn: 'You are in the queue.',
    statusOut: 'You are not in the queue.',
    statusPhase: (deadline: number) =>
      `A match was found: accept it in your direct messages or on the website before ${when(deadline)}.`,
    statusMatch: (url: string) => `You are in a live match: ${url}`,
    statusCooldown: (ends: number) => `You are on a queue cooldown; it ends ${when(ends)}.`,
    failed: 'Something went wrong. Please try again in a minute.',
    prompt: (deadline: number) =>
      `**openpug: game found!** Accept ${when(deadline)}. Declining or not answering costs you your place in the queue and a short queue cooldown.`,
    accept: 'Accept',
    decline: 'Decline',
    acceptedWaiting: (n: number) =>
      `You accepted (${n}/${PLAYERS_PER_MATCH} so far). Waiting for the others…`,
    matched: (url: string) => `Everyone accepted: your match is ready. ${url}`,
    youDeclined: 'You declined the match and left the queue.',
    otherDeclined: 'A player declined the match. You keep your place in the queue.',
    timedOutKept: 'Not everyone accepted in time. You keep your place in the queue.',
    timedOutKicked: 'You did not accept in time and left the queue.',
    phaseOver: 'This match can no longer be accepted: the accept phase is over.',
    notYours: 'These buttons belong to another player.',
    badButton: 'This button is not valid.',
  },
  de: {
    linked:
      'Dein Discord-Konto ist jetzt mit openpug verknüpft. Du bekommst eine Nachricht, wenn ein Spiel gefunden ist.',
    linkTaken: 'Dieses Discord-Konto ist bereits mit einem anderen openpug-Konto verknüpft.',
    linkCodeUnknown:
      'Dieser Code ist unbekannt, abgelaufen oder schon benutzt. Erstelle in deinen openpug-Einstellungen einen neuen.',
    notLinked: (url: string) =>
      `Dein Discord-Konto ist noch nicht mit openpug verknüpft. Öffne ${url}, erstelle unter Discord einen Verknüpfungscode und schick ihn hier mit /link <code>.`,
    settingsHint: (url: string) => `Das kannst du in deinen Einstellungen ändern: ${url}`,
    cooldownUntil: (ends: number) => `Sie endet ${when(ends)}.`,
    joined: (n: number) =>
      `Du bist in der Warteschlange (${n}/${PLAYERS_PER_MATCH}). Sind zehn drin, schicke ich dir hier per Direktnachricht Annehmen- und Ablehnen-Knöpfe. Dein Platz bleibt, bis du mit /queue leave gehst.`,
    left: (n: number) => `Du hast die Warteschlange verlassen (${n}/${PLAYERS_PER_MATCH}).`,
    status: (n: number) => `Warteschlange: ${n}/${PLAYERS_PER_MATCH}.`,
    statusIn: 'Du bist in der Warteschlange.',
    statusOut: 'Du bist nicht in der Warteschlange.',
    statusPhase: (deadline: number) =>
      `Ein Match wurde gefunden: nimm es in deinen Direktnachrichten oder auf der Website an, bevor die Zeit ${when(deadline)} abläuft.`,
    statusMatch: (url: string) => `Du bist in einem laufenden Match: ${url}`,
    statusCooldown: (ends: number) => `Du hast eine Warteschlangen-Sperre; sie endet ${when(ends)}.`,
    failed: 'Etwas ist schiefgegangen. Bitte versuch es in einer Minute noch einmal.',
    prompt: (deadline: number) =>
      `**openpug: Spiel gefunden!** Die Zeit zum Annehmen endet ${when(deadline)}. Wer ablehnt oder nicht antwortet, verliert seinen Platz in der Warteschlange und bekommt eine kurze Sperre.`,
    accept: 'Annehmen',
    decline: 'Ablehnen',
    acceptedWaiting: (n: number) =>
      `Du hast angenommen (bisher ${n}/${PLAYERS_PER_MATCH}). Warte auf die anderen…`,
    matched: (url: string) => `Alle haben angenommen: dein Match ist bereit. ${url}`,
    youDeclined: 'Du hast das Match abgelehnt und die Warteschlange verlassen.',
    otherDeclined: 'Ein Spieler hat das Match abgelehnt. Du behältst deinen Platz in der Warteschlange.',
    timedOutKept: 'Nicht alle haben rechtzeitig angenommen. Du behältst deinen Platz in der Warteschlange.',
    timedOutKicked: 'Du hast nicht rechtzeitig angenommen und die Warteschlange verlassen.',
    phaseOver: 'Dieses Match kann nicht mehr angenommen werden: die Annahmephase ist vorbei.',
    notYours: 'Diese Knöpfe gehören einem anderen Spieler.',
    badButton: 'Dieser Knopf ist nicht gültig.',
  },
} as const;

export type BotTexts = (typeof TEXTS)[Locale];
export const botTexts = (locale: Locale): BotTexts => TEXTS[locale];
export const errorText = (locale: Locale, key: ErrorKey): string => ERROR_TEXTS[locale][key];

/** Discord's locale of the caller (https://discord.com/developers/docs/reference#locales): `de` or English. */
export const localeOfDiscord = (locale: string | null | undefined): Locale =>
  locale?.startsWith('de') ? 'de' : 'en';
