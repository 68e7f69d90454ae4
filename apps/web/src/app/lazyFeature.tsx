import { type ComponentType, lazy } from 'react';
import { loadChunk } from './chunkRecovery';

/**
 * A lazily loaded component that renders inside FeatureProviders (MUI theme, query cache). The
 * component module and the providers load in parallel on first render.
 */
export function lazyFeature<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazy(async () => {
    const [{ FeatureProviders }, Component] = await loadChunk(() =>
      Promise.all([import('./FeatureProviders'), load()]),
    );
    // Created once per lazyFeature() call, when its module resolves; React.lazy caches it.
    // biome-ignore lint/correctness/noComponentHookFactories: a one-time wrapper, not per render
    function WithFeatureProviders(props: P) {
      return (
        <FeatureProviders>
          <Component {...props} />
        </FeatureProviders>
      );
    }
    return { default: WithFeatureProviders };
  });
}
