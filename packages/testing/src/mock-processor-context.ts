/**
 * A ProcessorContext for unit-testing one processor (Kafka Streams' `api.MockProcessorContext`):
 * it captures forwards and commit requests, records scheduled punctuators so the test can fire
 * them, and lets the test set the record metadata, stream time and wall-clock time. Its metrics
 * record at DEBUG level, as Kafka's mock's do.
 */
import {
  type Cancellable,
  type ProcessorContext,
  type PunctuationType,
  type Punctuator,
  type Record,
  type RecordMetadata,
  type ResolvedStreamsConfig,
  type StateRestoreCallback,
  type StateStore,
  type StateStoreContext,
  type StreamsConfig,
  type Serde,
  type StreamsMetrics,
  InvalidStateStoreError,
  StreamsError,
  TaskId,
  resolveStreamsConfig
} from '@kstreams/core'
import { StreamsMetricsRegistry, configsWithPrefix, defaultKeySerde, defaultValueSerde } from '@kstreams/core/internal'

/** A record the processor forwarded to a MockProcessorContext. */
export interface CapturedForward<K, V> {
  /** The record. */
  readonly record: Record<K, V>
  /** The child it was sent to, or undefined for all children. */
  readonly childName: string | undefined
}

/** A punctuator the processor scheduled on a MockProcessorContext; the test calls `punctuator` to fire it. */
export class CapturedPunctuator implements Cancellable {
  #cancelled = false
  constructor(
    /** The interval it was scheduled with (ms). */
    readonly intervalMs: number,
    /** Stream time or wall-clock time. */
    readonly type: PunctuationType,
    /** The punctuator itself. */
    readonly punctuator: Punctuator
  ) {}
  /** Whether the processor cancelled it. */
  get cancelled(): boolean {
    return this.#cancelled
  }
  cancel(): void {
    this.#cancelled = true
  }
}

/**
 * A ProcessorContext for unit-testing one processor (Kafka Streams' MockProcessorContext): captures
 * forwards, commit requests and scheduled punctuators; the test sets record metadata and time.
 */
export class MockProcessorContext<KForward = unknown, VForward = unknown> implements ProcessorContext<KForward, VForward> {
  readonly applicationId: string
  readonly taskId: TaskId
  readonly appConfigs: ResolvedStreamsConfig
  readonly stateDir: string | undefined
  readonly #forwarded: Array<CapturedForward<KForward, VForward>> = []
  readonly #punctuators: CapturedPunctuator[] = []
  readonly #stores = new Map<string, StateStore>()
  readonly #restoreCallbacks = new Map<string, StateRestoreCallback>()
  readonly #metrics = new StreamsMetricsRegistry({ recordingLevel: 'DEBUG', threadId: 'main' })
  #metadata: RecordMetadata | undefined
  #committed = false
  #streamTime = -1
  #systemTime = Date.now()

  constructor(config: StreamsConfig = {}, taskId: TaskId = new TaskId(0, 0), stateDir?: string) {
    this.appConfigs = resolveStreamsConfig({ applicationId: 'dummy-application-id', ...config })
    this.applicationId = this.appConfigs.applicationId
    this.taskId = taskId
    this.stateDir = stateDir
  }

  // Inputs the test sets

  /** Sets what recordMetadata() returns, as if a record of `topic`, `partition`, `offset` were being processed. */
  setRecordMetadata(topic: string, partition: number, offset: number): void {
    this.#metadata = { topic, partition, offset }
  }

  /** Makes recordMetadata() return undefined again (as inside a punctuation). */
  clearRecordMetadata(): void {
    this.#metadata = undefined
  }

  /** Sets what currentStreamTimeMs() returns. */
  setCurrentStreamTimeMs(ms: number): void {
    this.#streamTime = ms
  }
  /** Sets what currentSystemTimeMs() returns. */
  setCurrentSystemTimeMs(ms: number): void {
    this.#systemTime = ms
  }

  /** Makes a store available to getStateStore (initialise it with getStateStoreContext()). */
  addStateStore(store: StateStore): void {
    this.#stores.set(store.name, store)
  }

  /** A context to pass to `store.init(context, store)` for stores used with this mock. */
  getStateStoreContext(): StateStoreContext {
    return {
      applicationId: this.applicationId,
      taskId: this.taskId,
      appConfigs: this.appConfigs,
      stateDir: this.stateDir,
      appConfigsWithPrefix: prefix => this.appConfigsWithPrefix(prefix),
      keySerde: () => this.keySerde(),
      valueSerde: () => this.valueSerde(),
      recordMetadata: () => this.#metadata,
      register: (store, restore) => {
        this.#restoreCallbacks.set(store.name, restore)
      },
      changelogWriter: () => undefined,
      metrics: () => this.#metrics,
      metricsRegistry: this.#metrics
    }
  }

  // Captured outputs

  /** The records forwarded so far, in order; only those sent to `childName` when given. */
  forwarded(childName?: string): Array<CapturedForward<KForward, VForward>> {
    return childName === undefined ? [...this.#forwarded] : this.#forwarded.filter(f => f.childName === childName)
  }

  /** Forgets the records forwarded so far. */
  resetForwards(): void {
    this.#forwarded.length = 0
  }

  /** The punctuators scheduled so far, in order. */
  scheduledPunctuators(): CapturedPunctuator[] {
    return [...this.#punctuators]
  }

  /** Whether the processor requested a commit since the last resetCommit(). */
  committed(): boolean {
    return this.#committed
  }

  /** Forgets the commit request. */
  resetCommit(): void {
    this.#committed = false
  }

  // ProcessorContext

  appConfigsWithPrefix(prefix: string): { readonly [key: string]: unknown } {
    return configsWithPrefix(this.appConfigs, prefix)
  }

  keySerde(): Serde<unknown> {
    return defaultKeySerde(this.appConfigs)
  }

  valueSerde(): Serde<unknown> {
    return defaultValueSerde(this.appConfigs)
  }

  metrics(): StreamsMetrics {
    return this.#metrics
  }

  forward<K extends KForward, V extends VForward>(record: Record<K, V>, childName?: string): void {
    this.#forwarded.push({ record, childName })
  }

  recordMetadata(): RecordMetadata | undefined {
    return this.#metadata
  }

  getStateStore<S extends StateStore = StateStore>(name: string): S {
    const store = this.#stores.get(name)
    if (store === undefined)
      throw new InvalidStateStoreError('UNKNOWN_STORE', `State store ${name} was not added to the MockProcessorContext (use addStateStore)`)
    return store as S
  }

  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    if (!Number.isSafeInteger(intervalMs) || intervalMs < 1)
      throw new StreamsError('ILLEGAL_ARGUMENT', `The minimum supported scheduling interval is 1 millisecond, got ${intervalMs}`)
    const captured = new CapturedPunctuator(intervalMs, type, punctuator)
    this.#punctuators.push(captured)
    return captured
  }

  commit(): void {
    this.#committed = true
  }

  currentStreamTimeMs(): number {
    return this.#streamTime
  }
  currentSystemTimeMs(): number {
    return this.#systemTime
  }
}
