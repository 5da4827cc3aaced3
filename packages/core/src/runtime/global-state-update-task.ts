/**
 * Keeps the global stores current: each record of a global topic goes through its global
 * source and processor, which alone may write the store. No punctuation, no stream time
 * alignment with stream tasks, and the record's own timestamp (no timestamp extractor), as in
 * Kafka Streams. A record that cannot be deserialized goes to the deserialization exception
 * handler; one it skips is dropped and counted in `dropped-records-total` of task -1_-1. @internal
 */
import type { Cancellable } from '../processor/api.js'
import { Record } from '../record.js'
import type { StateStore, StateRestoreCallback } from '../state/state-store.js'
import { TaskId } from '../task-id.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { TopologyDef } from '../topology/definitions.js'
import type { Clock } from '../clock.js'
import { StreamsError, TopologyError } from '../errors.js'
import { ProcessorContextImpl, type ContextHost } from './processor-context-impl.js'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde } from '../config/app-configs.js'
import { buildProcessorGraph, type ProcessorGraph } from './processor-graph.js'
import type { ConsumedRecord } from './consumed-record.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import { configuredDeserializationHandler, deserializationFailure, type DeserializationErrorHandler } from './deserialization-handler.js'

export interface GlobalStateUpdateTaskOptions {
  readonly topology: TopologyDef
  readonly config: ResolvedStreamsConfig
  readonly clock: Clock
  readonly stateDir: string | undefined
  /** What a record that cannot be deserialized does (default: the config's deserializationExceptionHandler, unlogged). */
  readonly onDeserializationError?: DeserializationErrorHandler
  /** Where `dropped-records-total` is reported. */
  readonly metrics?: StreamsMetricsRegistry
  /** Told of each dropped record (for a log line). */
  readonly onDroppedRecord?: (record: ConsumedRecord, reason: string) => void
}

const noCollector = {
  send() {
    throw new StreamsError('ILLEGAL_STATE', 'A global processor cannot send records to a sink')
  },
  partitionsFor() {
    return 1
  }
}

export class GlobalStateUpdateTask implements ContextHost {
  readonly taskId = new TaskId(-1, -1)
  readonly config: ResolvedStreamsConfig
  readonly stateDir: string | undefined
  readonly context: ProcessorContextImpl
  readonly #options: GlobalStateUpdateTaskOptions
  readonly #graph: ProcessorGraph
  readonly #stores = new Map<string, StateStore>()
  readonly #restoreCallbacks = new Map<string, StateRestoreCallback>()
  readonly #onDeserializationError: DeserializationErrorHandler
  #droppedRecords = 0

  constructor(options: GlobalStateUpdateTaskOptions) {
    this.#options = options
    this.config = options.config
    this.stateDir = options.stateDir
    this.#onDeserializationError = options.onDeserializationError ?? configuredDeserializationHandler(options.config)
    options.metrics?.addMetric(
      `task-${this.taskId.toString()}`,
      {
        name: 'dropped-records-total',
        group: 'stream-task-metrics',
        description: 'The total number of records dropped (deserialization errors skipped, invalid timestamps)',
        tags: options.metrics.tags('task-id', this.taskId.toString())
      },
      () => this.#droppedRecords
    )
    const names = new Set<string>()
    for (const g of options.topology.globalStores) {
      names.add(g.sourceName)
      names.add(g.processorName)
    }
    this.#graph = buildProcessorGraph(options.topology, names, noCollector, options.config.applicationId)
    this.context = new ProcessorContextImpl(this)
  }

  get stores(): ReadonlyMap<string, StateStore> {
    return this.#stores
  }

  /** The records this task dropped so far (the `dropped-records-total` metric). */
  get droppedRecords(): number {
    return this.#droppedRecords
  }

  /** The global topics. */
  get topics(): string[] {
    return this.#options.topology.globalStores.map(g => g.topic)
  }

  initialize(): void | Promise<void> {
    const pending: Array<Promise<void>> = []
    for (const g of this.#options.topology.globalStores) {
      const builder = this.#options.topology.storeBuilders.get(g.storeName)
      if (builder === undefined) throw new TopologyError('UNKNOWN_STORE', `Global store ${g.storeName} was never added to the topology`)
      const store = builder.build()
      this.#stores.set(g.storeName, store)
      const opened = store.init(
        {
          applicationId: this.config.applicationId,
          taskId: this.taskId,
          appConfigs: this.config,
          stateDir: this.stateDir,
          appConfigsWithPrefix: prefix => configsWithPrefix(this.config, prefix),
          keySerde: () => defaultKeySerde(this.config),
          valueSerde: () => defaultValueSerde(this.config),
          metrics: () => this.context.metrics(),
          recordMetadata: () => this.context.recordMetadata(),
          register: (s, restore) => {
            this.#restoreCallbacks.set(s.name, restore)
          },
          changelogWriter: () => undefined
        },
        store
      )
      if (opened instanceof Promise) pending.push(opened)
    }
    const initNodes = (): void => {
      for (const node of this.#graph.nodes) this.context.runAs(node, this.context.recordContext, () => node.init(this.context))
    }
    if (pending.length > 0) return Promise.all(pending).then(initNodes)
    initNodes()
  }

  /** Applies one record of a global topic through its global processor. */
  update(raw: ConsumedRecord): void {
    const source = this.#graph.sourcesByTopic.get(raw.topic)
    if (source === undefined) throw new StreamsError('UNKNOWN_TOPIC', `No global store reads topic ${raw.topic}`)
    let key: unknown
    let value: unknown
    try {
      key = source.deserializeKey(raw.topic, raw.key, raw.headers)
      value = source.deserializeValue(raw.topic, raw.value, raw.headers)
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err))
      const site = { taskId: this.taskId.toString(), sourceNodeId: source.name, deadLetters: false }
      if (this.#onDeserializationError(raw, error, site).result === 'FAIL') throw deserializationFailure(raw, error)
      this.#drop(raw, `deserialization error: ${error.message}`)
      return
    }
    // As Kafka's GlobalStateUpdateTask: the record's own timestamp, no extractor.
    const timestamp = raw.timestamp
    const rc = { topic: raw.topic, partition: raw.partition, offset: raw.offset, timestamp, headers: raw.headers }
    this.context.runAs(source, rc, () => source.process(new Record(key, value, timestamp, raw.headers)))
  }

  #drop(record: ConsumedRecord, reason: string): void {
    this.#droppedRecords++
    this.#options.onDroppedRecord?.(record, reason)
  }

  flush(): void {
    for (const store of this.#stores.values()) store.flush()
  }

  close(): void {
    let first: unknown
    for (const node of this.#graph.nodes) {
      try {
        this.context.runAs(node, this.context.recordContext, () => node.close())
      } catch (err) {
        first ??= err
      }
    }
    for (const store of this.#stores.values()) {
      try {
        if (store.isOpen()) store.close()
      } catch (err) {
        first ??= err
      }
    }
    if (first !== undefined) throw first
  }

  // ContextHost

  get metrics(): StreamsMetricsRegistry | undefined {
    return this.#options.metrics
  }

  streamTimeMs(): number {
    return -1
  }

  wallClockMs(): number {
    return this.#options.clock.milliseconds()
  }

  schedule(): Cancellable {
    throw new StreamsError('ILLEGAL_STATE', 'schedule() is not supported in a global processor context')
  }

  requestCommit(): void {}

  store(name: string): StateStore | undefined {
    return this.#stores.get(name)
  }

  isGlobalStore(name: string): boolean {
    return this.#stores.has(name)
  }
}
