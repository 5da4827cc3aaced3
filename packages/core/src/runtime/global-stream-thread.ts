/**
 * The global stream thread of one KafkaStreams instance: reads every partition of every global
 * topic into the global stores, through their global processors. It bootstraps to the end
 * offsets captured at start before any stream thread processes, then keeps the stores current.
 * It owns the global `.checkpoint` (the next offset to read per partition), written after the
 * bootstrap, every commit interval when offsets moved, and on close. @internal
 */
import { join } from 'node:path'
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { Clock } from '../clock.js'
import type { Logger } from '../logger.js'
import type { StateStore } from '../state/state-store.js'
import { Headers } from '../record.js'
import { StreamsError } from '../errors.js'
import { GlobalStateUpdateTask } from './global-state-update-task.js'
import { OffsetCheckpoint, CheckpointCorruptedError } from './state/offset-checkpoint.js'
import type { StateDirectory } from './state/state-directory.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import { Lifecycle } from './lifecycle.js'
import { tpKey, type AdminPort, type KafkaClientFactory, type TopicPartition } from './kafka/ports.js'
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
  /** This thread's metrics (the global task's dropped records). */
  readonly metrics: StreamsMetricsRegistry

  constructor (options: GlobalStreamThreadOptions) {
    this.#o = options
    this.#lifecycle = new Lifecycle('global stream thread', 'CREATED', TRANSITIONS)
    const clientId = `${options.config.clientId ?? options.config.applicationId}-GlobalStreamThread`
    this.metrics = new StreamsMetricsRegistry({ clock: options.clock, threadId: clientId, recordingLevel: options.config.metricsRecordingLevel })
    this.#reader = AssignedPartitionReader.create(options.clients, `${clientId}-global-consumer`, options.config, options.logger)
    this.#admin = options.clients.admin({ clientId: `${clientId}-admin` })
  }

  get state (): GlobalThreadState { return this.#lifecycle.state }

  /** The global stores (filled once started). */
  get stores (): ReadonlyMap<string, StateStore> {
    return this.#task?.stores ?? new Map()
  }

  /** Opens the stores and reads every global partition to its current end; then keeps reading. */
  async start (): Promise<void> {
    const dir = await this.#o.stateDirectory.ensureDir(this.#o.stateDirectory.globalDir())
    this.#task = new GlobalStateUpdateTask({
      topology: this.#o.topology,
      config: this.#o.config,
      clock: this.#o.clock,
      stateDir: dir,
      metrics: this.metrics,
      onDeserializationError: this.#o.deserializationErrorHandler,
      onDroppedRecord: (record, reason) => { this.#o.logger.warn(`Global stream thread dropped a record of ${record.topic}-${record.partition} at offset ${record.offset}: ${reason}`) }
    })
    await this.#task.initialize()
    this.#checkpoint = new OffsetCheckpoint(join(dir, '.checkpoint'))
    const topics = this.#task.topics
    const counts = await this.#admin.partitionCounts(topics)
    const missing = topics.filter(t => !counts.has(t))
    if (missing.length > 0) throw new StreamsError('UNKNOWN_TOPIC', `Global topic(s) ${missing.join(', ')} do not exist`)
    const partitions = topics.flatMap(topic => Array.from({ length: counts.get(topic)! }, (_, partition) => ({ topic, partition })))
    const checkpointed = await this.#readCheckpoint()
    const [ends, begins] = await Promise.all([this.#admin.endOffsets(partitions), this.#admin.beginningOffsets(partitions)])
    for (const p of partitions) {
      const key = tpKey(p.topic, p.partition)
      this.#positions.set(key, { ...p, offset: Math.max(checkpointed.get(key) ?? 0, begins.get(key) ?? 0) })
    }
    this.#reader.assign([...this.#positions.values()])
    await this.#bootstrap(ends)
    if (this.state !== 'CREATED') return
    this.#task.flush()
    await this.#writeCheckpoint()
    this.#lifecycle.transition('RUNNING')
    this.#loop = this.#run()
  }

  async #readCheckpoint (): Promise<Map<string, number>> {
    try {
      const offsets = await this.#checkpoint!.read()
      return new Map([...offsets].map(([k, v]) => [k, v.offset]))
    } catch (err) {
      if (!(err instanceof CheckpointCorruptedError)) throw err
      this.#o.logger.warn(`${err.message}; bootstrapping the global stores from the beginning`)
      return new Map()
    }
  }

  /** Reads until every partition reached the end offset captured at start. */
  async #bootstrap (ends: ReadonlyMap<string, number>): Promise<void> {
    const listener = this.#o.restoreListener
    const storeOf = (topic: string): string => this.#o.topology.globalStores.find(g => g.topic === topic)?.storeName ?? topic
    const restored = new Map<string, number>()
    for (const p of this.#positions.values()) listener?.onRestoreStart?.(p, storeOf(p.topic), p.offset, ends.get(tpKey(p.topic, p.partition)) ?? 0)
    const behind = (): boolean => [...this.#positions].some(([key, p]) => p.offset < (ends.get(key) ?? 0))
    while (behind() && this.state === 'CREATED') {
      for (const batch of await this.#reader.poll(this.#o.config.pollMs)) {
        const n = this.#apply(batch.topic, batch.partition, batch.records, batch.nextOffset)
        const key = tpKey(batch.topic, batch.partition)
        restored.set(key, (restored.get(key) ?? 0) + n)
        if (n > 0) listener?.onBatchRestored?.(batch, storeOf(batch.topic), batch.nextOffset - 1, n)
      }
    }
    for (const p of this.#positions.values()) listener?.onRestoreEnd?.(p, storeOf(p.topic), restored.get(tpKey(p.topic, p.partition)) ?? 0)
  }

  #apply (topic: string, partition: number, records: ReadonlyArray<{ offset: number, timestamp: number, key: Buffer | null, value: Buffer | null, headers: Headers }>, nextOffset: number): number {
    const position = this.#positions.get(tpKey(topic, partition))
    if (position === undefined) return 0
    let applied = 0
    for (const r of records) {
      if (r.offset < position.offset) continue
      this.#task!.update({ topic, partition, offset: r.offset, timestamp: r.timestamp, key: r.key, value: r.value, headers: r.headers })
      applied++
    }
    position.offset = Math.max(position.offset, nextOffset)
    return applied
  }

  async #run (): Promise<void> {
    let lastCommit = this.#o.clock.milliseconds()
    while (this.state === 'RUNNING') {
      try {
        for (const batch of await this.#reader.poll(this.#o.config.pollMs)) {
          if (this.state !== 'RUNNING') break
          this.#apply(batch.topic, batch.partition, batch.records, batch.nextOffset)
        }
        if (this.#o.clock.milliseconds() - lastCommit >= this.#o.config.commitIntervalMs) {
          this.#task!.flush()
          await this.#maybeCheckpoint()
          lastCommit = this.#o.clock.milliseconds()
        }
      } catch (err) {
        const error = err instanceof StreamsError ? err : new StreamsError('PROCESSING', `Global stream thread failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
        this.#o.logger.error(error.message)
        this.#o.onFailure(error)
        return
      }
    }
  }

  async #maybeCheckpoint (): Promise<void> {
    let moved = 0
    for (const [key, p] of this.#positions) moved += p.offset - (this.#checkpointed.get(key) ?? 0)
    if (moved > 10_000) await this.#writeCheckpoint()
  }

  async #writeCheckpoint (): Promise<void> {
    await this.#checkpoint!.write([...this.#positions.values()])
    this.#checkpointed = new Map([...this.#positions].map(([k, p]) => [k, p.offset]))
  }

  /** Stops reading (a bootstrap in progress too), checkpoints and closes the stores. Idempotent. */
  async shutdown (): Promise<void> {
    this.#shutdown ??= this.#doShutdown()
    await this.#shutdown
  }

  #shutdown: Promise<void> | undefined

  async #doShutdown (): Promise<void> {
    if (this.state === 'DEAD') return
    if (this.state !== 'PENDING_SHUTDOWN') this.#lifecycle.transition('PENDING_SHUTDOWN')
    await this.#loop
    let first: unknown
    try {
      if (this.#task !== undefined && this.#checkpoint !== undefined) {
        this.#task.flush()
        await this.#writeCheckpoint()
      }
    } catch (err) { first = err }
    try { this.#task?.close() } catch (err) { first ??= err }
    for (const close of [() => this.#reader.close(), () => this.#admin.close()]) {
      try { await close() } catch (err) { first ??= err }
    }
    this.#lifecycle.transition('DEAD')
    if (first !== undefined) throw first
  }
}
