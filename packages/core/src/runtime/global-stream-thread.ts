/**
 * The global stream thread of one KafkaStreams instance: reads every partition of every global
 * topic into the global stores, through their global processors. It bootstraps to the end
 * offsets captured at start before any stream thread processes, then keeps the stores current.
 * It owns the global `.checkpoint` (the next offset to read per partition of the topics of
 * persistent stores; a store that is not persistent reads its topic from the beginning at every
 * start), written after the bootstrap, every commit interval when offsets moved, and on close.
 * A checkpoint it cannot trust (corrupted, beyond its topic's end after the topic was recreated,
 * below its log start) wipes the global state before the bootstrap, which then reads every topic
 * from its beginning. A position the topic loses while the thread reads (truncated, deleted)
 * fails the thread with TASK_CORRUPTED and wipes the global state at shutdown, as Kafka's
 * GlobalStreamThread does: the next start rebuilds it. @internal
 */
import { join } from 'node:path'
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import { resolveClientConfigs } from '../config/client-configs.js'
import type { Clock } from '../clock.js'
import type { Logger } from '../logger.js'
import type { StateStore } from '../state/state-store.js'
import { StreamsError } from '../errors.js'
import { GlobalStateUpdateTask } from './global-state-update-task.js'
import { OffsetCheckpoint, CheckpointCorruptedError } from './state/offset-checkpoint.js'
import type { StateDirectory } from './state/state-directory.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import { Lifecycle } from './lifecycle.js'
import { tpKey, type AdminPort, type FetchedBatch, type KafkaClientFactory, type TopicPartition } from './kafka/ports.js'
import type { PartitionReader } from './consumer/consumer-api.js'
import { AssignedPartitionReader } from './consumer/assigned-partition-reader.js'
import { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { DeserializationErrorHandler } from './deserialization-handler.js'

export type GlobalThreadState = 'CREATED' | 'RUNNING' | 'PENDING_SHUTDOWN' | 'DEAD'

const TRANSITIONS: Record<GlobalThreadState, readonly GlobalThreadState[]> = {
  CREATED: ['RUNNING', 'PENDING_SHUTDOWN'],
  RUNNING: ['PENDING_SHUTDOWN'],
  PENDING_SHUTDOWN: ['DEAD'],
  DEAD: []
}

export interface GlobalStreamThreadOptions {
  readonly topology: TopologyDef
  readonly config: ResolvedStreamsConfig
  readonly clock: Clock
  readonly logger: Logger
  readonly clients: KafkaClientFactory
  readonly stateDirectory: StateDirectory
  readonly restoreListener?: StateRestoreListener
  readonly deserializationErrorHandler?: DeserializationErrorHandler
  /** The thread died; the client goes to ERROR. */
  readonly onFailure: (error: StreamsError) => void
  /**
   * Which copy of the global stores this thread keeps: 1 (the default) for the instance's own,
   * in `global/`; n for the copy of the stream thread on worker thread n (`global-<n>/`, thread
   * `GlobalStreamThread-<n>`), since a worker's processors read its global stores synchronously.
   */
  readonly copy?: number
}

/** `GlobalStreamThread`, or `GlobalStreamThread-<n>` for the copy of worker thread n. */
export function globalThreadName(copy: number | undefined): string {
  return copy === undefined ? 'GlobalStreamThread' : `GlobalStreamThread-${copy}`
}

export class GlobalStreamThread {
  readonly #o: GlobalStreamThreadOptions
  readonly #lifecycle: Lifecycle<GlobalThreadState>
  readonly #reader: PartitionReader
  readonly #admin: AdminPort
  #task: GlobalStateUpdateTask | undefined
  #checkpoint: OffsetCheckpoint | undefined
  /** Next offset to read per global partition. */
  readonly #positions = new Map<string, TopicPartition & { offset: number }>()
  #checkpointed = new Map<string, number>()
  #loop: Promise<void> | undefined
  /** Topics whose global store is persistent: only their positions are checkpointed. */
  #persistentTopics: ReadonlySet<string> = new Set()
  /** The stores lost records they had or never saw: the global state is wiped at shutdown. */
  #wipeOnShutdown = false
  /** This thread's metrics (the global task's dropped records). */
  readonly metrics: StreamsMetricsRegistry

  constructor(options: GlobalStreamThreadOptions) {
    this.#o = options
    this.#lifecycle = new Lifecycle('global stream thread', 'CREATED', TRANSITIONS)
    const clientId = `${options.config.clientId ?? options.config.applicationId}-${globalThreadName(options.copy)}`
    this.metrics = new StreamsMetricsRegistry({
      clock: options.clock,
      threadId: clientId,
      recordingLevel: options.config.metricsRecordingLevel
    })
    this.#reader = AssignedPartitionReader.create(
      options.clients,
      `${clientId}-global-consumer`,
      options.config,
      options.logger,
      'globalConsumer'
    )
    this.#admin = options.clients.admin({
      clientId: `${clientId}-admin`,
      configs: resolveClientConfigs(options.config, options.config, options.clients.clientConfigs ?? {}).admin.adapterConfigs
    })
  }

  get #copy(): number {
    return this.#o.copy ?? 1
  }

  get state(): GlobalThreadState {
    return this.#lifecycle.state
  }

  /** The global stores (filled once started). */
  get stores(): ReadonlyMap<string, StateStore> {
    return this.#task?.stores ?? new Map()
  }

  /** Opens the stores and reads every global partition to its current end; then keeps reading. */
  async start(): Promise<void> {
    let dir = await this.#o.stateDirectory.ensureDir(this.#o.stateDirectory.globalDir(this.#copy))
    this.#checkpoint = new OffsetCheckpoint(join(dir, '.checkpoint'))
    const topics = this.#o.topology.globalStores.map(g => g.topic)
    const counts = await this.#admin.partitionCounts(topics)
    const missing = topics.filter(t => !counts.has(t))
    if (missing.length > 0) throw new StreamsError('UNKNOWN_TOPIC', `Global topic(s) ${missing.join(', ')} do not exist`)
    const partitions = topics.flatMap(topic => Array.from({ length: counts.get(topic)! }, (_, partition) => ({ topic, partition })))
    const [ends, begins] = await Promise.all([this.#admin.endOffsets(partitions), this.#admin.beginningOffsets(partitions)])
    let checkpointed = await this.#readCheckpoint(ends, begins)
    if (checkpointed === undefined) {
      // Before the stores open: they must not keep what the topics no longer have.
      await this.#o.stateDirectory.wipeGlobal(this.#copy)
      dir = await this.#o.stateDirectory.ensureDir(this.#o.stateDirectory.globalDir(this.#copy))
      checkpointed = new Map()
    }
    this.#task = new GlobalStateUpdateTask({
      topology: this.#o.topology,
      config: this.#o.config,
      clock: this.#o.clock,
      stateDir: dir,
      metrics: this.metrics,
      onDeserializationError: this.#o.deserializationErrorHandler,
      onDroppedRecord: (record, reason) => {
        this.#o.logger.warn(
          `Global stream thread dropped a record of ${record.topic}-${record.partition} at offset ${record.offset}: ${reason}`
        )
      }
    })
    await this.#task.initialize()
    const stores = this.#task.stores
    this.#persistentTopics = new Set(
      this.#o.topology.globalStores.filter(g => stores.get(g.storeName)?.persistent === true).map(g => g.topic)
    )
    for (const p of partitions) {
      const key = tpKey(p.topic, p.partition)
      // A store that is not persistent starts empty: it reads its topic from the beginning.
      const checkpoint = this.#persistentTopics.has(p.topic) ? checkpointed.get(key) : undefined
      this.#positions.set(key, { ...p, offset: checkpoint ?? begins.get(key) ?? 0 })
    }
    this.#reader.assign([...this.#positions.values()])
    await this.#bootstrap(ends)
    if (this.state !== 'CREATED') return
    this.#task.flush()
    await this.#writeCheckpoint()
    this.#lifecycle.transition('RUNNING')
    this.#loop = this.#run()
  }

  /**
   * The checkpointed positions, or undefined when the global state cannot be trusted: a
   * corrupted checkpoint, or a position beyond its topic's end (the topic was recreated: every
   * record of the new one would be skipped) or below its log start (records the stores never
   * saw were deleted).
   */
  async #readCheckpoint(ends: ReadonlyMap<string, number>, begins: ReadonlyMap<string, number>): Promise<Map<string, number> | undefined> {
    let offsets: Map<string, number>
    try {
      offsets = new Map([...(await this.#checkpoint!.read())].map(([k, v]) => [k, v.offset]))
    } catch (err) {
      if (!(err instanceof CheckpointCorruptedError)) throw err
      this.#o.logger.warn(`${err.message}; wiping the global stores and bootstrapping them from the beginning`)
      return undefined
    }
    for (const [key, offset] of offsets) {
      const end = ends.get(key)
      const begin = begins.get(key) ?? 0
      if (end !== undefined && offset > end) {
        this.#o.logger.warn(
          `The global checkpoint of ${key} (${offset}) is beyond the end of the topic (${end}): the topic was recreated or truncated; wiping the global stores and bootstrapping them from the beginning`
        )
        return undefined
      }
      if (offset < begin) {
        this.#o.logger.warn(
          `The global checkpoint of ${key} (${offset}) is below the topic's log start (${begin}): records the global stores never saw were deleted; wiping the global stores and bootstrapping them from the beginning`
        )
        return undefined
      }
    }
    return offsets
  }

  /** Reads until every partition reached the end offset captured at start. */
  async #bootstrap(ends: ReadonlyMap<string, number>): Promise<void> {
    const listener = this.#o.restoreListener
    const storeOf = (topic: string): string => this.#o.topology.globalStores.find(g => g.topic === topic)?.storeName ?? topic
    const restored = new Map<string, number>()
    for (const p of this.#positions.values())
      listener?.onRestoreStart?.(p, storeOf(p.topic), p.offset, ends.get(tpKey(p.topic, p.partition)) ?? 0)
    const behind = (): boolean => [...this.#positions].some(([key, p]) => p.offset < (ends.get(key) ?? 0))
    while (behind() && this.state === 'CREATED') {
      for (const batch of await this.#reader.poll(this.#o.config.pollMs)) {
        const n = this.#apply(batch)
        const key = tpKey(batch.topic, batch.partition)
        restored.set(key, (restored.get(key) ?? 0) + n)
        if (n > 0) listener?.onBatchRestored?.(batch, storeOf(batch.topic), batch.nextOffset - 1, n)
      }
    }
    for (const p of this.#positions.values()) listener?.onRestoreEnd?.(p, storeOf(p.topic), restored.get(tpKey(p.topic, p.partition)) ?? 0)
  }

  #apply(batch: FetchedBatch): number {
    const { topic, partition, records, nextOffset } = batch
    const position = this.#positions.get(tpKey(topic, partition))
    if (position === undefined) return 0
    const first = records[0]?.offset ?? nextOffset
    if (nextOffset < position.offset || (batch.logStartOffset > position.offset && first > position.offset)) {
      // The reader was reset: the topic was truncated below the position, or records not read yet were deleted.
      this.#wipeOnShutdown = true
      throw new StreamsError(
        'TASK_CORRUPTED',
        `Global topic partition ${tpKey(topic, partition)} no longer has the position ${position.offset} of the global stores (it now holds [${batch.logStartOffset}, ${batch.highWatermark})); the global state is wiped at shutdown: restart the application to rebuild it`
      )
    }
    let applied = 0
    for (const r of records) {
      if (r.offset < position.offset) continue
      this.#task!.update({ topic, partition, offset: r.offset, timestamp: r.timestamp, key: r.key, value: r.value, headers: r.headers })
      applied++
    }
    position.offset = Math.max(position.offset, nextOffset)
    return applied
  }

  async #run(): Promise<void> {
    let lastCommit = this.#o.clock.milliseconds()
    while (this.state === 'RUNNING') {
      try {
        for (const batch of await this.#reader.poll(this.#o.config.pollMs)) {
          if (this.state !== 'RUNNING') break
          this.#apply(batch)
        }
        if (this.#o.clock.milliseconds() - lastCommit >= this.#o.config.commitIntervalMs) {
          this.#task!.flush()
          await this.#maybeCheckpoint()
          lastCommit = this.#o.clock.milliseconds()
        }
      } catch (err) {
        const error =
          err instanceof StreamsError
            ? err
            : new StreamsError('PROCESSING', `Global stream thread failed: ${err instanceof Error ? err.message : String(err)}`, {
                cause: err
              })
        this.#o.logger.error(error.message)
        this.#o.onFailure(error)
        return
      }
    }
  }

  async #maybeCheckpoint(): Promise<void> {
    let moved = 0
    for (const [key, p] of this.#positions) moved += p.offset - (this.#checkpointed.get(key) ?? 0)
    if (moved > 10_000) await this.#writeCheckpoint()
  }

  /** Checkpoints the positions of persistent stores only (as Kafka's GlobalStateManagerImpl). */
  async #writeCheckpoint(): Promise<void> {
    await this.#checkpoint!.write([...this.#positions.values()].filter(p => this.#persistentTopics.has(p.topic)))
    this.#checkpointed = new Map([...this.#positions].map(([k, p]) => [k, p.offset]))
  }

  /** Stops reading (a bootstrap in progress too), checkpoints and closes the stores. Idempotent. */
  async shutdown(): Promise<void> {
    this.#shutdown ??= this.#doShutdown()
    await this.#shutdown
  }

  #shutdown: Promise<void> | undefined

  async #doShutdown(): Promise<void> {
    if (this.state === 'DEAD') return
    if (this.state !== 'PENDING_SHUTDOWN') this.#lifecycle.transition('PENDING_SHUTDOWN')
    await this.#loop
    let first: unknown
    try {
      if (this.#task !== undefined && this.#checkpoint !== undefined && !this.#wipeOnShutdown) {
        this.#task.flush()
        await this.#writeCheckpoint()
      }
    } catch (err) {
      first = err
    }
    try {
      this.#task?.close()
    } catch (err) {
      first ??= err
    }
    if (this.#wipeOnShutdown) {
      try {
        await this.#o.stateDirectory.wipeGlobal(this.#copy)
      } catch (err) {
        first ??= err
      }
    }
    for (const close of [() => this.#reader.close(), () => this.#admin.close()]) {
      try {
        await close()
      } catch (err) {
        first ??= err
      }
    }
    this.#lifecycle.transition('DEAD')
    if (first !== undefined) throw first
  }
}
