/**
 * One stream thread: a group member that owns a consumer, a producer (through the record
 * collector), a changelog reader and a task manager. It is the source of truth for its thread
 * state and runs the loop of Kafka Streams' StreamThread: poll (rebalances happen inside, through
 * the rebalance listener), buffer the fetched records, process what is processable in timestamp
 * order, punctuate (stream time, then wall-clock), and commit every commitIntervalMs or on
 * request. Restoration runs beside it (the state updater), with the restoring tasks' partitions
 * paused. A group that moved on (TASK_MIGRATED) closes the tasks as lost, without a commit, and
 * the member rejoins; a commit that keeps timing out is retried until taskTimeoutMs. Only what
 * Kafka Streams treats as fatal ends the thread.
 * @internal
 */
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import { resolveClientConfigs } from '../config/client-configs.js'
import { RepartitionPurger } from './repartition-purger.js'
import { internalTopicName } from './assignment/topology-metadata.js'
import type { TopologyDef } from '../topology/definitions.js'
import { runtimeTopicName } from './processor-graph.js'
import type { Clock } from '../clock.js'
import type { Logger } from '../logger.js'
import type { StateStore } from '../state/state-store.js'
import { StreamsError } from '../errors.js'
import { errorHandlerContext, productionDecision } from './exception-handlers.js'
import { TaskManager } from './task-manager.js'
import { StreamsProducer } from './streams-producer.js'
import { ChangelogReader } from './changelog-reader.js'
import { KafkaRecordCollector } from './kafka-record-collector.js'
import type { StateDirectory } from './state/state-directory.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import type { StandbyUpdateListener } from './standby-update-listener.js'
import { ThreadRestoreMetrics } from './restore-metrics.js'
import { ThreadMetrics } from './thread-metrics.js'
import type { ThreadMetadata } from './thread-metadata.js'
import { tpKey, type FetchedBatch, type KafkaClientFactory, type TopicPartition } from './kafka/ports.js'
import type { GroupAssignor, MemberAssignment } from './consumer/consumer-api.js'
import { GroupConsumer } from './consumer/group-consumer.js'
import { AssignedPartitionReader } from './consumer/assigned-partition-reader.js'
import { offsetResetPolicy } from './offset-reset-policy.js'
import { Lifecycle } from './lifecycle.js'
import { AssignorError } from './assignment/assignor-error.js'
import { ThreadCache } from '../state/cache/thread-cache.js'
import { StreamsMetricsRegistry } from '../metrics/streams-metrics-registry.js'
import type { DeserializationErrorHandler } from './record-queue.js'

/** Records the collector may buffer before processing waits for the producer. */
const MAX_BUFFERED_SENDS = 20_000

export type StreamThreadState =
  | 'CREATED'
  | 'STARTING'
  | 'PARTITIONS_REVOKED'
  | 'PARTITIONS_ASSIGNED'
  | 'RUNNING'
  | 'PENDING_SHUTDOWN'
  | 'DEAD'

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
  /** The transactional id of the thread's producer under exactly_once_v2; undefined otherwise. */
  readonly transactionalId?: string | undefined
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
  /** After the thread gave its partitions up (revoked or lost), before it rejoins: refreshes what its subscription reports. */
  readonly beforeRejoin?: () => Promise<void>
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
  readonly #consumer: GroupConsumer
  readonly #producer: StreamsProducer
  readonly #admin
  readonly #collector: KafkaRecordCollector
  readonly #changelogReader: ChangelogReader
  readonly #tasks: TaskManager
  /** The end offset last seen per input partition. */
  readonly #endOffsets = new Map<string, number>()
  readonly #cache: ThreadCache
  readonly #clientId: string
  #lastCommit = 0
  readonly #purger: RepartitionPurger
  /** What the thread did since its last summary line (log.summary.interval.ms). */
  readonly #summary = { since: 0, records: 0, commits: 0 }
  /** When commits began to time out (task.timeout.ms runs from there); undefined while they succeed. */
  #commitTimeoutSince: number | undefined
  #loop: Promise<void> | undefined
  #restoreLoop: Promise<void> | undefined
  #failed: StreamsError | undefined
  #probingTimer: NodeJS.Timeout | undefined
  /** An assignment is being handled (tasks created, resumed, closed). */
  #assigning = false

  constructor(options: StreamThreadOptions) {
    this.#o = options
    this.name = options.name
    this.#lifecycle = new Lifecycle(`stream thread ${options.name}`, 'CREATED', TRANSITIONS, (from, to) =>
      options.onStateChange?.(this, from, to)
    )
    const { config } = options
    const clientId = `${config.clientId ?? config.applicationId}-${options.name}`
    this.#clientId = clientId
    const clientConfigs = resolveClientConfigs(config, config, options.clients.clientConfigs ?? {})
    this.#producer = new StreamsProducer({
      clients: options.clients,
      clientId: `${clientId}-producer`,
      transactionalId: options.transactionalId,
      configs: clientConfigs.producer.adapterConfigs,
      maxBlockMs: clientConfigs.producer.maxBlockMs,
      retryBackoffMs: config.retryBackoffMs,
      logger: options.logger
    })
    const admin = options.clients.admin({ clientId: `${clientId}-admin`, configs: clientConfigs.admin.adapterConfigs })
    this.#admin = admin
    this.#purger = new RepartitionPurger({
      admin,
      repartitionTopics: new Set([...options.topology.internalTopics.keys()].map(name => internalTopicName(config.applicationId, name))),
      intervalMs: config.repartitionPurgeIntervalMs,
      clock: options.clock,
      logger: options.logger
    })
    this.#consumer = new GroupConsumer({
      clients: options.clients,
      groupId: config.applicationId,
      clientId: `${clientId}-consumer`,
      topics: options.sourceTopics,
      resetPolicy: offsetResetPolicy(options.topology, config.applicationId, clientConfigs.mainConsumer.autoOffsetReset),
      assignor: options.assignor,
      admin,
      config,
      clock: options.clock,
      logger: options.logger,
      listener: {
        onPartitionsRevoked: async () => {
          await this.#onRevoked()
        },
        onPartitionsLost: async () => {
          await this.#onLost('the group member lost its partitions')
        },
        onPartitionsAssigned: async assignment => {
          await this.#onAssigned(assignment)
        }
      }
    })
    this.#collector = new KafkaRecordCollector({
      producer: this.#producer,
      admin,
      retryTimeoutMs: config.taskTimeoutMs,
      maxRequestSize: clientConfigs.producer.maxRequestSize,
      lingerMs: clientConfigs.producer.lingerMs,
      compressed: String(clientConfigs.producer.adapterConfigs['compression.type'] ?? 'none').toLowerCase() !== 'none',
      ...(clientConfigs.producer.batchSize === undefined ? {} : { batchBytes: clientConfigs.producer.batchSize }),
      stillOwner: async () => await this.#consumer.confirmMembership(),
      transactional: this.#producer.eosEnabled,
      onRecordError: (record, error) => {
        const source = record.source ?? {
          topic: undefined,
          partition: -1,
          offset: -1,
          timestamp: record.timestamp,
          headers: record.headers
        }
        const context = errorHandlerContext(source, String(record.origin?.taskId ?? ''), record.processorNodeId ?? '')
        const { topic, partition, key, value, headers, timestamp } = record
        const response = productionDecision(config, context, error, { topic, partition, key, value, headers, timestamp })
        if (response.result === 'RESUME') {
          const changelog = record.changelog ? '; it is a changelog record: its store now holds a write its changelog does not' : ''
          options.logger.error(
            `Task ${String(record.origin?.taskId ?? '?')} dropped a record to ${record.topic}-${record.partition} that could not be sent (the production exception handler answered CONTINUE): ${error.message}${changelog}`
          )
        }
        return response
      }
    })
    this.#changelogReader = new ChangelogReader({
      reader: AssignedPartitionReader.create(options.clients, `${clientId}-restore-consumer`, config, options.logger, 'restoreConsumer'),
      admin,
      listener: options.restoreListener,
      standbyListener: options.standbyUpdateListener,
      onStep: records => {
        restoreMetrics.recordStep(records)
      },
      now: () => options.clock.milliseconds(),
      retryTimeoutMs: config.taskTimeoutMs,
      retryBackoffMs: config.retryBackoffMs
    })
    this.metrics = new StreamsMetricsRegistry({
      clock: options.clock,
      threadId: options.name,
      recordingLevel: config.metricsRecordingLevel
    })
    const restoreMetrics = new ThreadRestoreMetrics(this.metrics, options.clock, this.#changelogReader)
    this.#threadMetrics = new ThreadMetrics(this.metrics, options.clock)
    const cache = new ThreadCache({
      maxCacheSizeBytes: options.cacheSizeBytes ?? Math.floor(config.statestoreCacheMaxBytes / config.numStreamThreads),
      metrics: this.metrics
    })
    this.#cache = cache
    this.#tasks = new TaskManager({
      cache,
      metrics: this.metrics,
      topology: options.topology,
      config,
      clock: options.clock,
      logger: options.logger,
      stateDirectory: options.stateDirectory,
      collector: this.#collector,
      consumer: this.#consumer,
      changelogReader: this.#changelogReader,
      globalStores: options.globalStores,
      currentLag: tp => this.#consumer.currentLag(tp),
      deserializationErrorHandler: options.deserializationErrorHandler,
      transactions: this.#producer.eosEnabled ? { producer: this.#producer, group: () => this.#consumer.groupMetadata() } : undefined
    })
  }

  /** This thread's metrics (thread, tasks, processor nodes, stores, cache, restore). */
  readonly metrics: StreamsMetricsRegistry
  readonly #threadMetrics: ThreadMetrics

  get state(): StreamThreadState {
    return this.#lifecycle.state
  }

  /** Makes the consumer rejoin the group, so the leader sees this process's new subscription. */
  requestRebalance(): void {
    this.#consumer.enforceRebalance('the application asked for a rebalance')
  }

  get taskManager(): TaskManager {
    return this.#tasks
  }

  /** This thread's share of the record cache changed (threads were added or removed). */
  resizeCache(maxCacheSizeBytes: number): void {
    this.#cache.resize(maxCacheSizeBytes)
  }

  /** Name, state, tasks and client ids (Kafka Streams' ThreadMetadata). */
  metadata(): ThreadMetadata {
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

  /** Starts the thread's loop; the thread joins the group at its first poll. */
  async start(): Promise<void> {
    this.#lifecycle.transition('STARTING')
    this.#lastCommit = this.#o.clock.milliseconds()
    this.#loop = this.#runLoop()
  }

  #isAlive(): boolean {
    return this.#failed === undefined && this.state !== 'PENDING_SHUTDOWN' && this.state !== 'DEAD'
  }

  async #runLoop(): Promise<void> {
    while (this.#isAlive()) {
      try {
        await this.#runOnce()
      } catch (err) {
        if (!this.#isAlive()) break
        if (err instanceof StreamsError && err.code === 'TASK_MIGRATED') {
          await this.#onTaskMigrated(err).catch(e => {
            this.#fail(asStreamsError(e, this.name))
          })
        } else if (err instanceof StreamsError && err.code === 'TASK_CORRUPTED' && this.#producer.eosEnabled) {
          await this.#onTransactionFailed(err).catch(e => {
            this.#fail(asStreamsError(e, this.name))
          })
        } else {
          this.#fail(asStreamsError(err, this.name))
        }
      }
      // Let I/O and timers run between iterations, whatever one did.
      await new Promise(resolve => setImmediate(resolve))
    }
  }

  /** One iteration of Kafka Streams' runOnce: poll, complete new tasks, buffer, process, punctuate, commit. */
  async #runOnce(): Promise<void> {
    const busy = this.#tasks.hasProcessableRecords
    const pollStart = performance.now()
    const batches = await this.#consumer.poll(busy ? 0 : this.#o.config.pollMs)
    if (!this.#isAlive()) return
    let polled = 0
    for (const batch of batches) polled += batch.records.length
    this.#threadMetrics.recordPoll(polled, performance.now() - pollStart)
    // New (and resumed) tasks run once the metadata of their committed offsets is read (between polls).
    await this.#tasks.initializeMetadata()
    this.#maybeRunning()
    for (const batch of batches) this.#addBatch(batch)
    await this.#process()
  }

  /**
   * The group moved on without this member (a commit was rejected, the member was evicted): its
   * tasks belong to others now. They are closed without a commit (their output since the last
   * commit is processed again by the new owner) and the member rejoins.
   */
  async #onTaskMigrated(error: StreamsError): Promise<void> {
    this.#o.logger.warn(`${this.name}: ${error.message}; closing its tasks as lost and rejoining the group`)
    await this.#onLost(error.message)
    this.#consumer.enforceRebalance('the tasks of this member migrated')
  }

  /**
   * exactly_once_v2: a send or commit of the thread's transaction failed without fencing. The
   * transaction is aborted, and every active task is revived: wiped, restored, and fed again from
   * its committed offsets (Kafka's handleCorruption). The thread stays in the group.
   */
  async #onTransactionFailed(error: StreamsError): Promise<void> {
    this.#o.logger.warn(`${this.name}: ${error.message}`)
    // The producer is replaced after the abort, whatever the client thinks of its transaction: the
    // new one's InitProducerId makes sure the coordinator holds no transaction of this id open (one
    // left open would hold the restores of the revived tasks back until the transaction timeout).
    await this.#abortTransaction(true)
    await this.#producer.initTransactions(this.#o.config.taskTimeoutMs)
    await this.#tasks.reviveActiveTasks()
    this.#lastCommit = this.#o.clock.milliseconds()
    this.#ensureRestoreLoop()
  }

  /**
   * Drops what the collector holds (a failed send included: under at_least_once too, where a
   * fenced send closes the tasks as lost) and aborts the open transaction (exactly_once_v2);
   * `resetProducer` after fencing.
   */
  async #abortTransaction(resetProducer: boolean): Promise<void> {
    // The send in flight ends first: the abort must not cross it.
    await this.#collector.reset()
    if (this.#producer.eosEnabled) await this.#producer.abortTransaction(resetProducer)
  }

  async #onRevoked(): Promise<void> {
    if (!this.#isAlive()) return
    const started = this.#o.clock.milliseconds()
    this.#o.logger.info(`${this.name}: partitions revoked; committing and suspending its tasks`)
    this.#lifecycle.transition('PARTITIONS_REVOKED')
    try {
      await this.#tasks.handleRevocation()
      this.#commitTimeoutSince = undefined
    } catch (err) {
      // The commit could not be made (the group moved on, it kept timing out, the transaction failed): close as lost.
      if (!(err instanceof StreamsError) || !(err.code === 'TASK_MIGRATED' || err.code === 'TASK_CORRUPTED' || err.retriable)) throw err
      this.#o.logger.warn(`${this.name}: the commit of the revoked tasks failed (${err.message}); closing them as lost`)
      await this.#abortTransaction(true)
      await this.#tasks.handleLostAll()
    }
    this.#lastCommit = this.#o.clock.milliseconds()
    this.#o.logger.info(`${this.name}: revocation handled in ${this.#lastCommit - started} ms`)
    await this.#beforeRejoin()
  }

  /** The state on disk as the subscription will report it; a failure to read it only costs stickiness. */
  async #beforeRejoin(): Promise<void> {
    try {
      await this.#o.beforeRejoin?.()
    } catch (err) {
      this.#o.logger.warn({ err }, `${this.name}: could not read the task directories' checkpoints before rejoining`)
    }
  }

  async #onLost(reason: string): Promise<void> {
    if (!this.#isAlive()) return
    if (this.state !== 'PARTITIONS_REVOKED') this.#lifecycle.transition('PARTITIONS_REVOKED')
    this.#o.logger.info(`${this.name}: closing its active tasks as lost (${reason})`)
    // Under exactly-once the open transaction is aborted and the producer replaced (it may be fenced).
    await this.#abortTransaction(true)
    await this.#tasks.handleLostAll()
    this.#commitTimeoutSince = undefined
    this.#lastCommit = this.#o.clock.milliseconds()
    await this.#beforeRejoin()
  }

  #fail(error: StreamsError): void {
    if (this.#failed !== undefined) return
    this.#failed = error
    this.#consumer.wakeup()
    this.#o.logger.error(`Stream thread ${this.name} failed: ${error.message}`)
    this.#o.onFailure(this, error)
  }

  async #onAssigned(assignment: MemberAssignment): Promise<void> {
    if (!this.#isAlive()) return
    const decoded = this.#o.decodeAssignment(assignment)
    if (decoded.errorCode === AssignorError.SHUTDOWN_REQUESTED) {
      this.#o.onShutdownRequested?.(this)
      return
    }
    if (decoded.errorCode !== 0) {
      throw new StreamsError('ASSIGNMENT_ERROR', `Assignment error ${decoded.errorCode}: ${decoded.errorMessage}`)
    }
    if (this.state !== 'PARTITIONS_REVOKED' && this.state !== 'STARTING') this.#lifecycle.transition('PARTITIONS_REVOKED')
    this.#lifecycle.transition('PARTITIONS_ASSIGNED')
    this.#assigning = true
    try {
      await this.#handleAssignment(decoded)
    } finally {
      this.#assigning = false
    }
    this.#maybeRunning()
  }

  /** Creates, resumes and closes tasks; the thread stays PARTITIONS_ASSIGNED until every new task is in place. */
  async #handleAssignment(decoded: DecodedAssignment): Promise<void> {
    const started = this.#o.clock.milliseconds()
    this.#o.logger.info(
      `${this.name}: assigned active tasks [${[...decoded.activeTasks.keys()].join(', ')}], standby tasks [${[...decoded.standbyTasks.keys()].join(', ')}]`
    )
    // Under exactly-once: fences this transactional id's earlier producer (a restarted process's
    // predecessor) and aborts its open transaction before anything is restored or processed.
    await this.#producer.initTransactions(this.#o.config.taskTimeoutMs)
    await this.#tasks.handleAssignment(decoded.activeTasks, decoded.standbyTasks)
    try {
      await this.#collector.lookUpPartitionCounts(partitionedSinkTopics(this.#o.topology, this.#o.config.applicationId))
    } catch (err) {
      // Looked up again at the next assignment; until then the collector looks a count up when a record is sent to such a topic.
      this.#o.logger.warn(`${this.name}: could not look up the partition counts of output topics with a StreamPartitioner: ${String(err)}`)
    }
    this.#o.logger.info(`${this.name}: assignment handled in ${this.#o.clock.milliseconds() - started} ms`)
    this.#scheduleProbingRebalance(decoded.nextRebalanceMs)
    this.#ensureRestoreLoop()
  }

  /**
   * A probing rebalance: when warm-up replicas were placed, the leader asks for another
   * rebalance at nextRebalanceMs so caught-up warm-ups can take their tasks over.
   */
  #scheduleProbingRebalance(at: number | undefined): void {
    if (this.#probingTimer !== undefined) clearTimeout(this.#probingTimer)
    this.#probingTimer = undefined
    if (at === undefined) return
    const delay = Math.max(0, at - this.#o.clock.milliseconds())
    this.#probingTimer = setTimeout(() => {
      this.#probingTimer = undefined
      if (this.state === 'RUNNING' || this.state === 'PARTITIONS_ASSIGNED') {
        this.#o.logger.info(`${this.name}: probing rebalance`)
        this.#consumer.enforceRebalance('probing rebalance')
      }
    }, delay)
    this.#probingTimer.unref()
  }

  #maybeRunning(): void {
    // Not while an assignment is being handled: the restore loop of the tasks kept from before
    // may finish while the new ones are still being created.
    if (this.state === 'PARTITIONS_ASSIGNED' && !this.#assigning && !this.#tasks.hasRestoringTasks) this.#lifecycle.transition('RUNNING')
  }

  #ensureRestoreLoop(): void {
    if (this.#restoreLoop !== undefined || !this.#tasks.needsChangelogReader) return
    this.#restoreLoop = (async () => {
      while (this.#tasks.needsChangelogReader && this.#isAlive()) {
        try {
          if (this.#o.isPaused?.() === true) await new Promise(resolve => setTimeout(resolve, Math.min(this.#o.config.pollMs, 100)))
          else await this.#tasks.restoreStep(this.#o.config.pollMs)
        } catch (err) {
          if (this.#isAlive()) this.#fail(asStreamsError(err, this.name))
        }
        this.#maybeRunning()
        // Let I/O and timers run between steps, whatever a step did.
        await new Promise(resolve => setImmediate(resolve))
      }
      this.#restoreLoop = undefined
    })()
  }

  #addBatch(batch: FetchedBatch): void {
    this.#endOffsets.set(tpKey(batch.topic, batch.partition), batch.highWatermark)
    this.#tasks.addBatch(batch)
  }

  /** Processes what is processable, punctuates, and commits when due. */
  async #process(): Promise<void> {
    if (this.#o.isPaused?.() === true) {
      await this.#maybeCommit()
      return
    }
    const deadline = this.#o.clock.milliseconds() + Math.max(this.#o.config.pollMs, 100)
    let perTask = 1
    for (;;) {
      // Backpressure: do not outrun the producer by more than a few batches.
      while (this.#collector.buffered > MAX_BUFFERED_SENDS) await this.#collector.drain()
      const processStart = performance.now()
      const processed = this.#tasks.process(perTask)
      const punctuateStart = performance.now()
      this.#threadMetrics.recordProcess(processed, punctuateStart - processStart)
      this.#summary.records += processed
      this.#threadMetrics.recordPunctuate(this.#tasks.punctuateWallClock(), performance.now() - punctuateStart)
      if (await this.#maybeCommit()) perTask = Math.max(1, perTask >> 1)
      else perTask = Math.min(perTask * 2, 1000)
      if (processed === 0 || this.#o.clock.milliseconds() >= deadline) break
    }
  }

  /** Kafka Streams' periodic summary line, every logSummaryIntervalMs (0: never). */
  #maybeLogSummary(): void {
    const interval = this.#o.config.logSummaryIntervalMs
    const now = this.#o.clock.milliseconds()
    if (this.#summary.since === 0) this.#summary.since = now
    if (interval <= 0 || now - this.#summary.since < interval) return
    this.#o.logger.info(
      `${this.name}: processed ${this.#summary.records} total records and committed ${this.#summary.commits} total tasks since the last update`
    )
    this.#summary.since = now
    this.#summary.records = 0
    this.#summary.commits = 0
  }

  /**
   * Commits when due. A commit that times out (retriable) is tried again at the next iteration,
   * until it has failed for taskTimeoutMs (Kafka Streams' task.timeout.ms); TASK_MIGRATED and
   * fatal errors are thrown.
   */
  async #maybeCommit(): Promise<boolean> {
    const now = this.#o.clock.milliseconds()
    if (now - this.#lastCommit < this.#o.config.commitIntervalMs && !this.#tasks.commitRequested) return false
    try {
      const commitStart = performance.now()
      const committed = await this.#tasks.commit(now - this.#lastCommit >= this.#o.config.commitIntervalMs)
      this.#threadMetrics.recordCommit(committed, performance.now() - commitStart)
      this.#summary.commits += committed
      this.#commitTimeoutSince = undefined
      this.#purger.maybePurge(this.#tasks.committedOffsets())
      this.#maybeLogSummary()
    } catch (err) {
      if (!(err instanceof StreamsError) || !err.retriable || err.code === 'TASK_MIGRATED') throw err
      this.#commitTimeoutSince ??= now
      const failingFor = this.#o.clock.milliseconds() - this.#commitTimeoutSince
      if (failingFor >= this.#o.config.taskTimeoutMs) {
        throw new StreamsError(
          'KAFKA',
          `Committing the tasks of ${this.name} kept failing for ${failingFor} ms (taskTimeoutMs ${this.#o.config.taskTimeoutMs}): ${err.message}`,
          { cause: err }
        )
      }
      this.#o.logger.warn(`${this.name}: commit failed (${err.message}); trying again (for up to taskTimeoutMs)`)
    }
    this.#lastCommit = this.#o.clock.milliseconds()
    return true
  }

  /**
   * Stops the thread. A clean shutdown lets the loop finish its iteration, then commits and
   * checkpoints while the thread is still a group member (so whoever takes its tasks over starts
   * from these offsets), and only then leaves the group (unless `leaveGroup` is false: the member
   * then stays until its session times out, as KafkaStreams.close() without `leaveGroup` wants).
   * Otherwise tasks close dirty.
   */
  async shutdown(clean: boolean, leaveGroup = true): Promise<void> {
    // Once: a second caller (close() while removeStreamThread() runs) waits for the first.
    this.#shutdown ??= this.#doShutdown(clean, leaveGroup)
    await this.#shutdown
  }

  #shutdown: Promise<void> | undefined

  async #doShutdown(clean: boolean, leaveGroup: boolean): Promise<void> {
    if (this.state === 'DEAD') return
    if (this.state !== 'PENDING_SHUTDOWN') this.#lifecycle.transition('PENDING_SHUTDOWN')
    if (this.#probingTimer !== undefined) clearTimeout(this.#probingTimer)
    this.#consumer.interrupt()
    let first: unknown
    await this.#loop
    await this.#restoreLoop
    const commit = clean && this.#failed === undefined
    try {
      await this.#tasks.shutdown(commit)
    } catch (err) {
      first ??= err
    }
    try {
      await this.#consumer.close({ leaveGroup })
    } catch (err) {
      first ??= err
    }
    if (!commit || this.#producer.transactionInFlight) {
      this.#collector.discard()
      try {
        await this.#producer.abortTransaction()
      } catch (err) {
        first ??= err
      }
    }
    for (const close of [
      () => this.#changelogReader.close(),
      () => this.#producer.close(),
      async () => {
        await this.#purger.close()
        await this.#admin.close()
      }
    ]) {
      try {
        await close()
      } catch (err) {
        first ??= err
      }
    }
    this.#lifecycle.transition('DEAD')
    if (first !== undefined && clean) throw first
  }
}

function asStreamsError(err: unknown, thread: string): StreamsError {
  return err instanceof StreamsError
    ? err
    : new StreamsError('PROCESSING', `Stream thread ${thread} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
}

/** The fixed topics (runtime names) of the sinks with a StreamPartitioner: their partition counts are needed per record. */
function partitionedSinkTopics(def: TopologyDef, applicationId: string): string[] {
  const topics: string[] = []
  for (const node of def.nodes.values()) {
    if (node.kind === 'sink' && node.partitioner !== undefined && node.topic !== undefined) {
      topics.push(runtimeTopicName(def, applicationId, node.topic))
    }
  }
  return topics
}
