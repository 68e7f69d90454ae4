/** The confirmation e-mail of an account deletion, in the account's language (en/de). */
import type { Locale } from '@openpug/shared';
import { localeOf, type UserRow } from '../accounts/service';
import type { Email } from '../mail/service';

const TEXTS: Record<Locale, { subject: string; hello: string; body: string; outro: string }> = {
  en: {
    subject: 'Your openpug account has been deleted',
    hello: 'Hi',
    body: 'your openpug account and the personal data stored with it have been deleted: e-mail address, name, avatar, linked Steam, TeamSpeak, Discord and WhatsApp accounts, friends, notification settings and your chat messages. You have been signed out everywhere. The matches you played stay in the other players’ history under the name “Deleted player”.',
    outro: 'If you did not delete your account yourself, please reply to this e-mail.',
  },
  de: {
    subject: 'Dein openpug-Konto wurde gelöscht',
    hello: 'Hallo',
    body: 'dein openpug-Konto und die dazu gespeicherten persönlichen Daten wurden gelöscht: E-Mail-Adresse, Name, Avatar, verknüpfte Steam-, TeamSpeak-, Discord- und WhatsApp-Konten, Freunde, Benachrichtigungseinstellungen und deine Chatnachrichten. Du wurdest überall abgemeldet. Deine gespielten Matches bleiben im Verlauf der anderen Spieler unter dem Namen „Deleted player“ erhalten.',
    outro: 'Wenn du dein Konto nicht selbst gelöscht hast, antworte bitte auf diese E-Mail.',
  },
};

/** Sent to the address on file before it is erased; not linked to the user id (which is gone). */
export function deletionMail(row: Pick<UserRow, 'name' | 'locale'>, to: string): Email {
  const t = TEXTS[localeOf(row.locale)];
  const hello = `${t.hello} ${row.name ?? ''}`.trim();
  return { to, userId: null, subject: t.subject, text: `${hello},\n\n${t.body}\n\n${t.outro}\n\nopenpug` };
}
