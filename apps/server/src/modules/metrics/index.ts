// The metrics module's entry for other modules: the counters they bump and the module's state type.
// The plugin (`installMetrics`, `GET /metrics`) is in routes.ts, which app.ts imports.
export {
  type AppMetrics,
  countNotifyFailure,
  failureReason,
  type MetricsModuleState,
  metricsOf,
} from './registry';
