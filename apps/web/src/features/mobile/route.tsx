/** Lazy route module for /m: the mobile app inside the lazily loaded MUI/Query providers. */
import { FeatureProviders } from '../../app/FeatureProviders';
import { MobileApp } from './MobileApp';

export function Component() {
  return (
    <FeatureProviders>
      <MobileApp />
    </FeatureProviders>
  );
}
