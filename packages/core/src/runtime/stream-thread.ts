/**
 * One stream thread: a group member that owns a consumer, a producer (through the record
 * collector), a changelog reader and a task manager. It is the source of truth for its thread
 * state and runs the loop of Kafka Streams' StreamThread on kafkajs' push model: each fetched
 * batch (or an idle tick) buffers records, processes what is processable in timestamp order,
 * punctuates (stream time, then wall-clock), and commits every commitIntervalMs or on request.
 * Restoration runs beside it (the state updater), with the restoring tasks' partitions paused.
 * @internal
 */
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { TopologyDef } from '../topology/definitions.js'
import type { Clock } from '../clock.js'
import type { Logger } from '../logger.js'
import type { StateStore } from '../state/state-store.js'
import { StreamsError } from '../errors.js'
import { productionErrorResponse } from '../config/streams-config.js'
import { TaskManager } from './task-manager.js'
import { ChangelogReader } from './changelog-reader.js'
import { KafkaRecordCollector } from './kafka-record-collector.js'
import type { StateDirectory } from './state/state-directory.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import type { StandbyUpdateListener } from './standby-update-listener.js'
import { ThreadRestoreMetrics } from './restore-metrics.js'
import type { ThreadMetadata } from './thread-metadata.js'
import { tpKey, type FetchedBatch, type GroupAssignor, type KafkaClientFactory, type MemberAssignment, type TopicPartition } from './kafka/ports.js'
import { Lifecycle } from './lifecycle.js'
import { within } from './within.js'
import { AssignorError } from './assignment/assignor-error.js'
import { ThreadCache } from '../state/cache/thread-cache.js'
import { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { DeserializationErrorHandler } from './record-queue.js'

/** Records the collector may buffer before processing waits for the producer. */
const MAX_BUFFERED_SENDS = 20_000

export type StreamThreadState = 'CREATED' | 'STARTING' | 'PARTITIONS_REVOKED' | 'PARTITIONS_ASSIGNED' | 'RUNNING' | 'PENDING_SHUTDOWN' | 'DEAD'

const TRANSITIONS: Record<StreamThreadState, readonly StreamThreadState[]> = {
  CREATED: ['STARTING', 'PENDING_SHUTDOWN'],
  STARTING: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'PENDING_SHUTDOWN'],
  PARTITIONS_REVOKED: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'PENDING_SHUTDOWN'],
  PARTITIONS_ASSIGNED: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'RUNNING', 'PENDING_SHUTDOWN'],
  RUNNING: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'RUNNING', 'PENDING_SHUTDOWN'],
  PENDING_SHUTDOWN: ['DEAD'],
  DEAD: []
}

/** What the thread needs to know of an assignment (decoded from the assignment userData). */
export interface DecodedAssignment {
  readonly activeTasks: ReadonlyMap<string, readonly TopicPartition[]>
  /** Standby task ids with the changelog partitions to keep current. */
  readonly standbyTasks: ReadonlyMap<string, readonly TopicPartition[]>
  readonly errorCode: number
  readonly errorMessage: string
  /** When the leader wants a probing rebalance (warm-up replicas caught up by then), epoch ms. */
  readonly nextRebalanceMs?: number | undefined
  /** "host:port" of each instance with an applicationServer -> the source partitions of its active tasks. */
  readonly partitionsByHost?: ReadonlyMap<string, readonly TopicPartition[]>
  /** "host:port" -> the source partitions of its standby tasks. */
  readonly standbyPartitionsByHost?: ReadonlyMap<string, readonly TopicPartition[]>
}

export interface StreamThreadOptions {
  readonly name: string
  readonly topology: TopologyDef
  /** Source (and repartition) topics the thread subscribes to. */
  readonly sourceTopics: readonly string[] | RegExp
  readonly config: ResolvedStreamsConfig
  readonly clock: Clock
  readonly logger: Logger
  readonly clients: KafkaClientFactory
  readonly stateDirectory: StateDirectory
  readonly assignor: GroupAssignor
  readonly decodeAssignment: (assignment: MemberAssignment) => DecodedAssignment
  readonly globalStores: ReadonlyMap<string, StateStore>
  readonly restoreListener?: StateRestoreListener
  readonly standbyUpdateListener?: StandbyUpdateListener
  readonly onStateChange?: (thread: StreamThread, from: StreamThreadState, to: StreamThreadState) => void
  /** The thread died of `error` (processing, a fatal client error, an assignment error). */
  readonly onFailure: (thread: StreamThread, error: StreamsError) => void
  readonly deserializationErrorHandler?: DeserializationErrorHandler
  /** The group leader told every member to shut down (some instance asked for SHUTDOWN_APPLICATION). */
  readonly onShutdownRequested?: (thread: StreamThread) => void
  /** This thread's share of statestoreCacheMaxBytes; default an equal share among numStreamThreads. */
  readonly cacheSizeBytes?: number
  /**
   * Whether the client is paused (KafkaStreams.pause(), KIP-834): no processing, punctuation,
   * restoration or standby updates; the consumer keeps its membership and offsets are committed.
   */
  readonly isPaused?: () => boolean
}

export class StreamThread {
  readonly name: string
  readonly #o: StreamThreadOptions
  readonly #lifecycle: Lifecycle<StreamThreadState>
  readonly #consumer
  readonly #producer
  readonly #collector: KafkaRecordCollector
  readonly #changelogReader: ChangelogReader
  readonly #tasks: TaskManager
  readonly #caughtUp = new Map<string, boolean>()
  /** The end offset last seen per input partition. */
  readonly #endOffsets = new Map<string, number>()
  readonly #cache: ThreadCache
  readonly #clientId: string
  #lastCommit = 0
  #restoreLoop: Promise<void> | undefined
  #failed: StreamsError | undefined
  #probingTimer: NodeJS.Timeout | undefined
  /** Handlers and restore steps running now; shutdown waits for them before it commits. */
  readonly #inflight = new Set<Promise<void>>()

  constructor (options: StreamThreadOptions) {
    this.#o = options
    this.name = options.name
    this.#lifecycle = new Lifecycle(`stream thread ${options.name}`, 'CREATED', TRANSITIONS, (from, to) => options.onStateChange?.(this, from, to))
    const clientId = `${options.config.clientId ?? options.config.applicationId}-${options.name}`
    this.#clientId = clientId
    this.#consumer = options.clients.groupConsumer({ groupId: options.config.applicationId, clientId: `${clientId}-consumer` })
    this.#producer = options.clients.producer({ clientId: `${clientId}-producer` })
    const admin = options.clients.admin({ clientId: `${clientId}-admin` })
    this.#collector = new KafkaRecordCollector({
      producer: this.#producer,
      admin,
      retryTimeoutMs: options.config.taskTimeoutMs,
      onRecordError: (record, error) => {
        const response = productionErrorResponse(options.config, record.topic, record.partition, error)
        if (response === 'CONTINUE') options.logger.warn(`Skipping a record to ${record.topic} that could not be sent: ${error.message}`)
        return response
      }
    })
    this.#changelogReader = new ChangelogReader({
      reader: options.clients.partitionReader({ clientId: `${clientId}-restore-consumer`, readCommitted: options.config.processingGuarantee === 'exactly_once_v2' }),
      admin,
      listener: options.restoreListener,
      standbyListener: options.standbyUpdateListener,
      onStep: records => { restoreMetrics.recordStep(records) },
      now: () => options.clock.milliseconds()
    })
    this.metrics = new StreamsMetricsRegistry({ clock: options.clock, threadId: options.name, recordingLevel: options.config.metricsRecordingLevel })
    const restoreMetrics = new ThreadRestoreMetrics(this.metrics, options.clock, this.#changelogReader)
    const cache = new ThreadCache({ maxCacheSizeBytes: options.cacheSizeBytes ?? Math.floor(options.config.statestoreCacheMaxBytes / options.config.numStreamThreads), metrics: this.metrics })
    this.#cache = cache
    this.#tasks = new TaskManager({
      cache,
      metrics: this.metrics,
      topology: options.topology,
      config: options.config,
      clock: options.clock,
      logger: options.logger,
      stateDirectory: options.stateDirectory,
      collector: this.#collector,
      consumer: this.#consumer,
      changelogReader: this.#changelogReader,
      globalStores: options.globalStores,
      isCaughtUp: (topic, partition) => this.#caughtUp.get(tpKey(topic, partition)) === true,
      deserializationErrorHandler: options.deserializationErrorHandler
    })
    this.#admin = admin
  }

  readonly #admin
  /** This thread's metrics (store, cache). */
  readonly metrics: StreamsMetricsRegistry

  get state (): StreamThreadState { return this.#lifecycle.state }

  /** Makes the consumer rejoin the group, so the leader sees this process's new subscription. */
  requestRebalance (): void {
    this.#consumer.requestRebalance()
  }
  get taskManager (): TaskManager { return this.#tasks }

  /** This thread's share of the record cache changed (threads were added or removed). */
  resizeCache (maxCacheSizeBytes: number): void {
    this.#cache.resize(maxCacheSizeBytes)
  }

  /** Name, state, tasks and client ids (Kafka Streams' ThreadMetadata). */
  metadata (): ThreadMetadata {
    const { active, standby } = this.#tasks.taskMetadata(this.#endOffsets)
    return {
      threadName: this.name,
      threadState: this.state,
      activeTasks: active,
      standbyTasks: standby,
      mainConsumerClientId: `${this.#clientId}-consumer`,
      restoreConsumerClientId: `${this.#clientId}-restore-consumer`,
      producerClientIds: [`${this.#clientId}-producer`],
      adminClientId: `${this.#clientId}-admin`
    }
  }

  async start (): Promise<void> {
    this.#lifecycle.transition('STARTING')
    this.#lastCommit = this.#o.clock.milliseconds()
    await this.#consumer.start(this.#o.sourceTopics, this.#o.assignor, {
      onPartitionsRevoked: async () => this.#guard(async () => {
        const started = this.#o.clock.milliseconds()
        this.#o.logger.info(`${this.name}: partitions revoked; committing and suspending its tasks`)
        this.#lifecycle.transition('PARTITIONS_REVOKED')
        await this.#tasks.handleRevocation()
        this.#lastCommit = this.#o.clock.milliseconds()
        this.#o.logger.info(`${this.name}: revocation handled in ${this.#lastCommit - started} ms`)
      }),
      onPartitionsAssigned: async (assignment) => {
        if (this.#o.decodeAssignment(assignment).errorCode === AssignorError.SHUTDOWN_REQUESTED) {
          this.#o.onShutdownRequested?.(this)
          return
        }
        await this.#guard(async () => this.#onAssigned(assignment))
      },
      onBatch: async (batch) => this.#guard(async () => this.#onBatch(batch)),
      onIdle: async () => this.#guard(async () => this.#runOnce()),
      onFatal: (error) => { this.#fail(new StreamsError('KAFKA', `Consumer of ${this.name} failed: ${error.message}`, { cause: error })) }
    }, Math.min(this.#o.config.pollMs, 100))
  }

  async #guard (fn: () => Promise<void>): Promise<void> {
    if (this.#failed !== undefined || this.state === 'PENDING_SHUTDOWN' || this.state === 'DEAD') return
    const run = fn()
    this.#inflight.add(run)
    try {
      await run
    } catch (err) {
      this.#fail(err instanceof StreamsError ? err : new StreamsError('PROCESSING', `Stream thread ${this.name} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err }))
    } finally {
      this.#inflight.delete(run)
    }
  }

  #fail (error: StreamsError): void {
    if (this.#failed !== undefined) return
    this.#failed = error
    this.#o.logger.error(`Stream thread ${this.name} failed: ${error.message}`)
    this.#o.onFailure(this, error)
  }

  async #onAssigned (assignment: MemberAssignment): Promise<void> {
    const decoded = this.#o.decodeAssignment(assignment)
    if (decoded.errorCode !== 0) {
      throw new StreamsError('ASSIGNMENT_ERROR', `Assignment error ${decoded.errorCode}: ${decoded.errorMessage}`)
    }
    if (this.state !== 'PARTITIONS_REVOKED' && this.state !== 'STARTING') this.#lifecycle.transition('PARTITIONS_REVOKED')
    this.#lifecycle.transition('PARTITIONS_ASSIGNED')
    const started = this.#o.clock.milliseconds()
    this.#o.logger.info(`${this.name}: assigned active tasks [${[...decoded.activeTasks.keys()].join(', ')}], standby tasks [${[...decoded.standbyTasks.keys()].join(', ')}]`)
    await this.#tasks.handleAssignment(decoded.activeTasks, decoded.standbyTasks)
    this.#o.logger.info(`${this.name}: assignment handled in ${this.#o.clock.milliseconds() - started} ms`)
    this.#scheduleProbingRebalance(decoded.nextRebalanceMs)
    await this.#learnLags([...decoded.activeTasks.values()].flat())
    this.#ensureRestoreLoop()
    this.#maybeRunning()
  }

  /**
   * A probing rebalance: when warm-up replicas were placed, the leader asks for another
   * rebalance at nextRebalanceMs so caught-up warm-ups can take their tasks over.
   */
  #scheduleProbingRebalance (at: number | undefined): void {
    if (this.#probingTimer !== undefined) clearTimeout(this.#probingTimer)
    this.#probingTimer = undefined
    if (at === undefined) return
    const delay = Math.max(0, at - this.#o.clock.milliseconds())
    this.#probingTimer = setTimeout(() => {
      this.#probingTimer = undefined
      if (this.state === 'RUNNING' || this.state === 'PARTITIONS_ASSIGNED') {
        this.#o.logger.info(`${this.name}: probing rebalance`)
        this.#consumer.requestRebalance()
      }
    }, delay)
    this.#probingTimer.unref()
  }

  /** Partitions already read to their end need no waiting for max.task.idle.ms. */
  async #learnLags (partitions: readonly TopicPartition[]): Promise<void> {
    if (partitions.length === 0) return
    const lookup = Promise.all([this.#admin.endOffsets(partitions), this.#consumer.committed(partitions)])
    const [ends, committed] = await within(`${this.name}: reading input lags`, 10000, this.#o.logger, lookup, [new Map<string, number>(), new Map<string, { offset: number, metadata: string | undefined }>()] as const)
    for (const p of partitions) {
      const key = tpKey(p.topic, p.partition)
      const end = ends.get(key) ?? 0
      this.#caughtUp.set(key, (committed.get(key)?.offset ?? 0) >= end)
    }
  }

  #maybeRunning (): void {
    if (this.state === 'PARTITIONS_ASSIGNED' && !this.#tasks.hasRestoringTasks) this.#lifecycle.transition('RUNNING')
  }

  #ensureRestoreLoop (): void {
    if (this.#restoreLoop !== undefined || !this.#tasks.needsChangelogReader) return
    this.#restoreLoop = (async () => {
      while (this.#tasks.needsChangelogReader && this.#failed === undefined && this.state !== 'PENDING_SHUTDOWN' && this.state !== 'DEAD') {
        if (this.#o.isPaused?.() === true) await new Promise(resolve => setTimeout(resolve, Math.min(this.#o.config.pollMs, 100)))
        else await this.#guard(async () => this.#tasks.restoreStep(this.#o.config.pollMs))
        this.#maybeRunning()
        // Let I/O and timers run between steps, whatever a step did.
        await new Promise(resolve => setImmediate(resolve))
      }
      this.#restoreLoop = undefined
    })()
  }

  async #onBatch (batch: FetchedBatch): Promise<void> {
    this.#caughtUp.set(tpKey(batch.topic, batch.partition), batch.nextOffset >= batch.highWatermark)
    this.#endOffsets.set(tpKey(batch.topic, batch.partition), batch.highWatermark)
    this.#tasks.addBatch(batch)
    await this.#runOnce()
  }

  /** Processes what is processable, punctuates, and commits when due. */
  async #runOnce (): Promise<void> {
    if (this.#o.isPaused?.() === true) {
      await this.#maybeCommit()
      return
    }
    const deadline = this.#o.clock.milliseconds() + Math.max(this.#o.config.pollMs, 100)
    let perTask = 1
    for (;;) {
      // Backpressure: do not outrun the producer by more than a few batches.
      while (this.#collector.buffered > MAX_BUFFERED_SENDS) await this.#collector.drain()
      const processed = this.#tasks.process(perTask)
      this.#tasks.punctuateWallClock()
      if (await this.#maybeCommit()) perTask = Math.max(1, perTask >> 1)
      else perTask = Math.min(perTask * 2, 1000)
      if (processed === 0 || this.#o.clock.milliseconds() >= deadline) break
    }
  }

  async #maybeCommit (): Promise<boolean> {
    const now = this.#o.clock.milliseconds()
    if (now - this.#lastCommit < this.#o.config.commitIntervalMs && !this.#tasks.commitRequested) return false
    await this.#tasks.commit(now - this.#lastCommit >= this.#o.config.commitIntervalMs)
    this.#lastCommit = this.#o.clock.milliseconds()
    return true
  }

  /**
   * Stops the thread. A clean shutdown first lets running work finish, then commits and
   * checkpoints while the thread is still a group member (so whoever takes its tasks over starts
   * from these offsets), and only then leaves the group. Otherwise tasks close dirty.
   */
  async shutdown (clean: boolean): Promise<void> {
    // Once: a second caller (close() while removeStreamThread() runs) waits for the first.
    this.#shutdown ??= this.#doShutdown(clean)
    await this.#shutdown
  }

  #shutdown: Promise<void> | undefined

  async #doShutdown (clean: boolean): Promise<void> {
    if (this.state === 'DEAD') return
    if (this.state !== 'PENDING_SHUTDOWN') this.#lifecycle.transition('PENDING_SHUTDOWN')
    if (this.#probingTimer !== undefined) clearTimeout(this.#probingTimer)
    let first: unknown
    await Promise.allSettled([...this.#inflight])
    await this.#restoreLoop
    const commit = clean && this.#failed === undefined
    try { await this.#tasks.shutdown(commit) } catch (err) { first ??= err }
    try { await this.#consumer.stop({ leaveGroup: true }) } catch (err) { first ??= err }
    if (!commit) this.#collector.discard()
    for (const close of [() => this.#changelogReader.close(), () => this.#producer.close(), () => this.#admin.close()]) {
      try { await close() } catch (err) { first ??= err }
    }
    this.#lifecycle.transition('DEAD')
    if (first !== undefined && clean) throw first
  }
}
