/**
 * What the typed outer layers of key-value, window and session stores share (Kafka's
 * MeteredKeyValueStore, MeteredWindowStore and MeteredSessionStore): the layer below, the serdes
 * given to the builder, resolved at init (falling back to the configured default serdes, seeing
 * the changelog topic), the not-open check, the flush listener that hands the caching layer's
 * flushed entries on deserialized, the lifecycle passed through to the layer below, and IQv2
 * queries (the built-in query types answered here, through the typed operations, after the
 * position bound check; any other query handed to the layers below). Each concrete layer adds
 * its typed operations; the key-value layer adds its sensors. @internal
 */
import { InvalidStateStoreError } from '../errors.js'
import type { Serde } from '../serialization/serde.js'
import { type CacheFlushListener, isCachedStateStore } from './cached-state-store.js'
import type { StateStore, StateStoreContext } from './state-store.js'
import type { StateSerdes } from './state-serdes.js'
import { prepareStoreSerdes } from './store-serde-initializer.js'
import { Position, type PositionBound } from '../runtime/iq/v2/position.js'
import type { Query } from '../runtime/iq/v2/query.js'
import type { QueryConfig } from '../runtime/iq/v2/query-config.js'
import { QueryResult } from '../runtime/iq/v2/query-result.js'
import { isBuiltInQuery } from '../runtime/iq/v2/store-query-handler.js'
import { noteQueryExecution, startQueryTimer } from '../runtime/iq/v2/execution-info.js'

export interface MeteredStoreBaseOptions<I, K, V> {
  /** The layer below: caching, change-logging or the backend bytes store. */
  inner: I
  /** The supplier's metrics scope ('in-memory', 'rocksdb-window', ...), for metric names. */
  metricsScope: string
  /** When undefined, `defaultKeySerde` from the app configs is used at init. */
  keySerde?: Serde<K> | undefined
  /** When undefined, `defaultValueSerde` from the app configs is used at init. */
  valueSerde?: Serde<V> | undefined
}

/** `I` is the bytes store below, `FK` the key type the flush listener sees. */
export abstract class MeteredStoreBase<I extends StateStore, K, V, FK> {
  readonly #inner: I
  readonly #metricsScope: string
  readonly #keySerde: Serde<K> | undefined
  readonly #valueSerde: Serde<V> | undefined
  #serdes: StateSerdes<K, V> | undefined
  #context: StateStoreContext | undefined
  readonly #position = Position.emptyPosition()

  constructor(options: MeteredStoreBaseOptions<I, K, V>) {
    this.#inner = options.inner
    this.#metricsScope = options.metricsScope
    this.#keySerde = options.keySerde
    this.#valueSerde = options.valueSerde
  }

  get name(): string {
    return this.#inner.name
  }

  get persistent(): boolean {
    return this.#inner.persistent
  }

  /** The metrics scope of the backend ('in-memory', 'rocksdb', ...). */
  get metricsScope(): string {
    return this.#metricsScope
  }

  /** Resolves the serdes, then opens the layers below (which register the store for restore). */
  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#context = context
    this.#serdes = prepareStoreSerdes(context, this.name, this.#keySerde, this.#valueSerde, (configured, defaultSerde) =>
      this.prepareValueSerde(configured, defaultSerde)
    )
    return this.openInner(context, root)
  }

  /**
   * Sets the listener the caching layer calls with each flushed entry, deserialized. Returns false
   * when the store has no caching layer (or no record cache): the caller forwards changes itself.
   */
  setFlushListener(listener: CacheFlushListener<FK, V>, sendOldValues: boolean): boolean {
    const inner = this.#inner
    if (!isCachedStateStore<Buffer, Buffer>(inner)) return false
    return inner.setFlushListener((storeKey, newValue, oldValue, timestamp, recordContext) => {
      const serdes = this.requireSerdes()
      listener(this.flushedKey(storeKey, serdes), serdes.valueFrom(newValue), serdes.valueFrom(oldValue), timestamp, recordContext)
    }, sendOldValues)
  }

  flush(): void {
    this.#inner.flush()
  }

  close(): void {
    this.#inner.close()
  }

  async whenClosed(): Promise<void> {
    await this.#inner.whenClosed?.()
  }

  isOpen(): boolean {
    return this.#inner.isOpen()
  }

  /** The layer below. */
  protected get inner(): I {
    return this.#inner
  }

  /** Opens the layers below, once the serdes are resolved. */
  protected openInner(context: StateStoreContext, root: StateStore): void | Promise<void> {
    return this.#inner.init(this.innerContext(context), root)
  }

  /** The typed key of a flushed entry, from the store key the caching layer flushed. */
  protected abstract flushedKey(storeKey: Buffer, serdes: StateSerdes<K, V>): FK

  /** The context handed to the layers below; the timestamped stores convert restored records. */
  protected innerContext(context: StateStoreContext): StateStoreContext {
    return context
  }

  /**
   * Chooses the value serde from the one given to the builder and the configured default. The
   * timestamped stores override it to wrap the plain value serde. Undefined means none is set.
   */
  protected prepareValueSerde(configured: Serde<V> | undefined, defaultSerde: Serde<unknown> | undefined): Serde<V> | undefined {
    return configured ?? (defaultSerde as Serde<V> | undefined)
  }

  /**
   * How far the store has seen its input (IQv2's Position): the offsets of the records whose
   * processing wrote to it. The live object: copy it to keep it.
   */
  getPosition(): Position {
    return this.#position
  }

  /**
   * Answers an IQv2 query (StateStore.query): a built-in query type is checked against
   * `positionBound` (NOT_UP_TO_BOUND when the store is behind it or not initialised) and answered
   * through the typed operations (UNKNOWN_QUERY_TYPE when this store kind does not answer it,
   * STORE_EXCEPTION when the store throws); any other query goes to the layers below (a custom
   * backend may answer its own query types). The result carries the store's position.
   */
  query<R>(query: Query<R>, positionBound: PositionBound, config: QueryConfig): QueryResult<R> {
    const started = startQueryTimer(config)
    let result: QueryResult<unknown>
    if (!isBuiltInQuery(query)) {
      result = this.#inner.query?.(query, positionBound, config) ?? QueryResult.forUnknownQueryType(query, this.#inner)
      if (result.getPosition().isEmpty()) result.setPosition(this.#position)
    } else {
      const partition = this.#context?.taskId.partition
      if (partition === undefined || !positionBound.permits(this.#position, partition)) {
        result = QueryResult.notUpToBound(this.#position, positionBound, partition)
      } else {
        result = this.#runBuiltInQuery(query)
        result.setPosition(this.#position)
      }
    }
    noteQueryExecution(result, config, started, `Handled in ${this.constructor.name} of store ${this.name}`)
    return result as QueryResult<R>
  }

  /** The store's answer to a built-in query; undefined when this store kind does not answer its type (the default). */
  protected builtInQuery(_query: Query<unknown>): QueryResult<unknown> | undefined {
    return undefined
  }

  #runBuiltInQuery(query: Query<unknown>): QueryResult<unknown> {
    try {
      return this.builtInQuery(query) ?? QueryResult.forUnknownQueryType(query, this as unknown as StateStore)
    } catch (err) {
      return QueryResult.forFailure(
        'STORE_EXCEPTION',
        `Store ${this.name} (${this.constructor.name}) failed to answer ${String(query)}: ${err instanceof Error ? err.message : String(err)}`
      )
    }
  }

  /** The serdes for a write, which also moves the store's position to the current record. */
  protected writeSerdes(): StateSerdes<K, V> {
    const serdes = this.requireSerdes()
    const metadata = this.#context?.recordMetadata()
    if (metadata !== undefined && metadata.offset >= 0) this.#position.update(metadata.topic, metadata.partition, metadata.offset)
    return serdes
  }

  /** The serdes; throws STORE_NOT_OPEN before init. */
  protected requireSerdes(): StateSerdes<K, V> {
    const serdes = this.#serdes
    if (serdes === undefined) {
      throw new InvalidStateStoreError('STORE_NOT_OPEN', `Store "${this.name}" is not open: it has not been initialised`)
    }
    return serdes
  }

  /** A range bound serialized; undefined (or null) stays open. */
  protected rawBound(serdes: StateSerdes<K, V>, bound: K | undefined): Buffer | undefined {
    return bound === undefined || bound === null ? undefined : serdes.rawKey(bound)
  }
}
