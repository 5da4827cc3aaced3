/**
 * How a stream-stream join is configured (Kafka Streams' `StreamJoined`): the serdes of the key and
 * of both streams' values (for the join stores and any repartition topics), the processor name
 * prefix (`withName`), the store name prefix (`withStoreName`), explicit window store suppliers for
 * either side (they must retain duplicates and match the JoinWindows), the store backend, and the
 * changelog settings of the join stores. Immutable: `with*` returns a copy.
 */
import { StreamsError } from '@kstreams/core'
import type { DslStoreSuppliers, Serde, WindowBytesStoreSupplier } from '@kstreams/core'
import { validateName } from './named.js'
import { isDslStoreSuppliers } from './internal/is-dsl-store-suppliers.js'

interface StreamJoinedFields<K, V, VO> {
  readonly keySerde?: Serde<K> | undefined
  readonly valueSerde?: Serde<V> | undefined
  readonly otherValueSerde?: Serde<VO> | undefined
  readonly thisStoreSupplier?: WindowBytesStoreSupplier | undefined
  readonly otherStoreSupplier?: WindowBytesStoreSupplier | undefined
  readonly dslStoreSuppliers?: DslStoreSuppliers | undefined
  readonly name?: string | undefined
  readonly storeName?: string | undefined
  readonly loggingEnabled?: boolean
  readonly logConfig?: Readonly<Record<string, string>>
}

/**
 * How a stream-stream join is configured (Kafka Streams' StreamJoined): serdes, names, the join
 * stores' suppliers or backend, and their changelogs. Immutable.
 */
export class StreamJoined<K, V, VO> {
  /** The key serde; undefined: the upstream or default serde. */
  readonly keySerde: Serde<K> | undefined
  /** This stream's value serde; undefined: the upstream or default serde. */
  readonly valueSerde: Serde<V> | undefined
  /** The other stream's value serde; undefined: the upstream or default serde. */
  readonly otherValueSerde: Serde<VO> | undefined
  /** The window store supplier of this stream's join store; undefined: from the backend. */
  readonly thisStoreSupplier: WindowBytesStoreSupplier | undefined
  /** The window store supplier of the other stream's join store; undefined: from the backend. */
  readonly otherStoreSupplier: WindowBytesStoreSupplier | undefined
  /** The backend of join stores without an explicit supplier; undefined: the config's dslStoreSuppliers. */
  readonly dslStoreSuppliers: DslStoreSuppliers | undefined
  /** The prefix of the join's processor names; undefined: generated. */
  readonly name: string | undefined
  /** The prefix of the join's store names; undefined: generated. */
  readonly storeName: string | undefined
  /** Whether the join stores write changelog topics (default true). */
  readonly loggingEnabled: boolean
  /** Topic configs of the changelog topics. */
  readonly logConfig: Readonly<Record<string, string>>

  private constructor(fields: StreamJoinedFields<K, V, VO>) {
    this.keySerde = fields.keySerde
    this.valueSerde = fields.valueSerde
    this.otherValueSerde = fields.otherValueSerde
    this.thisStoreSupplier = fields.thisStoreSupplier
    this.otherStoreSupplier = fields.otherStoreSupplier
    this.dslStoreSuppliers = fields.dslStoreSuppliers
    this.name = fields.name
    this.storeName = fields.storeName
    this.loggingEnabled = fields.loggingEnabled ?? true
    this.logConfig = fields.logConfig ?? {}
  }

  /** The serdes of the key and of both streams' values. */
  static with<K, V, VO>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    otherValueSerde: Serde<VO> | undefined
  ): StreamJoined<K, V, VO>
  /**
   * Only the store backend of the join stores (Kafka's `StreamJoined.with(DslStoreSuppliers)`,
   * KIP-954): it wins over the StreamsBuilder's `dslStoreSuppliers`.
   */
  static with<K = unknown, V = unknown, VO = unknown>(dslStoreSuppliers: DslStoreSuppliers): StreamJoined<K, V, VO>
  static with<K, V, VO>(
    keySerdeOrSuppliers: Serde<K> | DslStoreSuppliers | undefined,
    valueSerde?: Serde<V>,
    otherValueSerde?: Serde<VO>
  ): StreamJoined<K, V, VO> {
    if (isDslStoreSuppliers(keySerdeOrSuppliers)) return new StreamJoined<K, V, VO>({ dslStoreSuppliers: keySerdeOrSuppliers })
    return new StreamJoined<K, V, VO>({ keySerde: keySerdeOrSuppliers, valueSerde, otherValueSerde })
  }

  /** Explicit window store suppliers for this stream's and the other stream's join store. */
  static withStoreSuppliers<K = unknown, V = unknown, VO = unknown>(
    thisStoreSupplier: WindowBytesStoreSupplier,
    otherStoreSupplier: WindowBytesStoreSupplier
  ): StreamJoined<K, V, VO> {
    return new StreamJoined<K, V, VO>({ thisStoreSupplier, otherStoreSupplier })
  }

  /** Only a store name prefix: the stores are `<storeName>-this-join-store` / `-other-join-store`. */
  static as<K = unknown, V = unknown, VO = unknown>(storeName: string): StreamJoined<K, V, VO> {
    return new StreamJoined<K, V, VO>({ storeName: validateName(storeName) })
  }

  /** The prefix of the join's processor names (and of its repartition topics). */
  withName(name: string): StreamJoined<K, V, VO> {
    return this.#with({ name: validateName(name) })
  }

  /** The prefix of the join's store names (and so of their changelog topics). */
  withStoreName(storeName: string): StreamJoined<K, V, VO> {
    return this.#with({ storeName: validateName(storeName) })
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): StreamJoined<K, V, VO> {
    return this.#with({ keySerde })
  }

  /** A copy with another value serde for this stream. */
  withValueSerde(valueSerde: Serde<V>): StreamJoined<K, V, VO> {
    return this.#with({ valueSerde })
  }

  /** A copy with another value serde for the other stream. */
  withOtherValueSerde(otherValueSerde: Serde<VO>): StreamJoined<K, V, VO> {
    return this.#with({ otherValueSerde })
  }

  /** A copy with another supplier of this stream's join store (it must retain duplicates). */
  withThisStoreSupplier(thisStoreSupplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO> {
    return this.#with({ thisStoreSupplier })
  }

  /** A copy with another supplier of the other stream's join store (it must retain duplicates). */
  withOtherStoreSupplier(otherStoreSupplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO> {
    return this.#with({ otherStoreSupplier })
  }

  /** The backend of the join stores that have no explicit supplier. */
  withDslStoreSuppliers(dslStoreSuppliers: DslStoreSuppliers): StreamJoined<K, V, VO> {
    if (!isDslStoreSuppliers(dslStoreSuppliers)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        'StreamJoined.withDslStoreSuppliers() takes DslStoreSuppliers (keyValueStore, windowStore and sessionStore functions)'
      )
    }
    return this.#with({ dslStoreSuppliers })
  }

  /** A copy whose join stores log to changelog topics created with `config` as topic configs. */
  withLoggingEnabled(config: Readonly<Record<string, string>> = {}): StreamJoined<K, V, VO> {
    return this.#with({ loggingEnabled: true, logConfig: { ...config } })
  }

  /** A copy whose join stores have no changelog. */
  withLoggingDisabled(): StreamJoined<K, V, VO> {
    return this.#with({ loggingEnabled: false, logConfig: {} })
  }

  #with(changes: StreamJoinedFields<K, V, VO>): StreamJoined<K, V, VO> {
    return new StreamJoined<K, V, VO>({
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      otherValueSerde: this.otherValueSerde,
      thisStoreSupplier: this.thisStoreSupplier,
      otherStoreSupplier: this.otherStoreSupplier,
      dslStoreSuppliers: this.dslStoreSuppliers,
      name: this.name,
      storeName: this.storeName,
      loggingEnabled: this.loggingEnabled,
      logConfig: this.logConfig,
      ...changes
    })
  }
}
