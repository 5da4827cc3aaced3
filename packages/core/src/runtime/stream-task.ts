/**
 * One active task: a partition group of one or more sub-topologies with its processor graph,
 * stores, input queues, stream time and punctuation queues. It processes one record at a time,
 * punctuates on stream time and wall-clock time, and flushes its stores on commit. The test
 * driver runs the whole topology as one task; the runtime runs one per sub-topology x partition.
 * @internal
 */
import type { Cancellable, Punctuator, TimestampExtractor } from '../processor/api.js'
import { PunctuationType } from '../processor/api.js'
import { Headers, Record } from '../record.js'
import type { ChangelogWriter, StateRestoreCallback, StateStore, StateStoreContext } from '../state/state-store.js'
import type { TaskId } from '../task-id.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { TopologyDef } from '../topology/definitions.js'
import type { Clock } from '../clock.js'
import { ProcessingError, StreamsError, TopologyError } from '../errors.js'
import { failOnInvalidTimestamp } from '../processor/timestamp-extractors.js'
import { ProcessorContextImpl, type ContextHost } from './processor-context-impl.js'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde } from '../config/app-configs.js'
import { buildProcessorGraph, sourceFor, type ProcessorGraph } from './processor-graph.js'
import type { ProcessorNode } from './processor-node.js'
import { wrap } from './processor-node.js'
import { PunctuationQueue } from './punctuation-queue.js'
import { PunctuationSchedule } from './punctuation-schedule.js'
import { PartitionGroup } from './partition-group.js'
import { RecordQueue, type DropReporter } from './record-queue.js'
import { configuredDeserializationHandler, type DeserializationErrorHandler } from './deserialization-handler.js'
import { errorHandlerContext, processingDecision, sendDeadLetterQueueRecords } from './exception-handlers.js'
import { bypassesProcessingHandler } from './handled-error.js'
import type { ProcessorRecordContext } from './record-context.js'
import type { ConsumedRecord } from './consumed-record.js'
import type { RecordCollector } from './record-collector.js'
import type { ThreadCache } from '../state/cache/thread-cache.js'
import type { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { Sensor } from '../metrics/sensor.js'
import { addTaskProcessMetrics } from './task-metrics.js'

export interface StreamTaskOptions {
  readonly id: TaskId
  readonly topology: TopologyDef
  /** The sub-topologies this task runs. */
  readonly subtopologies: readonly number[]
  readonly config: ResolvedStreamsConfig
  readonly clock: Clock
  readonly collector: RecordCollector
  readonly stateDir: string | undefined
  /** Global stores, readable by every processor. */
  readonly globalStores: ReadonlyMap<string, StateStore>
  readonly changelogWriter?: (storeName: string) => ChangelogWriter | undefined
  /** The thread's record cache, shared by its tasks; without one, cached stores write through. */
  readonly cache?: ThreadCache
  /** The thread's metrics registry; without one, stores report no metrics. */
  readonly metrics?: StreamsMetricsRegistry
  readonly onDroppedRecord?: DropReporter
  /** What a record that cannot be deserialized does (default: the config's deserializationExceptionHandler, unlogged). */
  readonly onDeserializationError?: DeserializationErrorHandler
  /** Told of every store the task registers (the runtime's state manager restores and checkpoints them). */
  readonly onStoreRegistered?: (store: StateStore, restore: StateRestoreCallback) => void
  /**
   * Open stores of a standby task recycled into this task, by name: used instead of new ones from
   * their builders and initialised again with this task's context (cache, changelog writer,
   * metrics, restore registration), keeping their data.
   */
  readonly recycledStores?: ReadonlyMap<string, StateStore>
}

export type TaskState = 'CREATED' | 'RUNNING' | 'CLOSED'

export class StreamTask implements ContextHost {
  readonly taskId: TaskId
  readonly config: ResolvedStreamsConfig
  readonly stateDir: string | undefined
  readonly context: ProcessorContextImpl
  readonly #options: StreamTaskOptions
  readonly #graph: ProcessorGraph
  /** The task's DEBUG-level process sensor, undefined below DEBUG. */
  readonly #processSensor: Sensor | undefined
  readonly #stores = new Map<string, StateStore>()
  readonly #restoreCallbacks = new Map<string, StateRestoreCallback>()
  readonly #partitions = new PartitionGroup()
  readonly #streamTimeQueue = new PunctuationQueue()
  readonly #wallClockQueue = new PunctuationQueue()
  /** The offset of the last record processed, per input topic and partition (no string key built per record). */
  readonly #consumedOffsets = new Map<string, Map<number, { topic: string; partition: number; offset: number }>>()
  #state: TaskState = 'CREATED'
  #commitNeeded = false
  /** KIP-825 processor metadata (e.g. a windowed aggregation's last emitted close time), committed with the offsets. */
  readonly #processorMetadata = new Map<string, number>()
  #commitRequested = false
  #droppedRecords = 0

  readonly #onDeserializationError: DeserializationErrorHandler

  constructor(options: StreamTaskOptions) {
    this.#options = options
    this.#onDeserializationError = options.onDeserializationError ?? configuredDeserializationHandler(options.config)
    this.taskId = options.id
    this.config = options.config
    this.stateDir = options.stateDir
    const names = new Set<string>()
    for (const sub of options.topology.subtopologies) {
      if (options.subtopologies.includes(sub.id)) for (const n of sub.nodes) names.add(n)
    }
    this.#graph = buildProcessorGraph(options.topology, names, options.collector, options.config.applicationId)
    this.context = new ProcessorContextImpl(this)
    this.#processSensor = addTaskProcessMetrics(options.metrics, options.id.toString(), this.#graph.nodes)
    options.metrics?.addMetric(
      `task-${options.id.toString()}`,
      {
        name: 'dropped-records-total',
        group: 'stream-task-metrics',
        description:
          'The total number of records dropped (deserialization errors skipped, invalid timestamps, late records of windowed operators)',
        tags: options.metrics.tags('task-id', options.id.toString())
      },
      () => this.#droppedRecords
    )
  }

  /** The records this task dropped so far (the `dropped-records-total` metric). */
  get droppedRecords(): number {
    return this.#droppedRecords
  }

  /** Counts a record a processor chose to drop (a late record of a windowed aggregation, a null key of a join). */
  recordDroppedRecord(): void {
    this.#droppedRecords++
  }

  readonly #onDropped: DropReporter = (record, reason) => {
    this.#droppedRecords++
    this.#options.onDroppedRecord?.(record, reason)
  }

  /**
   * A record its queue skipped (a deserialization error the handler let pass, an invalid
   * timestamp) is consumed all the same: the committed offset passes it, as Kafka commits the
   * consumer's position, so it is not read again after a restart and the lag can reach 0.
   */
  readonly #onSkipped: DropReporter = (record, reason) => {
    this.#onDropped(record, reason)
    this.#markConsumed(record)
  }

  #markConsumed(raw: ConsumedRecord): void {
    let byPartition = this.#consumedOffsets.get(raw.topic)
    if (byPartition === undefined) {
      byPartition = new Map()
      this.#consumedOffsets.set(raw.topic, byPartition)
    }
    const consumed = byPartition.get(raw.partition)
    if (consumed === undefined) byPartition.set(raw.partition, { topic: raw.topic, partition: raw.partition, offset: raw.offset })
    else consumed.offset = raw.offset
    this.#commitNeeded = true
  }

  get state(): TaskState {
    return this.#state
  }
  get commitNeeded(): boolean {
    return this.#commitNeeded
  }
  get commitRequested(): boolean {
    return this.#commitRequested
  }
  get stores(): ReadonlyMap<string, StateStore> {
    return this.#stores
  }
  get graph(): ProcessorGraph {
    return this.#graph
  }

  /**
   * Builds and opens the task's stores, or re-initialises the recycled ones. Returns a promise
   * only if a store opens asynchronously.
   */
  initializeStores(): void | Promise<void> {
    const pending: Array<Promise<void>> = []
    const storeContext = this.#storeContext()
    for (const name of this.#graph.storeNames) {
      const builder = this.#options.topology.storeBuilders.get(name)
      if (builder === undefined)
        throw new TopologyError('UNKNOWN_STORE', `Store ${name} is connected to a processor but was never added to the topology`)
      const store = this.#options.recycledStores?.get(name) ?? builder.build()
      this.#stores.set(name, store)
      const opened = store.init(storeContext, store)
      if (opened instanceof Promise) pending.push(opened)
    }
    if (pending.length > 0) return Promise.all(pending).then(() => undefined)
  }

  /** Initialises processors (parents first) and moves the task to RUNNING. */
  initializeTopology(): void {
    for (const node of this.#graph.nodes) {
      this.context.runAs(node, this.context.recordContext, () => node.init(this.context))
    }
    this.#state = 'RUNNING'
  }

  /** Buffers records of one input partition. */
  addRecords(topic: string, partition: number, records: Iterable<ConsumedRecord>): void {
    this.#queueFor(topic, partition).add(records)
  }

  /** Declares an input partition of the task before any record of it arrives. */
  addPartition(topic: string, partition: number): void {
    this.#queueFor(topic, partition)
  }

  #queueFor(topic: string, partition: number): RecordQueue {
    let queue = this.#partitions.queue(topic, partition)
    if (queue === undefined) {
      const source = sourceFor(this.#graph, topic)
      if (source === undefined)
        throw new StreamsError('UNKNOWN_TOPIC', `Task ${this.taskId.toString()} has no source for topic ${topic}`, {
          taskId: this.taskId.toString()
        })
      const extractor: TimestampExtractor = source.timestampExtractor ?? this.config.defaultTimestampExtractor ?? failOnInvalidTimestamp
      queue = new RecordQueue(topic, partition, source, extractor, this.#onSkipped, (record, error) => {
        const site = { taskId: this.taskId.toString(), sourceNodeId: source.name, deadLetters: true }
        const decision = this.#onDeserializationError(record, error, site)
        if (decision.deadLetterQueueRecords.length > 0) {
          const failed: ProcessorRecordContext = {
            topic: record.topic,
            partition: record.partition,
            offset: record.offset,
            timestamp: record.timestamp,
            headers: record.headers,
            sourceRawKey: record.key,
            sourceRawValue: record.value
          }
          sendDeadLetterQueueRecords(this.#options.collector, decision.deadLetterQueueRecords, failed, source.name, this.context)
        }
        return decision.result
      })
      this.#partitions.addQueue(queue)
    }
    return queue
  }

  /** Records buffered for one input partition. */
  bufferedFor(topic: string, partition: number): number {
    return this.#partitions.queue(topic, partition)?.size ?? 0
  }

  /** Input partitions with nothing buffered. */
  emptyPartitions(): Array<{ topic: string; partition: number }> {
    return this.#partitions
      .queues()
      .filter(q => q.isEmpty())
      .map(q => ({ topic: q.topic, partition: q.partition }))
  }

  /** Drops buffered input (the partitions are re-fetched from the committed offsets). */
  clearBuffers(): void {
    this.#partitions.clear()
  }

  /** Partition times by input partition (committed with the offsets, restored on task start). */
  partitionTimes(): Map<string, number> {
    return new Map(this.#partitions.queues().map(q => [PartitionGroup.key(q.topic, q.partition), q.partitionTime]))
  }

  /** Seeds a partition's time (from committed offset metadata) so stream time survives restarts. */
  initializePartitionTime(topic: string, partition: number, time: number): void {
    this.#partitions.initializePartitionTime(this.#queueFor(topic, partition), time)
  }

  /** The processor metadata to commit with the offsets. */
  processorMetadata(): ReadonlyMap<string, number> {
    return this.#processorMetadata
  }

  processorMetadataForKey(key: string): number | undefined {
    return this.#processorMetadata.get(key)
  }

  /** Sets a processor metadata value; the task then needs a commit. */
  addProcessorMetadataKeyValue(key: string, value: number): void {
    this.#processorMetadata.set(key, value)
    this.#commitNeeded = true
  }

  /** Seeds processor metadata from committed offsets (the greatest value per key wins). */
  initializeProcessorMetadata(entries: ReadonlyMap<string, number>): void {
    for (const [key, value] of entries) this.#processorMetadata.set(key, Math.max(value, this.#processorMetadata.get(key) ?? value))
  }

  /** Whether the task reads `topic` (by name or pattern). */
  readsTopic(topic: string): boolean {
    return sourceFor(this.#graph, topic) !== undefined
  }

  hasRecordsQueued(): boolean {
    return this.#partitions.hasRecords()
  }

  get numBuffered(): number {
    return this.#partitions.numBuffered
  }

  /** Processes the next record in timestamp order; returns false when nothing is buffered. */
  process(): boolean {
    const next = this.#partitions.nextRecord()
    if (next === undefined) return false
    const { record, queue } = next
    const raw = record.raw
    const recordContext: ProcessorRecordContext = {
      topic: raw.topic,
      partition: raw.partition,
      offset: raw.offset,
      timestamp: record.timestamp,
      headers: raw.headers,
      sourceRawKey: raw.key,
      sourceRawValue: raw.value
    }
    const source = queue.source
    const sensor = this.#processSensor
    const start = sensor?.start() ?? 0
    source.processSensor?.record(1)
    this.context.processAs(source, recordContext, new Record(record.key, record.value, record.timestamp, raw.headers))
    sensor?.end(start)
    this.#markConsumed(raw)
    return true
  }

  maybePunctuateStreamTime(): boolean {
    const streamTime = this.#partitions.streamTime
    if (streamTime < 0) return false
    return this.#streamTimeQueue.mayPunctuate(streamTime, (s, now) => this.#punctuate(s, now, PunctuationType.STREAM_TIME))
  }

  maybePunctuateSystemTime(): boolean {
    return this.#wallClockQueue.mayPunctuate(this.#options.clock.milliseconds(), (s, now) =>
      this.#punctuate(s, now, PunctuationType.WALL_CLOCK_TIME)
    )
  }

  #punctuate(schedule: PunctuationSchedule, now: number, type: PunctuationType): void {
    const node = schedule.node
    // No source record: a punctuation's handler context has no topic and no raw bytes (Kafka's null).
    const rc: ProcessorRecordContext = { topic: undefined, partition: -1, offset: -1, timestamp: now, headers: new Headers() }
    try {
      this.context.runAs(node, rc, () => schedule.punctuator(now))
    } catch (err) {
      const failure = (): StreamsError =>
        wrap(err, `Exception caught while punctuating processor ${node.name} (${type} at ${now})`, this.context)
      // As Kafka's StreamTask.punctuate (KIP-1033): what a punctuator threw goes to the processing
      // exception handler, unless a node below already decided on it or the task migrated.
      if (bypassesProcessingHandler(err)) throw failure()
      let response: 'CONTINUE' | 'FAIL'
      try {
        response = this.context.runAs(node, rc, () =>
          this.onProcessingError(err instanceof Error ? err : new Error(String(err)), node.name, undefined)
        )
      } catch (handlerError) {
        throw new ProcessingError(
          `The processing exception handler failed on an error of the punctuator of processor ${node.name}: ${handlerError instanceof Error ? handlerError.message : String(handlerError)}`,
          { cause: handlerError, taskId: this.taskId.toString() }
        )
      }
      if (response === 'FAIL') throw failure()
    }
    this.#commitNeeded = true
  }

  /** Flushes stores and returns the offsets to commit (next offset to read per partition). */
  prepareCommit(): Array<{ topic: string; partition: number; offset: number }> {
    for (const store of this.#stores.values()) store.flush()
    return [...this.#consumedOffsets.values()].flatMap(byPartition => [...byPartition.values()].map(o => ({ ...o, offset: o.offset + 1 })))
  }

  postCommit(): void {
    this.#commitNeeded = false
    this.#commitRequested = false
  }

  /** Closes processors, then stores; reports the first failure after closing everything. */
  /** Resolves once every store of the closed task has let go of its files (see StateStore.whenClosed). */
  async whenStoresClosed(): Promise<void> {
    await Promise.all(
      [...this.#stores.values()].map(async s => {
        await s.whenClosed?.()
      })
    )
  }

  close(): void {
    if (this.#state === 'CLOSED') return
    let first: unknown
    if (this.#state === 'RUNNING') {
      for (const node of this.#graph.nodes) {
        try {
          this.context.runAs(node, this.context.recordContext, () => node.close())
        } catch (err) {
          first ??= err
        }
      }
    }
    for (const store of this.#stores.values()) {
      try {
        if (store.isOpen()) store.close()
      } catch (err) {
        first ??= err
      }
    }
    this.#streamTimeQueue.clear()
    this.#wallClockQueue.clear()
    this.#partitions.clear()
    this.#options.metrics?.removeScope(`task-${this.taskId.toString()}`)
    this.#state = 'CLOSED'
    if (first !== undefined) throw first
  }

  // ContextHost

  get metrics(): StreamsMetricsRegistry | undefined {
    return this.#options.metrics
  }

  streamTimeMs(): number {
    return this.#partitions.streamTime
  }

  wallClockMs(): number {
    return this.#options.clock.milliseconds()
  }

  schedule(node: ProcessorNode, intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    if (type === PunctuationType.STREAM_TIME) {
      // Aligned to 0: fires as soon as the stream time is known.
      const schedule = new PunctuationSchedule(node, 0, intervalMs, punctuator)
      this.#streamTimeQueue.add(schedule)
      return schedule
    }
    const schedule = new PunctuationSchedule(node, this.#options.clock.milliseconds() + intervalMs, intervalMs, punctuator)
    this.#wallClockQueue.add(schedule)
    return schedule
  }

  requestCommit(): void {
    this.#commitRequested = true
  }

  store(name: string): StateStore | undefined {
    return this.#stores.get(name) ?? this.#options.globalStores.get(name)
  }

  onProcessingError(error: Error, nodeName: string, record: Record<unknown, unknown> | undefined): 'CONTINUE' | 'FAIL' {
    const rc = this.context.recordContext
    const decision = processingDecision(this.config, errorHandlerContext(rc, this.taskId.toString(), nodeName), error, record)
    sendDeadLetterQueueRecords(this.#options.collector, decision.deadLetterQueueRecords, rc, nodeName, this.context)
    if (decision.result === 'FAIL') return 'FAIL'
    this.#onDropped(
      {
        topic: rc.topic ?? '',
        partition: rc.partition,
        offset: rc.offset,
        timestamp: rc.timestamp,
        key: null,
        value: null,
        headers: rc.headers
      },
      `processor ${nodeName} threw: ${error.message}`
    )
    return 'CONTINUE'
  }

  isGlobalStore(name: string): boolean {
    return !this.#stores.has(name) && this.#options.globalStores.has(name)
  }

  restoreCallback(storeName: string): StateRestoreCallback | undefined {
    return this.#restoreCallbacks.get(storeName)
  }

  #storeContext(): StateStoreContext {
    return {
      applicationId: this.config.applicationId,
      taskId: this.taskId,
      appConfigs: this.config,
      stateDir: this.stateDir,
      appConfigsWithPrefix: prefix => configsWithPrefix(this.config, prefix),
      keySerde: () => defaultKeySerde(this.config),
      valueSerde: () => defaultValueSerde(this.config),
      metrics: () => this.context.metrics(),
      recordMetadata: () => this.context.recordMetadata(),
      register: (store, restore) => {
        if (this.#restoreCallbacks.has(store.name)) {
          throw new StreamsError('DUPLICATE_STORE', `Store ${store.name} has already been registered in task ${this.taskId.toString()}`)
        }
        this.#restoreCallbacks.set(store.name, restore)
        this.#options.onStoreRegistered?.(store, restore)
      },
      changelogWriter: storeName => this.#options.changelogWriter?.(storeName),
      recordContext: () => this.context.recordContext,
      cache: this.#options.cache,
      metricsRegistry: this.#options.metrics
    }
  }
}
