/**
 * @kstreams/dashboard: a live page of a running kstreams application, served by the application
 * itself (the topology drawn, every instance with its threads and tasks, lags, restores and
 * standbys, rates, a store browser over the interactive-query server).
 * @packageDocumentation
 */
export { Dashboard } from './dashboard.js'
export type { DashboardOptions, DashboardState, DashboardAuthorization, DashboardHandler } from './dashboard.js'
export type {
  DashboardStreams,
  InstanceView,
  ThreadView,
  TaskView,
  ThreadMetricsView,
  ProgressView,
  AssignedTasks,
  HistoryPoint,
  ThreadRates
} from './instance-view.js'
export type { TopologyView, SubtopologyView, NodeView, StoreView, TopicView, StoreKind } from './topology-view.js'
