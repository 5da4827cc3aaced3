/**
 * Runs a topology without Kafka, through the same processor graph, stores and punctuation code
 * as the runtime: the whole topology is one task (0_0), every topic has one partition, offsets
 * start at 0, and a commit follows every input record. Wall-clock time moves only through
 * advanceWallClockTime. Records written to a topic the topology reads (repartition topics) are
 * processed in the same call; records written to a global topic update the global store.
 * Like Kafka's driver it has one record cache (`statestoreCacheMaxBytes`) and one metrics
 * registry, and captures changelog records as output on `<applicationId>-<store>-changelog`.
 * Each driver has its own state directory, as Kafka's: a fresh temporary directory unless
 * `stateDir` is given, in which it uses `<stateDir>/<applicationId>`; close() removes it, so no
 * test sees the persistent state of another.
 */
import {
  type ChangelogWriter,
  type DeserializerLike,
  Headers,
  type KeyValueStore,
  ManualClock,
  type SerializerLike,
  type StateStore,
  type StreamsConfig,
  StreamsError,
  TaskId,
  type TimestampedKeyValueStore,
  type Topology,
  resolveStreamsConfig,
  type SessionStore,
  type StateQueryRequest,
  type StateQueryResult,
  type TimestampedWindowStore,
  type VersionedKeyValueStore,
  type WindowStore
} from '@kstreams/core'
import {
  GlobalStateUpdateTask,
  StateDirectory,
  StreamTask,
  TOPOLOGY_DEF,
  type CollectedRecord,
  type TopologyDef,
  runStateQuery
} from '@kstreams/core/internal'
import { StreamsMetricsRegistry, ThreadCache, type MetricSnapshot, type RecordingLevel } from '@kstreams/core/internal'
import { MeteredVersionedKeyValueStore } from '@kstreams/core/internal'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TestInputTopic, type InputPipe } from './test-input-topic.js'
import { TestOutputTopic, type OutputSource } from './test-output-topic.js'
import {
  isKeyValueStore,
  isSessionStore,
  isTimestampedKeyValueStore,
  isTimestampedWindowStore,
  isWindowStore,
  plainValueView,
  plainWindowValueView
} from './store-views.js'

const DEFAULT_APPLICATION_ID = 'dummy-topology-test-driver-app-id'

/**
 * Runs a topology without Kafka (Kafka Streams' TopologyTestDriver): pipe records into its input
 * topics, read what it wrote from its output topics, inspect its stores, move wall-clock time.
 */
export class TopologyTestDriver implements InputPipe, OutputSource {
  readonly #def: TopologyDef
  readonly #clock: ManualClock
  readonly #task: StreamTask | undefined
  readonly #globalTask: GlobalStateUpdateTask | undefined
  readonly #outputs = new Map<string, CollectedRecord[]>()
  readonly #produced = new Set<string>()
  readonly #offsets = new Map<string, number>()
  readonly #pending: CollectedRecord[] = []
  readonly #metrics: StreamsMetricsRegistry
  /** What close() removes: the driver's own temporary state directory, or `<stateDir>/<applicationId>`. */
  readonly #stateDirToRemove: string
  #ready = false
  #closed = false

  /**
   * Creates a driver whose stores open synchronously (every in-memory store). Use
   * `TopologyTestDriver.create` when a store opens asynchronously (RocksDB).
   */
  constructor(topology: Topology, config: StreamsConfig = {}, initialWallClockTimeMs?: number) {
    // Like Kafka Streams' driver: the DSL's emit throttles are off unless the user sets them.
    const resolved = resolveStreamsConfig({
      applicationId: DEFAULT_APPLICATION_ID,
      ...config,
      outerJoinEmitIntervalMs: config.outerJoinEmitIntervalMs ?? 0,
      windowedAggregationEmitIntervalMs: config.windowedAggregationEmitIntervalMs ?? 0
    })
    // resolveStreamsConfig checked the application id as for the runtime ('..' would write outside stateDir).
    const own = config.stateDir === undefined ? mkdtempSync(join(tmpdir(), 'kstreams-topology-test-driver-')) : undefined
    const stateDirectory = new StateDirectory(own ?? resolved.stateDir, resolved.applicationId)
    this.#stateDirToRemove = own ?? stateDirectory.appDir
    try {
      this.#def = topology[TOPOLOGY_DEF]()
      this.#clock = new ManualClock(initialWallClockTimeMs ?? Date.now())
      const recordingLevel: RecordingLevel = resolved.metricsRecordingLevel
      this.#metrics = new StreamsMetricsRegistry({ recordingLevel, clock: this.#clock, threadId: 'main' })
      if (this.#def.globalStores.length > 0) {
        this.#globalTask = new GlobalStateUpdateTask({
          topology: this.#def,
          config: resolved,
          clock: this.#clock,
          stateDir: stateDirectory.globalDir(),
          metrics: this.#metrics
        })
      }
      if (this.#def.subtopologies.length > 0) {
        this.#task = new StreamTask({
          id: new TaskId(0, 0),
          topology: this.#def,
          subtopologies: this.#def.subtopologies.map(s => s.id),
          config: resolved,
          clock: this.#clock,
          collector: {
            send: r => {
              this.#pending.push(r)
            },
            partitionsFor: () => 1
          },
          stateDir: stateDirectory.taskDir(new TaskId(0, 0)),
          globalStores: this.#globalTask?.stores ?? new Map(),
          cache: new ThreadCache({ maxCacheSizeBytes: resolved.statestoreCacheMaxBytes, metrics: this.#metrics }),
          metrics: this.#metrics,
          changelogWriter: storeName => this.#changelogWriter(`${resolved.applicationId}-${storeName}-changelog`)
        })
      }
      const opened = this.#initialize()
      if (opened instanceof Promise) {
        this.#initPromise = opened
        opened.catch(() => {})
      }
    } catch (err) {
      this.#removeStateDir()
      throw err
    }
  }

  #initPromise: Promise<void> | undefined

  /** Changelog records are produced like any output, to partition 0 of the changelog topic. */
  #changelogWriter(topic: string): ChangelogWriter {
    return {
      append: (key, value, timestamp) => {
        this.#pending.push({ topic, partition: 0, key, value, headers: new Headers(), timestamp })
      }
    }
  }

  /** Creates a driver and waits until every store is open. */
  static async create(topology: Topology, config: StreamsConfig = {}, initialWallClockTimeMs?: number): Promise<TopologyTestDriver> {
    const driver = new TopologyTestDriver(topology, config, initialWallClockTimeMs)
    try {
      await driver.#initPromise
    } catch (err) {
      try {
        driver.close()
      } catch {
        /* the open error is the one to report */
      }
      throw err
    }
    return driver
  }

  #initialize(): void | Promise<void> {
    const globalOpened = this.#globalTask?.initialize()
    const finish = (): void | Promise<void> => {
      const opened = this.#task?.initializeStores()
      const start = (): void => {
        this.#task?.initializeTopology()
        this.#ready = true
      }
      if (opened instanceof Promise) return opened.then(start)
      start()
    }
    if (globalOpened instanceof Promise) return globalOpened.then(finish)
    return finish()
  }

  #checkUsable(): void {
    if (this.#closed) throw new StreamsError('ILLEGAL_STATE', 'The TopologyTestDriver is closed')
    if (!this.#ready) {
      throw new StreamsError(
        'ILLEGAL_STATE',
        'The topology has a store that opens asynchronously: create the driver with `await TopologyTestDriver.create(topology, config)`'
      )
    }
  }

  /**
   * An input topic of the topology to pipe records into; records without a timestamp get the topic's
   * time, which starts at `startTimestampMs` (default: the driver's wall-clock time) and moves by
   * `autoAdvanceMs` after each.
   */
  createInputTopic<K, V>(
    name: string,
    keySerializer: SerializerLike<K>,
    valueSerializer: SerializerLike<V>,
    startTimestampMs?: number,
    autoAdvanceMs = 0
  ): TestInputTopic<K, V> {
    this.#checkKnownTopic(name)
    return new TestInputTopic(this, name, keySerializer, valueSerializer, startTimestampMs ?? this.#clock.milliseconds(), autoAdvanceMs)
  }

  /** A topic the topology writes to, to read its records from. */
  createOutputTopic<K, V>(
    name: string,
    keyDeserializer: DeserializerLike<K>,
    valueDeserializer: DeserializerLike<V>
  ): TestOutputTopic<K, V> {
    return new TestOutputTopic(this, name, keyDeserializer, valueDeserializer)
  }

  #isGlobalTopic(topic: string): boolean {
    return this.#def.globalStores.some(g => g.topic === topic)
  }

  #checkKnownTopic(topic: string): void {
    if (this.#isGlobalTopic(topic) || this.#task?.readsTopic(topic) === true) return
    throw new StreamsError(
      'UNKNOWN_TOPIC',
      `Unknown topic: ${topic}. It is neither an input topic of the topology nor a global store topic`
    )
  }

  /** @internal */
  pipeRecord(topic: string, key: Buffer | null, value: Buffer | null, timestamp: number, headers: Headers): void {
    this.#checkUsable()
    this.#checkKnownTopic(topic)
    const offset = this.#offsets.get(topic) ?? 0
    this.#offsets.set(topic, offset + 1)
    const raw = { topic, partition: 0, offset, timestamp, key, value, headers }
    if (this.#isGlobalTopic(topic)) {
      this.#globalTask!.update(raw)
      this.#globalTask!.flush()
      return
    }
    this.#task!.addRecords(topic, 0, [raw])
    this.#completeAllProcessableWork()
  }

  #completeAllProcessableWork(): void {
    const task = this.#task
    if (task === undefined) return
    while (task.hasRecordsQueued()) {
      task.process()
      task.maybePunctuateStreamTime()
      this.#commit()
      this.#captureOutputs()
    }
  }

  #commit(): void {
    this.#task?.prepareCommit()
    this.#task?.postCommit()
  }

  /** Moves captured sends to the output queues; re-enqueues those the topology reads. */
  #captureOutputs(): void {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0)
      for (const r of batch) {
        this.#produced.add(r.topic)
        let queue = this.#outputs.get(r.topic)
        if (queue === undefined) this.#outputs.set(r.topic, (queue = []))
        queue.push(r)
        if (this.#isGlobalTopic(r.topic)) {
          this.pipeRecord(r.topic, r.key, r.value, r.timestamp, r.headers)
        } else if (this.#task?.readsTopic(r.topic) === true) {
          const offset = this.#offsets.get(r.topic) ?? 0
          this.#offsets.set(r.topic, offset + 1)
          this.#task.addRecords(r.topic, 0, [
            { topic: r.topic, partition: 0, offset, timestamp: r.timestamp, key: r.key, value: r.value, headers: r.headers }
          ])
        }
      }
    }
  }

  /** Advances wall-clock time, fires due WALL_CLOCK_TIME punctuations, commits, then processes. */
  advanceWallClockTime(ms: number): void {
    this.#checkUsable()
    if (!(ms >= 0)) throw new StreamsError('ILLEGAL_ARGUMENT', `advance must be non-negative, got ${ms}`)
    this.#clock.advance(ms)
    if (this.#task !== undefined) {
      this.#task.maybePunctuateSystemTime()
      this.#commit()
    }
    this.#captureOutputs()
    this.#completeAllProcessableWork()
  }

  /** @internal */
  readOutput(topic: string): CollectedRecord | undefined {
    return this.#outputs.get(topic)?.shift()
  }

  /** @internal */
  outputSize(topic: string): number {
    return this.#outputs.get(topic)?.length ?? 0
  }

  /** Every topic the topology has written to, internal topics included. */
  producedTopicNames(): Set<string> {
    return new Set(this.#produced)
  }

  /** Every metric of the driver's stores and record cache, with its current value. */
  metrics(): MetricSnapshot[] {
    return this.#metrics.metrics()
  }

  /** A local or global store by name, or undefined. */
  getStateStore<S extends StateStore = StateStore>(name: string): S | undefined {
    return (this.#task?.stores.get(name) ?? this.#globalTask?.stores.get(name)) as S | undefined
  }

  /**
   * Interactive Queries v2 on the driver's stores, as `KafkaStreams.query()` of one RUNNING
   * instance whose one task (0_0) holds partition 0 of every store: the store answers through
   * its `query()` (the built-in stores the built-in queries, a custom store its own); a global
   * store answers one UNKNOWN_QUERY_TYPE global result, as in Kafka Streams 4.x. Throws
   * UNKNOWN_STATE_STORE for a store not in the topology, and ILLEGAL_STATE once closed.
   */
  query<R>(request: StateQueryRequest<R>): StateQueryResult<R> {
    this.#checkUsable()
    const task = this.#task
    return runStateQuery(request, {
      clientState: 'RUNNING',
      threads: [
        {
          state: 'RUNNING',
          localStores: name => {
            const store = task?.stores.get(name)
            return store === undefined ? [] : [{ partition: 0, store }]
          }
        }
      ],
      globalStores: this.#globalTask?.stores ?? new Map(),
      storeNames: new Set(this.getAllStateStores().keys()),
      partitionExists: (_name, partition) => partition === 0
    })
  }

  /** Every local and global store, by name. */
  getAllStateStores(): Map<string, StateStore> {
    const all = new Map<string, StateStore>()
    for (const [name, s] of this.#globalTask?.stores ?? []) all.set(name, s)
    for (const [name, s] of this.#task?.stores ?? []) all.set(name, s)
    return all
  }

  /** A key-value store by name; a timestamped store is returned as a view of plain values. */
  getKeyValueStore<K, V>(name: string): KeyValueStore<K, V> | undefined {
    const store = this.getStateStore(name)
    if (store === undefined) return undefined
    if (isTimestampedKeyValueStore(store)) return plainValueView(store as unknown as TimestampedKeyValueStore<K, V>)
    if (isKeyValueStore(store)) return store as unknown as KeyValueStore<K, V>
    throw new StreamsError('ILLEGAL_ARGUMENT', `State store ${name} is not a key-value store`)
  }

  /** A timestamped key-value store by name, or undefined. */
  getTimestampedKeyValueStore<K, V>(name: string): TimestampedKeyValueStore<K, V> | undefined {
    const store = this.getStateStore(name)
    if (store === undefined) return undefined
    if (isTimestampedKeyValueStore(store)) return store as unknown as TimestampedKeyValueStore<K, V>
    throw new StreamsError('ILLEGAL_ARGUMENT', `State store ${name} is not a timestamped key-value store`)
  }

  /** A versioned key-value store by name (Kafka's `getVersionedKeyValueStore`), or undefined. */
  getVersionedKeyValueStore<K, V>(name: string): VersionedKeyValueStore<K, V> | undefined {
    const store = this.getStateStore(name)
    if (store === undefined) return undefined
    if (store instanceof MeteredVersionedKeyValueStore) return store as VersionedKeyValueStore<K, V>
    throw new StreamsError('ILLEGAL_ARGUMENT', `State store ${name} is not a versioned key-value store`)
  }

  /** A window store by name; a timestamped window store is returned as a view of plain values. */
  getWindowStore<K, V>(name: string): WindowStore<K, V> | undefined {
    const store = this.getStateStore(name)
    if (store === undefined) return undefined
    if (isTimestampedWindowStore(store)) return plainWindowValueView(store as unknown as TimestampedWindowStore<K, V>)
    if (isWindowStore(store)) return store as unknown as WindowStore<K, V>
    throw new StreamsError('ILLEGAL_ARGUMENT', `State store ${name} is not a window store`)
  }

  /** A timestamped window store by name, or undefined. */
  getTimestampedWindowStore<K, V>(name: string): TimestampedWindowStore<K, V> | undefined {
    const store = this.getStateStore(name)
    if (store === undefined) return undefined
    if (isTimestampedWindowStore(store)) return store as unknown as TimestampedWindowStore<K, V>
    throw new StreamsError('ILLEGAL_ARGUMENT', `State store ${name} is not a timestamped window store`)
  }

  /** A session store by name, or undefined. */
  getSessionStore<K, V>(name: string): SessionStore<K, V> | undefined {
    const store = this.getStateStore(name)
    if (store === undefined) return undefined
    if (isSessionStore(store)) return store as unknown as SessionStore<K, V>
    throw new StreamsError('ILLEGAL_ARGUMENT', `State store ${name} is not a session store`)
  }

  /**
   * Closes processors and stores and removes the driver's state directory; idempotent. A store
   * that lets go of its files in the background (RocksDB) may still hold them for a moment: use
   * `await closeAsync()` when the next step needs the directory gone.
   */
  close(): void {
    this.#close(true)
  }

  /** close(), then waits until every store has let go of its files and removes the state directory again. */
  async closeAsync(): Promise<void> {
    if (this.#closed) return
    const stores = [...this.getAllStateStores().values()]
    this.#close(false)
    await Promise.all(stores.map(async store => await store.whenClosed?.()))
    this.#removeStateDir()
  }

  #close(removeStateDir: boolean): void {
    if (this.#closed) return
    this.#closed = true
    let first: unknown
    try {
      if (this.#ready) {
        this.#commit()
        this.#captureOutputs()
      }
    } catch (err) {
      first ??= err
    }
    try {
      this.#task?.close()
    } catch (err) {
      first ??= err
    }
    try {
      this.#globalTask?.close()
    } catch (err) {
      first ??= err
    }
    try {
      if (removeStateDir) this.#removeStateDir()
    } catch (err) {
      first ??= err
    }
    if (first !== undefined) throw first
  }

  /** Kafka's StateDirectory.clean() at close: the stores are closed, their files go. */
  #removeStateDir(): void {
    rmSync(this.#stateDirToRemove, { recursive: true, force: true, maxRetries: 3 })
  }

  /** Closes the driver (for `using`). */
  [Symbol.dispose](): void {
    this.close()
  }

  /** Closes the driver once its stores let go of their files (for `await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.closeAsync()
  }
}
