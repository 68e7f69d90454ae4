import { LogoMark } from '../../ui/Logo';
import { SPLASH_CLASS } from './splashClass';

/** Shown while the first screen's chunk loads; index.html draws the same before the JavaScript. */
export function StartupSplash() {
  return (
    <div className={SPLASH_CLASS}>
      <LogoMark size={56} />
    </div>
  );
}
