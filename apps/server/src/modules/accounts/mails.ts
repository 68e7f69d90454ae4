/**
 * Texts of the account e-mails and the voice-bot message, in the user's language (en/de).
 * Links are absolute, built from PUBLIC_URL: `/verify/<id>` and `/reset/<id>`.
 */
import type { Locale } from '@openpug/shared';
import type { Email } from '../mail/service';

type Kind = 'verify' | 'emailChange' | 'reset' | 'signupExisting';

const TEXTS: Record<
  Locale,
  Record<Kind, { subject: string; intro: string; action: string; outro: string }>
> = {
  en: {
    verify: {
      subject: 'Verify your openpug account',
      intro: 'Welcome to openpug! Please confirm your e-mail address by opening this link:',
      action: 'Verify e-mail',
      outro: 'If you did not sign up, you can ignore this e-mail.',
    },
    emailChange: {
      subject: 'Confirm your new e-mail address',
      intro:
        'You changed the e-mail address of your openpug account. Please confirm it by opening this link:',
      action: 'Confirm e-mail',
      outro: 'If you did not change it, please reset your password.',
    },
    reset: {
      subject: 'Reset your openpug password',
      intro:
        'Someone asked to reset the password of your openpug account. Open this link within one hour to choose a new one:',
      action: 'Reset password',
      outro: 'If you did not ask for this, you can ignore this e-mail; your password stays the same.',
    },
    signupExisting: {
      subject: 'Someone tried to sign up with your address',
      intro:
        'Someone tried to sign up for openpug with this e-mail address, but it already has an account. If that was you, log in, or reset your password if you forgot it:',
      action: 'Log in',
      outro: 'If it was not you, you can ignore this e-mail; nothing has changed.',
    },
  },
  de: {
    verify: {
      subject: 'Bestätige dein openpug-Konto',
      intro: 'Willkommen bei openpug! Bitte bestätige deine E-Mail-Adresse über diesen Link:',
      action: 'E-Mail bestätigen',
      outro: 'Wenn du dich nicht registriert hast, kannst du diese E-Mail ignorieren.',
    },
    emailChange: {
      subject: 'Bestätige deine neue E-Mail-Adresse',
      intro:
        'Du hast die E-Mail-Adresse deines openpug-Kontos geändert. Bitte bestätige sie über diesen Link:',
      action: 'E-Mail bestätigen',
      outro: 'Wenn du sie nicht geändert hast, setze bitte dein Passwort zurück.',
    },
    reset: {
      subject: 'Setze dein openpug-Passwort zurück',
      intro:
        'Jemand möchte das Passwort deines openpug-Kontos zurücksetzen. Öffne diesen Link innerhalb einer Stunde, um ein neues zu wählen:',
      action: 'Passwort zurücksetzen',
      outro: 'Wenn du das nicht warst, ignoriere diese E-Mail; dein Passwort bleibt unverändert.',
    },
    signupExisting: {
      subject: 'Jemand wollte sich mit deiner Adresse registrieren',
      intro:
        'Jemand wollte sich bei openpug mit dieser E-Mail-Adresse registrieren, aber sie gehört schon zu einem Konto. Wenn du das warst, melde dich an oder setze dein Passwort zurück, falls du es vergessen hast:',
      action: 'Anmelden',
      outro: 'Wenn du das nicht warst, kannst du diese E-Mail ignorieren; nichts wurde geändert.',
    },
  },
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function accountMail(
  kind: Kind,
  locale: Locale,
  link: string,
  to: string,
  userId: string | null,
  name: string | null,
  /** A second link under the first (the sign-up attempt mail: reset the password). */
  second?: { label: string; link: string },
): Email {
  const t = TEXTS[locale][kind];
  const hello = locale === 'de' ? `Hallo ${name ?? ''}`.trim() : `Hi ${name ?? ''}`.trim();
  const secondText = second ? `\n\n${second.label}: ${second.link}` : '';
  const secondHtml = second
    ? `<p><a href="${escapeHtml(second.link)}">${escapeHtml(second.label)}</a><br>${escapeHtml(second.link)}</p>`
    : '';
  return {
    to,
    userId,
    subject: t.subject,
    text: `${hello},\n\n${t.intro}\n\n${t.action}: ${link}${secondText}\n\n${t.outro}\n\nopenpug`,
    html: `<p>${escapeHtml(hello)},</p><p>${escapeHtml(t.intro)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.action)}</a><br>${escapeHtml(link)}</p>${secondHtml}<p>${escapeHtml(t.outro)}</p><p>openpug</p>`,
  };
}

/** The label of the reset link in the sign-up attempt mail. */
export const resetLinkLabel = (locale: Locale) =>
  locale === 'de' ? 'Passwort zurücksetzen' : 'Reset password';

/** The voice bot's private message with the link code. */
export function voiceCodeMessage(locale: Locale, code: string): string {
  return locale === 'de'
    ? `Dein openpug-Bestätigungscode lautet: ${code} (10 Minuten gültig)`
    : `Your openpug verification code is: ${code} (valid for 10 minutes)`;
}
