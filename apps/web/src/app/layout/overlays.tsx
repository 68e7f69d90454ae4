/**
 * Everything that floats over the page (dialogs, snackbar, drawers) is loaded on first use, not
 * with the first page: it needs MUI's modal machinery. Once the app is idle these chunks are
 * fetched in the background, so opening one is instant.
 */
import { Suspense } from 'react';
import { useAppState } from '../../features/app-state/store';
import { lazyFeature } from '../lazyFeature';
import { useLayoutState } from './layoutState';
import { useOnceTrue } from './useOnceTrue';

const load = {
  loading: () => import('../../ui/LoadingDialog'),
  errors: () => import('../../ui/ErrorListDialog'),
  success: () => import('../../ui/SuccessSnackbar'),
  phoneNavigation: () => import('./PhoneNavigationDrawer'),
  friendsDrawer: () => import('./FriendsDrawer'),
  providers: () => import('../FeatureProviders'),
};

const LoadingDialog = lazyFeature(() => load.loading().then((m) => m.LoadingDialog));
const ErrorListDialog = lazyFeature(() => load.errors().then((m) => m.ErrorListDialog));
const SuccessSnackbar = lazyFeature(() => load.success().then((m) => m.SuccessSnackbar));
const PhoneNavigationDrawer = lazyFeature(() => load.phoneNavigation().then((m) => m.PhoneNavigationDrawer));
const FriendsDrawer = lazyFeature(() => load.friendsDrawer().then((m) => m.FriendsDrawer));

export function preloadOverlays(): void {
  for (const importer of Object.values(load)) void importer().catch(() => undefined);
}

/** The app-wide dialogs bound to the app-state store; each mounts the first time it is needed. */
export function AppDialogs() {
  const loading = useOnceTrue(useAppState((s) => s.showLoading));
  const errors = useOnceTrue(useAppState((s) => s.showErrorMessage));
  const success = useOnceTrue(useAppState((s) => s.successMessage !== null));
  return (
    <Suspense fallback={null}>
      {loading && <LoadingDialog />}
      {errors && <ErrorListDialog />}
      {success && <SuccessSnackbar />}
    </Suspense>
  );
}

export function LazyPhoneNavigationDrawer() {
  const used = useOnceTrue(useLayoutState((s) => s.navigationOpen));
  return <Suspense fallback={null}>{used && <PhoneNavigationDrawer />}</Suspense>;
}

export function LazyFriendsDrawer() {
  const used = useOnceTrue(useLayoutState((s) => s.friendsOpen));
  return <Suspense fallback={null}>{used && <FriendsDrawer />}</Suspense>;
}
