/**
 * The landing page (/): a hero, then the public matches (filled by the matches feature). It is
 * part of the first paint, so it is plain React + CSS (no MUI); see app/FeatureProviders.tsx.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AfterFirstPaint } from '../../app/AfterFirstPaint';
import { lazyFeature } from '../../app/lazyFeature';
import { useSession } from '../../features/session/store';
import controls from '../../ui/controls.module.css';
import { HeroArt } from './HeroArt';
import styles from './LandingScreen.module.css';

// The match lists use MUI and the query cache: mounted (so loaded) once the hero has painted.
const PublicMatches = lazyFeature(() =>
  import('../../features/matches/MatchList').then((m) => m.PublicMatches),
);

function Hero() {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  return (
    <section className={styles.hero}>
      <div className={styles.copy}>
        <p className={styles.eyebrow}>{t('landing.eyebrow')}</p>
        <h1 className={styles.headline}>{t('landing.headline')}</h1>
        <p className={styles.tagline}>{t('landing.tagline')}</p>
        <div className={styles.actions}>
          {!loggedIn && (
            <Link to="/signup" className={`${controls.button} ${controls.primary} ${controls.large}`}>
              {t('landing.signupCta')}
            </Link>
          )}
          <Link
            to="/leaderboard"
            className={`${controls.button} ${loggedIn ? controls.primary : controls.outlined} ${controls.large}`}
          >
            {t('landing.leaderboardCta')}
          </Link>
          <Link to="/season1" className={`${controls.button} ${controls.outlined} ${controls.large}`}>
            {t('landing.seasonCta')}
          </Link>
        </div>
      </div>
      <div className={styles.art}>
        <HeroArt label={t('landing.illustration')} />
      </div>
    </section>
  );
}

export function LandingScreen() {
  const { t } = useTranslation();
  return (
    <div className={styles.page}>
      <Hero />
      <h2 className={styles.sectionTitle}>{t('screens.landing.title')}</h2>
      <AfterFirstPaint>
        <PublicMatches />
      </AfterFirstPaint>
    </div>
  );
}
