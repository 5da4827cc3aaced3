/**
 * @internal Parts of @kstreams/core that sibling packages (@kstreams/testing, the runtime) build
 * on. Not a public API: it may change in any release.
 */
export { TOPOLOGY_DEF } from './topology/internal.js'
export type { TopologyDef, NodeDef, SourceNodeDef, ProcessorNodeDef, SinkNodeDef, SubtopologyDef, GlobalStoreDef } from './topology/definitions.js'
export { StreamTask } from './runtime/stream-task.js'
export type { StreamTaskOptions, TaskState } from './runtime/stream-task.js'
export { GlobalStateUpdateTask } from './runtime/global-state-update-task.js'
export type { ConsumedRecord } from './runtime/consumed-record.js'
export type { RecordCollector, CollectedRecord } from './runtime/record-collector.js'
export { ProcessorContextImpl } from './runtime/processor-context-impl.js'
export { MeteredKeyValueStore } from './state/metered-key-value-store.js'
export { MeteredTimestampedKeyValueStore } from './state/metered-timestamped-key-value-store.js'
export { validateStoreName } from './state/store-name.js'
