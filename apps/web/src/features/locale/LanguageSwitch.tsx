import { LOCALES } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import styles from './LanguageSwitch.module.css';
import { setLocale } from './locale';

/** en/de switch; the choice is stored under `locale` and survives reloads. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a button group, not a form fieldset
    <div role="group" aria-label={t('language.label')} className={styles.switch}>
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="button"
          lang={locale}
          className={styles.option}
          aria-pressed={i18n.language === locale}
          // The visible code first, so the accessible name contains what is shown (WCAG 2.5.3).
          aria-label={`${locale.toUpperCase()} – ${t(`language.${locale}`)}`}
          onClick={() => void setLocale(locale)}
        >
          {locale.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
