/**
 * The one ProcessorContext of a task, shared by its processors. It is the source of truth for
 * the current node and the current record context; forwarding is synchronous and depth-first,
 * and restores both after each child returns. @internal
 */
import type { Cancellable, ProcessorContext, Punctuator, RecordMetadata } from '../processor/api.js'
import { PunctuationType } from '../processor/api.js'
import type { Record } from '../record.js'
import { Headers } from '../record.js'
import type { StateStore } from '../state/state-store.js'
import type { TaskId } from '../task-id.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import { IllegalStateError, InvalidStateStoreError, StreamsError } from '../errors.js'
import type { ProcessorNode } from './processor-node.js'
import type { ProcessorRecordContext } from './record-context.js'
import type { Serde } from '../serialization/serde.js'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde } from '../config/app-configs.js'
import { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { StreamsMetrics } from '../metrics/streams-metrics.js'

/** What the context needs from its task. */
export interface ContextHost {
  readonly taskId: TaskId
  readonly config: ResolvedStreamsConfig
  readonly stateDir: string | undefined
  /** -1 while no record has been processed. */
  streamTimeMs(): number
  wallClockMs(): number
  schedule(node: ProcessorNode, intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable
  requestCommit(): void
  /** A store of this task or a global store. */
  store(name: string): StateStore | undefined
  isGlobalStore(name: string): boolean
  /** The thread's metrics; without them, metrics() gives a registry of the context's own. */
  readonly metrics?: StreamsMetricsRegistry | undefined
  /** Counts a record a processor dropped (the task's dropped-records metric). */
  recordDroppedRecord?(): void
  /** KIP-825 processor metadata, committed with the task's offsets. */
  processorMetadataForKey?(key: string): number | undefined
  addProcessorMetadataKeyValue?(key: string, value: number): void
  /**
   * What an error thrown by a processor (or a punctuator: `record` undefined) does: drop the
   * record (CONTINUE) or fail (FAIL); the handler's dead-letter records are sent first.
   */
  onProcessingError?(error: Error, nodeName: string, record: Record<unknown, unknown> | undefined): 'CONTINUE' | 'FAIL'
}

const NO_RECORD: ProcessorRecordContext = { topic: undefined, partition: -1, offset: -1, timestamp: 0, headers: new Headers() }

export class ProcessorContextImpl implements ProcessorContext<unknown, unknown> {
  readonly #host: ContextHost
  #currentNode: ProcessorNode | undefined
  #recordContext: ProcessorRecordContext = NO_RECORD
  #ownMetrics: StreamsMetricsRegistry | undefined

  constructor(host: ContextHost) {
    this.#host = host
  }

  get applicationId(): string {
    return this.#host.config.applicationId
  }
  get taskId(): TaskId {
    return this.#host.taskId
  }
  get appConfigs(): ResolvedStreamsConfig {
    return this.#host.config
  }
  get stateDir(): string | undefined {
    return this.#host.stateDir
  }

  appConfigsWithPrefix(prefix: string): { readonly [key: string]: unknown } {
    return configsWithPrefix(this.#host.config, prefix)
  }

  keySerde(): Serde<unknown> {
    return defaultKeySerde(this.#host.config)
  }

  valueSerde(): Serde<unknown> {
    return defaultValueSerde(this.#host.config)
  }

  metrics(): StreamsMetrics {
    const registry = this.#host.metrics
    if (registry !== undefined) return registry
    this.#ownMetrics ??= new StreamsMetricsRegistry({ recordingLevel: this.#host.config.metricsRecordingLevel })
    return this.#ownMetrics
  }

  get currentNode(): ProcessorNode | undefined {
    return this.#currentNode
  }

  /** @internal */
  processingErrorResponse(error: Error, nodeName: string, record: Record<unknown, unknown> | undefined): 'CONTINUE' | 'FAIL' {
    return this.#host.onProcessingError?.(error, nodeName, record) ?? 'FAIL'
  }
  get recordContext(): ProcessorRecordContext {
    return this.#recordContext
  }

  /** @internal Counts a record the current processor dropped (see droppedRecordsSensor). */
  recordDroppedRecord(): void {
    this.#host.recordDroppedRecord?.()
  }

  /** @internal A processor metadata value committed with the task's offsets (see processorMetadata()). */
  processorMetadataForKey(key: string): number | undefined {
    return this.#host.processorMetadataForKey?.(key)
  }

  /** @internal */
  addProcessorMetadataKeyValue(key: string, value: number): void {
    this.#host.addProcessorMetadataKeyValue?.(key, value)
  }

  /** Runs `fn` as `node` with the given record context, restoring both afterwards. */
  runAs<T>(node: ProcessorNode | undefined, recordContext: ProcessorRecordContext, fn: () => T): T {
    const previousNode = this.#currentNode
    const previousContext = this.#recordContext
    this.#currentNode = node
    this.#recordContext = recordContext
    try {
      return fn()
    } finally {
      this.#currentNode = previousNode
      this.#recordContext = previousContext
    }
  }

  /** `node.process(record)` as runAs would run it, without a closure per record (the per-record path). */
  processAs<K, V>(node: ProcessorNode, recordContext: ProcessorRecordContext, record: Record<K, V>): void {
    const previousNode = this.#currentNode
    const previousContext = this.#recordContext
    this.#currentNode = node
    this.#recordContext = recordContext
    try {
      node.process(record as Record<unknown, unknown>)
    } finally {
      this.#currentNode = previousNode
      this.#recordContext = previousContext
    }
  }

  recordMetadata(): RecordMetadata | undefined {
    const rc = this.#recordContext
    if (rc.topic === undefined) return undefined
    return { topic: rc.topic, partition: rc.partition, offset: rc.offset }
  }

  forward<K, V>(record: Record<K, V>, childName?: string): void {
    const node = this.#currentNode
    if (node === undefined)
      throw new IllegalStateError('forward() may only be called from within a processor (process, init or a punctuator)')
    const rc = this.#recordContext
    const childContext: ProcessorRecordContext =
      rc.timestamp === record.timestamp && rc.headers === record.headers
        ? rc
        : {
            topic: rc.topic,
            partition: rc.partition,
            offset: rc.offset,
            timestamp: record.timestamp,
            headers: record.headers,
            sourceRawKey: rc.sourceRawKey,
            sourceRawValue: rc.sourceRawValue
          }
    if (childName === undefined) {
      for (const child of node.children) {
        child.processSensor?.record(1)
        this.processAs(child, childContext, record)
      }
      return
    }
    const child = node.child(childName)
    if (child === undefined) {
      throw new StreamsError(
        'UNKNOWN_CHILD',
        `Unknown downstream node: ${childName} either does not exist or is not connected to this processor (${node.name}).`,
        { taskId: this.taskId.toString() }
      )
    }
    child.processSensor?.record(1)
    this.processAs(child, childContext, record)
  }

  getStateStore<S extends StateStore = StateStore>(name: string): S {
    const node = this.#currentNode
    if (node === undefined) throw new IllegalStateError(`Accessing state store ${name} is only allowed from within a processor`)
    const store = this.#host.store(name)
    if (this.#host.isGlobalStore(name) && store !== undefined) return store as S
    if (!node.stores.has(name)) {
      const code = store === undefined ? 'UNKNOWN_STORE' : 'STORE_NOT_CONNECTED'
      throw new InvalidStateStoreError(
        code,
        `Processor ${node.name} has no access to StateStore ${name} as the store is not connected to the processor. ` +
          'Connect it with Topology.addStateStore(builder, processorName) or Topology.connectProcessorAndStateStores(processorName, storeName).',
        { taskId: this.taskId.toString() }
      )
    }
    if (store === undefined)
      throw new InvalidStateStoreError('UNKNOWN_STORE', `State store ${name} is not registered in task ${this.taskId.toString()}`)
    return store as S
  }

  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    const node = this.#currentNode
    if (node === undefined)
      throw new IllegalStateError('schedule() may only be called from within a processor (init, process or a punctuator)')
    if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `The minimum supported scheduling interval is 1 millisecond, got ${intervalMs} (processor ${node.name})`
      )
    }
    if (type !== PunctuationType.STREAM_TIME && type !== PunctuationType.WALL_CLOCK_TIME) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Unknown punctuation type ${String(type)} (processor ${node.name})`)
    }
    return this.#host.schedule(node, intervalMs, type, punctuator)
  }

  commit(): void {
    this.#host.requestCommit()
  }

  currentStreamTimeMs(): number {
    return this.#host.streamTimeMs()
  }

  currentSystemTimeMs(): number {
    return this.#host.wallClockMs()
  }
}
