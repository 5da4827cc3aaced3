/**
 * KafkaStreams: runs a topology on a Kafka cluster. The source of truth for the client state
 * (Kafka Streams' transition table), the state listener, the uncaught-exception policy and the
 * set of stream threads. One instance per process and application id shares the work with every
 * other instance of the same application id.
 */
import type { Topology } from '../topology/topology.js'
import { TOPOLOGY_DEF } from '../topology/internal.js'
import type { TopologyDef } from '../topology/definitions.js'
import { resolveStreamsConfig, type ResolvedStreamsConfig, type StreamsConfig } from '../config/streams-config.js'
import { resolveClientConfigs } from '../config/client-configs.js'
import { systemClock, type Clock } from '../clock.js'
import { childLogger, silentLogger, type Logger } from '../logger.js'
import { ConfigError, InvalidStateStoreError, StreamsError } from '../errors.js'
import type { StateStore } from '../state/state-store.js'
import { Lifecycle } from './lifecycle.js'
import { KAFKA_STREAMS_TRANSITIONS, KafkaStreamsState } from './kafka-streams-state.js'
import type { MetricSnapshot } from '../metrics/metric-name.js'
import { StateDirectory } from './state/state-directory.js'
import { StateCleaner } from './state/state-cleaner.js'
import type { StreamThread, StreamThreadState } from './stream-thread.js'
import { newStreamThread, type StreamThreadHooks } from './new-stream-thread.js'
import { WorkerStreamThread } from './workers/worker-stream-thread.js'
import { CONTROL_INTS, CONTROL_PAUSED, CONTROL_SHUTDOWN_REQUESTED, CONTROL_START_GATE } from './workers/thread-messages.js'
import { loadStreamsApp } from './workers/streams-app.js'
import { GlobalStreamThread } from './global-stream-thread.js'
import type { KafkaClient, KafkaClientFactory } from './kafka/ports.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import type { StandbyUpdateListener } from './standby-update-listener.js'
import type { RestoreProgress, StandbyProgress } from './changelog-reader.js'
import { configuredDeserializationHandler } from './deserialization-handler.js'
import type { ThreadMetadata } from './thread-metadata.js'
import { createThreadAssignment, type ThreadAssignment } from './thread-assignment.js'
import type { Serializer } from '../serialization/serde.js'
import type { StreamPartitioner } from '../processor/api.js'
import type { AdminPort } from './kafka/ports.js'
import {
  QueryableStoreProvider,
  type GlobalStoreReads,
  type QueryableThread,
  type StoreQueryParameters
} from './iq/queryable-store-provider.js'
import { StreamsMetadataState, type KeyQueryMetadata, type StreamsMetadata } from './iq/streams-metadata-state.js'
import { localStorePartitionLags, type LagInfo } from './iq/local-store-lags.js'
import { runStateQuery } from './iq/v2/state-query-runner.js'
import type { StateQueryRequest } from './iq/v2/state-query-request.js'
import type { StateQueryResult } from './iq/v2/state-query-result.js'

/** The client adapter's factory for `config` (one per KafkaStreams instance, and one per worker thread). @internal */
export function createClients(config: ResolvedStreamsConfig, client: KafkaClient, logger: Logger): KafkaClientFactory {
  const producer = resolveClientConfigs(config, config, 'unchecked').producer
  return client({
    bootstrapServers: config.bootstrapServers,
    clientId: config.clientId ?? config.applicationId,
    ssl: config.ssl,
    sasl: config.sasl,
    connectionTimeoutMs: config.connectionTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    transactionTimeoutMs: producer.transactionTimeoutMs,
    maxBlockMs: producer.maxBlockMs,
    logger
  })
}

/** How often a stream thread on a worker thread reports its metadata, progress and metrics (ms). */
const WORKER_STATUS_INTERVAL_MS = 1000

/** Told of every state change of a KafkaStreams instance (Kafka Streams' StateListener). */
export type StateListener = (newState: KafkaStreamsState, oldState: KafkaStreamsState) => void

/** What to do when a stream thread dies of an error (Kafka Streams' StreamThreadExceptionResponse). */
export type StreamThreadExceptionResponse = 'REPLACE_THREAD' | 'SHUTDOWN_CLIENT' | 'SHUTDOWN_APPLICATION'
/** Decides what happens when a stream thread dies of an error; without one, the instance shuts down (SHUTDOWN_CLIENT). */
export type StreamsUncaughtExceptionHandler = (error: StreamsError) => StreamThreadExceptionResponse

/** The Kafka client, and collaborators a test or an embedding application may replace. */
export interface KafkaStreamsOptions {
  /**
   * The Kafka client adapter: `kafkajs()` from @kstreams/kafkajs, or the in-memory Kafka of
   * @kstreams/testing/in-memory-kafka (`kafka.client()`). Required.
   */
  readonly client?: KafkaClient
  /** Where kstreams logs; default: nowhere (silentLogger). */
  readonly logger?: Logger
  /** The wall clock (punctuations, timeouts); default: the system clock. */
  readonly clock?: Clock
}

/** The options of KafkaStreams.close() (Kafka Streams' KafkaStreams.CloseOptions). */
export interface CloseOptions {
  /** How long to wait for threads to finish (ms, not negative; default: unbounded). */
  readonly timeoutMs?: number
  /**
   * Whether each stream thread's consumer sends LeaveGroup (Kafka Streams' `leaveGroup`, default
   * false). Without it the members stay in the group until their session times out, so an
   * instance restarted within `sessionTimeoutMs` gets its tasks back without a rebalance; with it
   * the group rebalances at once and the other instances take the tasks over.
   */
  readonly leaveGroup?: boolean
}

/**
 * Runs a topology on a Kafka cluster (Kafka Streams' KafkaStreams): stream threads that share the
 * work with every other instance of the same application id, state stores restored from their
 * changelogs, standby tasks, global stores and interactive queries.
 */
export class KafkaStreams {
  readonly #def: TopologyDef
  readonly #config: ResolvedStreamsConfig
  readonly #options: KafkaStreamsOptions
  readonly #logger: Logger
  readonly #lifecycle: Lifecycle<KafkaStreamsState>
  readonly #threads: Array<StreamThread | WorkerStreamThread> = []
  readonly #stateDirectory: StateDirectory
  #stateCleaner: StateCleaner | undefined
  #stateListener: StateListener | undefined
  #exceptionHandler: StreamsUncaughtExceptionHandler | undefined
  #restoreListener: StateRestoreListener | undefined
  #standbyUpdateListener: StandbyUpdateListener | undefined
  readonly #clients: KafkaClientFactory
  /** This instance's process id (kept in the state directory); known once started. */
  #processId: string | undefined
  #assignment: ThreadAssignment | undefined
  #closing: Promise<void> | undefined
  #starting: Promise<void> | undefined
  #globalThread: GlobalStreamThread | undefined
  /** The application module each stream thread's worker builds the app from; undefined: threads share this event loop. */
  #workerModule: string | undefined
  /** Flags the stream threads read, on this thread or on workers: paused, shutdown requested. */
  readonly #control = new Int32Array(new SharedArrayBuffer(CONTROL_INTS * 4))
  readonly #globalStores = new Map<string, StateStore>()
  readonly #metadata: StreamsMetadataState
  readonly #queryProvider: QueryableStoreProvider
  #lagAdmin: AdminPort | undefined

  constructor(topology: Topology, config: StreamsConfig, options: KafkaStreamsOptions = {}) {
    this.#config = resolveStreamsConfig(config)
    if (config.applicationId === undefined) throw new ConfigError('applicationId', 'Missing required config "applicationId"')
    // producer['transaction.timeout.ms'] over transactionTimeoutMs, as Kafka's getProducerConfigs.
    const transactionTimeoutMs = resolveClientConfigs(this.#config, this.#config, 'unchecked').producer.transactionTimeoutMs
    if (this.#config.processingGuarantee === 'exactly_once_v2' && transactionTimeoutMs < this.#config.commitIntervalMs) {
      const key = config.producer?.['transaction.timeout.ms'] === undefined ? 'transactionTimeoutMs' : 'producer.transaction.timeout.ms'
      throw new ConfigError(
        key,
        `${key} (${transactionTimeoutMs}) must be at least commitIntervalMs (${this.#config.commitIntervalMs}) under exactly_once_v2: a transaction stays open for a commit interval`
      )
    }
    if (options.client === undefined) {
      throw new ConfigError(
        'client',
        'No Kafka client given: install @kstreams/kafkajs and pass it, e.g. new KafkaStreams(topology, config, { client: kafkajs() }) with kafkajs from "@kstreams/kafkajs"'
      )
    }
    this.#def = topology[TOPOLOGY_DEF]()
    this.#options = options
    this.#logger = options.logger ?? silentLogger
    this.#clients = createClients(this.#config, options.client, this.#logger)
    // A pass-through client config that neither the runtime nor this adapter honours fails here, naming it.
    resolveClientConfigs(this.#config, this.#config, this.#clients.clientConfigs ?? {})
    if (this.#config.processingGuarantee === 'exactly_once_v2' && !this.#clients.exactlyOnceV2) {
      throw new ConfigError(
        'processingGuarantee',
        `processingGuarantee "exactly_once_v2" needs a Kafka client whose transactional offset commits carry the group's generation (KIP-447) and whose offset fetches wait for pending transactions; ${this.#clients.name} has neither. Use @kstreams/platformatic: new KafkaStreams(topology, config, { client: platformatic() })`
      )
    }
    this.#lifecycle = new Lifecycle('KafkaStreams client', 'CREATED', KAFKA_STREAMS_TRANSITIONS, (from, to) =>
      this.#stateListener?.(to, from)
    )
    this.#stateDirectory = new StateDirectory(this.#config.stateDir, this.#config.applicationId)
    this.#stateDirectory.create()
    this.#metadata = new StreamsMetadataState(this.#def, this.#config.applicationId, this.#config.applicationServer)
    this.#queryProvider = new QueryableStoreProvider({
      clientState: () => this.state(),
      threads: () => this.#queryableThreads(),
      globalStores: this.#globalStoreReads,
      storeNames: new Set(this.#def.storeBuilders.keys()),
      partitionExists: (name, partition) => this.#metadata.partitionExists(name, partition)
    })
  }

  /** The stream threads as interactive queries see them: their state and their stores (a worker's through calls into it). */
  #queryableThreads(): QueryableThread[] {
    return this.#threads.map(t => ({
      state: t.state,
      localStores: (name: string, stale: boolean) => t.taskManager.queryableStores(name, stale)
    }))
  }

  /**
   * The global stores interactive queries read: the global thread's, or with stream threads on
   * worker threads, the copy of a worker's (any whose thread runs, asked again at every query).
   */
  readonly #globalStoreReads: GlobalStoreReads = {
    has: name => (this.#workerModule === undefined ? this.#globalStores.has(name) : this.#def.globalStores.some(g => g.storeName === name)),
    get: name => {
      if (this.#workerModule === undefined) return this.#globalStores.get(name)
      if (!this.#globalStoreReads.has(name)) return undefined
      for (const t of this.#threads) {
        if (!(t instanceof WorkerStreamThread) || t.state === 'DEAD') continue
        try {
          const store = t.globalStore(name)
          if (store !== undefined) return store
        } catch (err) {
          // A worker that does not answer (it died, its exit not yet seen): ask the next.
          if (!(err instanceof StreamsError && err.retriable)) throw err
        }
      }
      throw new InvalidStateStoreError(
        'STREAMS_REBALANCING',
        `Cannot read global store ${name}: no stream thread on a worker thread has its copy ready yet; retry`,
        { retriable: true }
      )
    }
  }

  /**
   * A KafkaStreams whose stream threads (`numStreamThreads`) each run on their own worker
   * thread, so that an instance uses as many cores as it has threads. `module` (a URL or an
   * import specifier resolvable from here, best `new URL('./app.js', import.meta.url)`) default-
   * exports a function returning the application: `{ topology, config, options }` (StreamsApp).
   * It is imported here and on every worker thread, since processors, serdes and the client
   * adapter cannot cross threads; each worker builds its own clients, tasks and stores. The
   * state listener, uncaught-exception handler, restore and standby listeners, metrics and thread
   * metadata work as on one thread (metrics and metadata as of each thread's last report, at most
   * a second old). Interactive queries (store(), query()) read a worker's stores by a synchronous
   * call into it; answers are copied back (kstreams' own types as themselves, iterators read to
   * their end, other class instances as plain data). Each worker keeps its own copy of the global
   * stores (its own global thread, bootstrapped before its stream thread processes; worker n's in
   * `global-<n>/`, the first's in `global/`); interactive queries read any running worker's copy.
   */
  static async onWorkerThreads(module: string | URL): Promise<KafkaStreams> {
    const href = module instanceof URL ? module.href : module
    const app = await loadStreamsApp(href)
    const streams = new KafkaStreams(app.topology, app.config, app.options)
    streams.#workerModule = href
    return streams
  }

  /** The instance's state now. */
  state(): KafkaStreamsState {
    return this.#lifecycle.state
  }

  /** Sets the listener told of every state change; only before start(). */
  setStateListener(listener: StateListener): void {
    if (this.state() !== 'CREATED') throw new StreamsError('ILLEGAL_STATE', 'A state listener can only be set before start()')
    this.#stateListener = listener
  }

  /** Sets what happens when a stream thread dies of an error; only before start(). */
  setUncaughtExceptionHandler(handler: StreamsUncaughtExceptionHandler): void {
    if (this.state() !== 'CREATED') throw new StreamsError('ILLEGAL_STATE', 'An uncaught exception handler can only be set before start()')
    this.#exceptionHandler = handler
  }

  /** Sets the listener told as stores (local and global) restore from their changelogs; only before start(). */
  setGlobalStateRestoreListener(listener: StateRestoreListener): void {
    if (this.state() !== 'CREATED') throw new StreamsError('ILLEGAL_STATE', 'A restore listener can only be set before start()')
    this.#restoreListener = listener
  }

  /** Told as standby tasks start, apply batches and stop (Kafka Streams' setStandbyUpdateListener). */
  setStandbyUpdateListener(listener: StandbyUpdateListener): void {
    if (this.state() !== 'CREATED') throw new StreamsError('ILLEGAL_STATE', 'A standby update listener can only be set before start()')
    this.#standbyUpdateListener = listener
  }

  /** Where every restore of this instance stands: per store and changelog partition, with rate and ETA. */
  restoreProgress(): RestoreProgress[] {
    return this.#threads.flatMap(t => t.taskManager.restoreProgress())
  }

  /** Where every standby store of this instance stands: position, changelog end, lag and rate. */
  standbyProgress(): StandbyProgress[] {
    return this.#threads.flatMap(t => t.taskManager.standbyProgress())
  }

  /** Every metric of every stream thread and of the global thread now (store, cache, task and restore metrics). */
  metrics(): MetricSnapshot[] {
    return [...this.#threads.flatMap(t => t.metrics.metrics()), ...(this.#globalThread?.metrics.metrics() ?? [])]
  }

  /**
   * Starts the global thread (its stores are complete when this resolves) and the stream threads,
   * which join the group in the background (state REBALANCING, then RUNNING). A close() during
   * start() stops whatever was started.
   */
  async start(): Promise<void> {
    if (this.state() !== 'CREATED')
      throw new StreamsError('ILLEGAL_STATE', `KafkaStreams can only be started once (state is ${this.state()})`)
    this.#lifecycle.transition('REBALANCING')
    this.#starting = this.#start()
    await this.#starting
  }

  async #start(): Promise<void> {
    const starting = (): boolean => this.state() === 'REBALANCING'
    try {
      await this.#stateDirectory.lock()
      this.#stateCleaner = new StateCleaner({
        stateDirectory: this.#stateDirectory,
        cleanupDelayMs: this.#config.stateCleanupDelayMs,
        clock: this.#options.clock ?? systemClock,
        logger: this.#logger
      })
      this.#stateCleaner.start()
      const processId = await this.#stateDirectory.processId()
      this.#processId = processId
      this.#assignment = createThreadAssignment({
        def: this.#def,
        config: this.#config,
        processId,
        clients: this.#clients,
        stateDirectory: this.#stateDirectory,
        shutdownRequested: () => Atomics.load(this.#control, CONTROL_SHUTDOWN_REQUESTED) === 1
      })
      await this.#assignment.prepareInternalTopics()
      await this.#assignment.refreshTaskDirs()
      // Global stores are complete before any stream thread processes. On worker threads each
      // worker bootstraps its own copy (the main thread keeps none).
      if (this.#def.globalStores.length > 0 && this.#workerModule === undefined && starting()) {
        this.#globalThread = new GlobalStreamThread({
          topology: this.#def,
          config: this.#config,
          clock: this.#options.clock ?? systemClock,
          logger: childLogger(this.#logger, { thread: `${this.#config.clientId ?? this.#config.applicationId}-GlobalStreamThread` }),
          clients: this.#clients,
          stateDirectory: this.#stateDirectory,
          restoreListener: this.#restoreListener,
          deserializationErrorHandler: configuredDeserializationHandler(this.#config, this.#logger),
          onFailure: error => {
            void this.#shutDownInError(`global stream thread: ${error.message}`)
          }
        })
        await this.#globalThread.start()
        for (const [name, store] of this.#globalThread.stores) this.#globalStores.set(name, store)
      }
      // Side by side, so that the threads (on worker threads: after loading the app) join the group
      // together, in one rebalance, instead of the first taking every task and handing some over.
      // Workers wait at a gate until all are ready (see CONTROL_START_GATE); it opens for good once
      // they started, or one failed to.
      if (starting()) {
        Atomics.store(this.#control, CONTROL_START_GATE, this.#workerModule === undefined ? 0 : this.#config.numStreamThreads)
        try {
          await Promise.all(Array.from({ length: this.#config.numStreamThreads }, async () => await this.#startThread()))
        } finally {
          this.#openStartGate()
        }
      }
    } catch (err) {
      // A close() while starting stops everything itself; an error of its doing is no failure.
      if (!starting()) return
      this.#lifecycle.transition('PENDING_ERROR')
      await this.#shutdownThreads(false)
      await this.#releaseStateDirectory()
      this.#lifecycle.transition('ERROR')
      throw err
    }
  }

  /** Starts a stream thread named after the smallest free index (Kafka's getNextThreadIndex). */
  async #startThread(cacheSizeBytes?: number): Promise<StreamThread | WorkerStreamThread> {
    const used = new Set(this.#threads.map(t => t.name))
    let index = 1
    while (used.has(`StreamThread-${index}`)) index++
    const hooks: StreamThreadHooks = {
      onAssignment: (byHost, standbyByHost) => this.#metadata.onAssignment(byHost, standbyByHost),
      onStateChange: (from, to) => this.#onThreadStateChange(from, to),
      onFailure: error => {
        void this.#onThreadFailure(thread, error)
      },
      onShutdownRequested: () => {
        void this.#shutDownInError('the application was asked to shut down by one of its instances (SHUTDOWN_APPLICATION)')
      }
    }
    const thread: StreamThread | WorkerStreamThread =
      this.#workerModule === undefined
        ? newStreamThread(
            {
              def: this.#def,
              config: this.#config,
              processId: this.#processId!,
              clients: this.#clients,
              stateDirectory: this.#stateDirectory,
              assignment: this.#assignment!,
              clock: this.#options.clock ?? systemClock,
              logger: this.#logger,
              globalStores: this.#globalStores,
              restoreListener: this.#restoreListener,
              standbyUpdateListener: this.#standbyUpdateListener,
              isPaused: () => this.isPaused()
            },
            index,
            cacheSizeBytes,
            hooks
          )
        : new WorkerStreamThread({
            data: {
              module: this.#workerModule,
              applicationId: this.#config.applicationId,
              stateDir: this.#config.stateDir,
              index,
              processId: this.#processId!,
              cacheSizeBytes,
              taskLocks: this.#stateDirectory.taskLocks.memory,
              control: this.#control.buffer as SharedArrayBuffer,
              relayRestore: this.#restoreListener !== undefined,
              relayStandby: this.#standbyUpdateListener !== undefined,
              statusIntervalMs: WORKER_STATUS_INTERVAL_MS
            },
            hooks,
            restoreListener: this.#restoreListener,
            standbyUpdateListener: this.#standbyUpdateListener,
            logger: this.#logger,
            taskLocks: this.#stateDirectory.taskLocks,
            onGlobalFailure: error => {
              void this.#shutDownInError(`global stream thread of ${thread.name}: ${error.message}`)
            }
          })
    this.#threads.push(thread)
    try {
      await thread.start()
    } catch (err) {
      const at = this.#threads.indexOf(thread)
      if (at !== -1) this.#threads.splice(at, 1)
      throw err
    }
    return thread
  }

  #onThreadStateChange(_from: StreamThreadState, to: StreamThreadState): void {
    const state = this.state()
    if (state !== 'REBALANCING' && state !== 'RUNNING') return
    if (to === 'PARTITIONS_REVOKED' || to === 'PARTITIONS_ASSIGNED') {
      if (state === 'RUNNING') this.#lifecycle.transition('REBALANCING')
      return
    }
    const alive = this.#threads.filter(t => t.state !== 'DEAD' && t.state !== 'PENDING_SHUTDOWN')
    if (state === 'REBALANCING' && alive.length > 0 && alive.every(t => t.state === 'RUNNING')) this.#lifecycle.transition('RUNNING')
  }

  async #onThreadFailure(thread: StreamThread | WorkerStreamThread, error: StreamsError): Promise<void> {
    const response = this.#exceptionHandler?.(error) ?? 'SHUTDOWN_CLIENT'
    this.#logger.error(`Stream thread ${thread.name} died (${response}): ${error.message}`)
    if (response === 'REPLACE_THREAD' && this.#isRunningOrRebalancing()) {
      // A thread already being removed (removeStreamThread) is not replaced.
      if (thread.state === 'PENDING_SHUTDOWN' || thread.state === 'DEAD') return
      await this.#dropThread(thread).catch(err => this.#logger.error(`Error while closing the failed ${thread.name}: ${String(err)}`))
      // A close() while the failed thread closed: no replacement outlives the client.
      if (!this.#isRunningOrRebalancing()) return
      const perThread = this.#resizeCaches(this.#aliveThreads().length + 1)
      const replacement = await this.#startThread(perThread).catch(err => {
        this.#logger.error(`Could not replace ${thread.name}: ${String(err)}`)
      })
      if (replacement !== undefined && !this.#isRunningOrRebalancing()) await this.#dropThread(replacement)
      return
    }
    if (response === 'SHUTDOWN_APPLICATION' && this.#isRunningOrRebalancing()) {
      // Tell the group through the next rebalance: every member's leader-made assignment then
      // carries SHUTDOWN_REQUESTED and every instance shuts down (this one too, when it arrives).
      // The failed thread is gone; without another thread, one is started to carry the request
      // (as Kafka Streams does).
      Atomics.store(this.#control, CONTROL_SHUTDOWN_REQUESTED, 1)
      if (thread.state !== 'PENDING_SHUTDOWN' && thread.state !== 'DEAD') {
        await this.#dropThread(thread).catch(err => this.#logger.error(`Error while closing the failed ${thread.name}: ${String(err)}`))
      }
      const messenger = this.#aliveThreads()[0]
      if (messenger !== undefined) {
        messenger.requestRebalance()
        return
      }
      try {
        await this.#startThread(this.#resizeCaches(1))
        return
      } catch (err) {
        this.#logger.error(`Could not start a thread to ask the application to shut down: ${String(err)}`)
      }
    }
    await this.#shutDownInError(error.message)
  }

  async #shutDownInError(reason: string): Promise<void> {
    if (
      this.state() === 'PENDING_ERROR' ||
      this.state() === 'ERROR' ||
      this.state() === 'PENDING_SHUTDOWN' ||
      this.state() === 'NOT_RUNNING'
    )
      return
    this.#logger.error(`Shutting down in ERROR: ${reason}`)
    this.#lifecycle.transition('PENDING_ERROR')
    await this.#shutdownThreads(false)
    await this.#releaseStateDirectory()
    this.#lifecycle.transition('ERROR')
  }

  /** Stops the state cleaner, then lets go of the app lock. */
  async #releaseStateDirectory(): Promise<void> {
    await this.#stateCleaner?.stop()
    await this.#stateDirectory.unlock()
  }

  async #shutdownThreads(clean: boolean, leaveGroup = true): Promise<void> {
    const results = await Promise.allSettled(this.#threads.map(t => t.shutdown(clean, leaveGroup)))
    for (const r of results) if (r.status === 'rejected') this.#logger.error(`Error while closing a stream thread: ${String(r.reason)}`)
    await this.#globalThread?.shutdown().catch(err => this.#logger.error(`Error while closing the global stream thread: ${String(err)}`))
    await this.#lagAdmin?.close().catch(err => this.#logger.error(`Error while closing the lag admin client: ${String(err)}`))
    await this.#assignment?.close().catch(err => this.#logger.error(`Error while closing the assignor's admin client: ${String(err)}`))
  }

  /**
   * Pauses processing (KIP-834): no record is processed, no punctuator runs, no store is restored
   * and no standby is updated until resume(); the threads stay in the group and keep committing.
   * Only this instance pauses. Allowed before start(), which then starts paused.
   */
  pause(): void {
    Atomics.store(this.#control, CONTROL_PAUSED, 1)
  }

  /** Resumes what pause() stopped. */
  resume(): void {
    Atomics.store(this.#control, CONTROL_PAUSED, 0)
  }

  /** Whether the instance is paused (pause() without resume() since). */
  isPaused(): boolean {
    return Atomics.load(this.#control, CONTROL_PAUSED) === 1
  }

  /** The stream threads of this instance: name, state, tasks and client ids (Kafka's metadataForLocalThreads). */
  metadataForLocalThreads(): ThreadMetadata[] {
    return this.#threads.filter(t => t.state !== 'DEAD').map(t => t.metadata())
  }

  /**
   * Starts one more stream thread, which joins the group (a rebalance spreads the tasks anew);
   * the record cache is shared out again among the threads. Resolves to the new thread's name,
   * or undefined when the client is not RUNNING or REBALANCING (Kafka's addStreamThread).
   */
  async addStreamThread(): Promise<string | undefined> {
    if (!this.#isRunningOrRebalancing()) return undefined
    const perThread = this.#resizeCaches(this.#aliveThreads().length + 1)
    let thread: StreamThread | WorkerStreamThread
    try {
      thread = await this.#startThread(perThread)
    } catch (err) {
      this.#resizeCaches(this.#aliveThreads().length)
      throw err
    }
    if (!this.#isRunningOrRebalancing()) {
      // The client began to close while the thread joined: it must not outlive the client.
      await this.#dropThread(thread)
      return undefined
    }
    return thread.name
  }

  /**
   * Stops the oldest alive stream thread cleanly (it commits and leaves the group: a rebalance
   * moves its tasks) and shares its record cache out among the others. Resolves to its name, or
   * undefined when the client is not RUNNING or REBALANCING or has no thread left (Kafka's
   * removeStreamThread).
   */
  async removeStreamThread(): Promise<string | undefined> {
    if (!this.#isRunningOrRebalancing()) return undefined
    const thread = this.#aliveThreads()[0]
    if (thread === undefined) return undefined
    await this.#dropThread(thread, true)
    return thread.name
  }

  /** Shuts a thread down (once, whoever else asks too), takes it out of the list and shares its cache out. */
  async #dropThread(thread: StreamThread | WorkerStreamThread, clean = false): Promise<void> {
    try {
      await thread.shutdown(clean)
    } finally {
      const index = this.#threads.indexOf(thread)
      if (index !== -1) this.#threads.splice(index, 1)
      this.#resizeCaches(this.#aliveThreads().length)
    }
  }

  #isRunningOrRebalancing(): boolean {
    return KafkaStreamsState.isRunningOrRebalancing(this.state())
  }

  #aliveThreads(): Array<StreamThread | WorkerStreamThread> {
    return this.#threads.filter(t => t.state !== 'DEAD' && t.state !== 'PENDING_SHUTDOWN')
  }

  /** Shares statestoreCacheMaxBytes equally among `threads` threads; returns the share. */
  #resizeCaches(threads: number): number {
    const perThread = Math.floor(this.#config.statestoreCacheMaxBytes / Math.max(1, threads))
    for (const t of this.#aliveThreads()) t.resizeCache(perThread)
    return perThread
  }

  /** This instance's `applicationServer` ("host:port"; an IPv6 host in brackets, `[::1]:8080`, however it was configured). */
  get applicationServer(): string | undefined {
    return this.#config.applicationServer
  }

  /**
   * A read-only view over the local stores named `storeName` (interactive queries). Every query
   * through it fails with a typed InvalidStateStoreError: STREAMS_REBALANCING (retriable) while
   * rebalancing, STATE_STORE_MIGRATED (retriable) once the store moved away,
   * INVALID_STATE_STORE_PARTITION for a partition that does not exist; unless stale stores are
   * enabled, only RUNNING active tasks are read.
   */
  store<T>(params: StoreQueryParameters<T>): T {
    return this.#queryProvider.getStore(params)
  }

  /**
   * Interactive Queries v2: runs `request`'s query on the local partitions of its store and
   * returns one result per partition (see StateQueryResult). Throws UNKNOWN_STATE_STORE,
   * STREAMS_NOT_STARTED, or NOT_RUNNING once the client is stopping or stopped.
   */
  query<R>(request: StateQueryRequest<R>): StateQueryResult<R> {
    return runStateQuery(request, {
      clientState: this.state(),
      threads: this.#queryableThreads(),
      globalStores: this.#globalStoreReads,
      storeNames: new Set(this.#def.storeBuilders.keys()),
      partitionExists: (name, partition) => this.#metadata.partitionExists(name, partition)
    })
  }

  /**
   * Which instance hosts `key` of `storeName` (active and standby hosts, partition). Before the
   * first assignment it returns KEY_QUERY_METADATA_NOT_AVAILABLE (partition -1); during a
   * rebalance, like Kafka Streams, the last assignment's view.
   */
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata
  /**
   * Which instance hosts `key` of `storeName`, its partition chosen by `partitioner` (the one the
   * store's input was written with), asked with the source topic with the most partitions and an
   * undefined value. It must return exactly one partition: a multicast, a drop or the default
   * partitioning is an ILLEGAL_ARGUMENT error, as in Kafka Streams.
   */
  queryMetadataForKey<K>(storeName: string, key: K, partitioner: StreamPartitioner<K, never>): KeyQueryMetadata
  queryMetadataForKey<K>(
    storeName: string,
    key: K,
    keySerializerOrPartitioner: Serializer<K> | StreamPartitioner<K, never>
  ): KeyQueryMetadata {
    this.#validateIsRunningOrRebalancing()
    return this.#metadata.keyQueryMetadataForKey(storeName, key, keySerializerOrPartitioner)
  }

  /** What every instance with an applicationServer hosts (empty before the first assignment). */
  metadataForAllStreamsClients(): StreamsMetadata[] {
    this.#validateIsRunningOrRebalancing()
    return this.#metadata.allMetadata()
  }

  /** The instances that host `storeName` (active or standby). */
  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    this.#validateIsRunningOrRebalancing()
    return this.#metadata.allMetadataForStore(storeName)
  }

  /** Per store and partition of this instance's tasks: changelog position, end offset and lag. */
  async allLocalStorePartitionLags(): Promise<Map<string, Map<number, LagInfo>>> {
    this.#validateIsRunningOrRebalancing()
    this.#lagAdmin ??= this.#clients.admin({
      clientId: `${this.#config.clientId ?? this.#config.applicationId}-lag-admin`,
      configs: resolveClientConfigs(this.#config, this.#config, this.#clients.clientConfigs ?? {}).admin.adapterConfigs
    })
    return localStorePartitionLags(
      this.#threads.flatMap(t => t.taskManager.changelogPositions()),
      this.#lagAdmin
    )
  }

  #validateIsRunningOrRebalancing(): void {
    const state = this.state()
    if (state === 'CREATED')
      throw new InvalidStateStoreError('STREAMS_NOT_STARTED', 'KafkaStreams has not been started yet (state CREATED)')
    if (state !== 'RUNNING' && state !== 'REBALANCING')
      throw new StreamsError('NOT_RUNNING', `KafkaStreams is not running (state ${state})`)
  }

  /** Lets every worker waiting at the start gate go on (threads started later do not wait). */
  #openStartGate(): void {
    Atomics.store(this.#control, CONTROL_START_GATE, 0)
    Atomics.notify(this.#control, CONTROL_START_GATE)
  }

  /**
   * Stops processing: commits, checkpoints, closes stores and clients. Idempotent. The stream
   * threads stay in the consumer group until their session times out unless `leaveGroup` (Kafka
   * Streams' CloseOptions). Resolves to false when `timeoutMs` passed first (closing goes on).
   */
  async close(options: CloseOptions = {}): Promise<boolean> {
    const { timeoutMs, leaveGroup = false } = options
    if (timeoutMs !== undefined && (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `CloseOptions.timeoutMs can't be negative, got ${String(timeoutMs)}`)
    }
    if (typeof leaveGroup !== 'boolean') {
      throw new StreamsError('ILLEGAL_ARGUMENT', `CloseOptions.leaveGroup must be a boolean, got ${String(leaveGroup)}`)
    }
    this.#closing ??= (async () => {
      const state = this.state()
      if (state === 'NOT_RUNNING' || state === 'ERROR' || state === 'PENDING_ERROR') return
      this.#lifecycle.transition('PENDING_SHUTDOWN')
      this.#openStartGate()
      // A start() in progress stops at its next step (a global bootstrap at once); wait for it,
      // so no thread it starts outlives the close.
      const bootstrapping = this.#globalThread?.shutdown()
      await this.#starting?.catch(() => undefined)
      await bootstrapping?.catch(() => undefined)
      await this.#shutdownThreads(true, leaveGroup)
      await this.#releaseStateDirectory()
      this.#lifecycle.transition('NOT_RUNNING')
    })()
    if (timeoutMs === undefined) {
      await this.#closing
      return true
    }
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<boolean>(resolve => {
      timer = setTimeout(() => resolve(false), timeoutMs)
    })
    const done = await Promise.race([this.#closing.then(() => true), timedOut])
    clearTimeout(timer)
    return done
  }

  /**
   * Deletes the local state of this application id; only when not running, and under the
   * state directory's lock: STATE_DIR_LOCKED while another instance runs on it.
   */
  async cleanUp(): Promise<void> {
    const state = this.state()
    if (state !== 'CREATED' && state !== 'NOT_RUNNING' && state !== 'ERROR') {
      throw new StreamsError('ILLEGAL_STATE', `Cannot clean up while running (state ${state})`)
    }
    await this.#stateDirectory.cleanUp()
  }
}
