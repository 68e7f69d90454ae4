// The insights module's entry for other modules: what the queue's transactions record, and the
// module's state type. The plugin (`insightsModule`) is in routes.ts, which app.ts imports.
export { recordQueueCount } from './history';

/** The insights module's per-app state (`ctx.state.insights`). */
export interface InsightsModuleState {
  /** When this app last pruned `queue_minutes` (history.ts). */
  lastPruneAt: number;
}
