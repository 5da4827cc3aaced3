/**
 * The entry point of the DSL (Kafka Streams' `StreamsBuilder`): sources as KStreams and KTables,
 * user state stores, and `build()` returning the core Topology the operators wrote (it runs on
 * the TopologyTestDriver and the runtime unchanged). Processor and store names are generated
 * from one counter, as Kafka Streams does, so `describe()` prints the same names.
 */
import { TopologyError, resolveStreamsConfig } from '@kstreams/core'
import { parseTopologyOptimization, SOURCE_CHANGELOG } from '@kstreams/core/internal'
import type { ProcessorSupplier, SourceOptions, StateStore, StoreBuilder, StreamsConfig, Topology } from '@kstreams/core'
import { Consumed } from './consumed.js'
import { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import { KTableSourceSupplier } from './internal/ktable-processors.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import { KStream } from './kstream.js'
import { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { GlobalKTable } from './global-ktable.js'
import { addGlobalTable } from './internal/global-table-source.js'
import { addGlobalStore } from './internal/global-store.js'

/** The entry point of the DSL (Kafka Streams' StreamsBuilder): sources as KStreams and KTables, and `build()` returning the Topology. */
export class StreamsBuilder {
  readonly #internal: InternalStreamsBuilder

  /**
   * `config.dslStoreSuppliers` picks the backend of every DSL store that names no supplier
   * (Kafka Streams' `new StreamsBuilder(new TopologyConfig(...))` with `dsl.store.suppliers.class`):
   * in-memory by default, `RocksDBDslStoreSuppliers` from @kstreams/rocksdb for persistent stores.
   * The whole StreamsConfig of the application may be passed; other keys are ignored here
   * (`topologyOptimization` too, as in Kafka Streams: give it to build()).
   */
  constructor(config: StreamsConfig = {}) {
    resolveStreamsConfig({ dslStoreSuppliers: config.dslStoreSuppliers, topologyOptimization: config.topologyOptimization })
    this.#internal = new InternalStreamsBuilder(config.dslStoreSuppliers)
  }

  /** A stream of the records of one topic, several topics, or every topic whose whole name matches a pattern. */
  stream<K = unknown, V = unknown>(topics: string | readonly string[] | RegExp, consumed?: Consumed<K, V>): KStream<K, V> {
    const name = this.#internal.nameOrGenerate(consumed?.name, 'KSTREAM-SOURCE-')
    const existing = sameSource(this.#internal, topics, consumed?.offsetReset)
    if (existing !== undefined) return new KStream<K, V>(this.#internal, existing, consumed?.keySerde, consumed?.valueSerde, false)
    this.#internal.topology.addSource(name, topics, sourceOptions(consumed))
    const list = topics instanceof RegExp ? topics : typeof topics === 'string' ? [topics] : [...topics]
    const keys = topics instanceof RegExp ? [`/${topics.source}/${topics.flags}`] : list
    for (const key of keys as string[]) this.#internal.streamSources.set(key, { name, topics: list, offsetReset: consumed?.offsetReset })
    return new KStream<K, V>(this.#internal, name, consumed?.keySerde, consumed?.valueSerde, false)
  }

  /**
   * A table of the latest value per key of a topic (a null value deletes the key; records with a
   * null key are dropped and counted). Materialized only when given a store name or when a later
   * operator needs it. Serdes as in Kafka Streams: with a Consumed, its serdes deserialize the
   * topic and replace those of the Materialized for the store (a serde the Consumed lacks is the
   * config default for both, whatever the Materialized says); with a Materialized alone (or an
   * undefined Consumed), the Materialized's serdes serve for both.
   */
  table<K = unknown, V = unknown>(
    topic: string,
    consumed?: Consumed<K, V> | Materialized<K, V>,
    materialized?: Materialized<K, V>
  ): KTable<K, V> {
    const { c, mat } = consumedAndMaterialized(consumed, materialized)
    const internal = this.#internal
    const keySerde = c?.keySerde
    const valueSerde = c?.valueSerde
    const m = new MaterializedInternal(mat, internal, topic + '-', { keySerde, valueSerde })
    const sourceName = internal.nameOrGenerate(c?.name, 'KSTREAM-SOURCE-')
    const generatedTableSource = internal.newProcessorName('KTABLE-SOURCE-')
    const tableSourceName = c?.name === undefined ? generatedTableSource : c.name + '-table-source'
    let storeBuilder: ReturnType<typeof m.tableStoreBuilder> | undefined
    const addStore = (): void => {
      if (storeBuilder !== undefined) return
      storeBuilder = m.tableStoreBuilder(keySerde, valueSerde)
      internal.topology.addStateStore(storeBuilder, tableSourceName)
    }
    const supplier = new KTableSourceSupplier<K, V>(m.storeName, m.queryableStoreName !== undefined, addStore, m.versioned)
    internal.topology.addSource(sourceName, topic, sourceOptions(c))
    internal.topology.addProcessor(tableSourceName, () => supplier.get(), sourceName)
    internal.onBuild(() => {
      if (supplier.storeName !== undefined) addStore()
    })
    internal.onOptimize(optimizations => {
      // reuse.ktable.source.topics: the source topic is the store's changelog (Kafka's TableSourceNode).
      if (storeBuilder === undefined || !optimizations.has('reuse.ktable.source.topics')) return
      storeBuilder.withLoggingDisabled()
      internal.topology[SOURCE_CHANGELOG](m.storeName, topic)
    })
    return new KTable<K, V>(
      internal,
      tableSourceName,
      keySerde,
      valueSerde,
      supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, V>,
      m.queryableStoreName
    )
  }

  /**
   * A table of the latest value per key of every partition of a topic, replicated on every
   * instance and always materialized (its store is readable from any task). Streams join it with
   * `KStream.join` / `leftJoin` and a key selector. Serdes follow `table`: the Consumed ones win
   * over the Materialized ones.
   */
  globalTable<K = unknown, V = unknown>(
    topic: string,
    consumed?: Consumed<K, V> | Materialized<K, V>,
    materialized?: Materialized<K, V>
  ): GlobalKTable<K, V> {
    const { c, mat } = consumedAndMaterialized(consumed, materialized)
    return addGlobalTable(this.#internal, topic, c, mat)
  }

  /** Adds a store that `KStream.process` / `processValues` can name. */
  addStateStore(builder: StoreBuilder<StateStore>): this {
    this.#internal.topology.addStateStore(builder)
    return this
  }

  /**
   * Adds a global store (Kafka Streams' `StreamsBuilder.addGlobalStore`): filled on every instance
   * from all partitions of `topic`, deserialized with the Consumed's serdes, by the processors
   * `stateUpdateSupplier` returns; they only update the store (they cannot forward). Logging is
   * turned off on `storeBuilder`, as in Kafka: the topic is the store's changelog. The nodes are
   * named `<Consumed name>-source` and the Consumed name, else KSTREAM-SOURCE- and KTABLE-SOURCE-
   * with the next indexes.
   */
  addGlobalStore<K, V>(
    storeBuilder: StoreBuilder<StateStore>,
    topic: string,
    consumed: Consumed<K, V>,
    stateUpdateSupplier: ProcessorSupplier<K, V, never, never>
  ): this {
    addGlobalStore(this.#internal, storeBuilder, topic, consumed, stateUpdateSupplier)
    return this
  }

  /**
   * The topology of every operator added so far, with the optimizations `config.topologyOptimization`
   * enables (Kafka Streams' `build(props)`; `build()` optimizes nothing): 'all', or a list of
   * 'reuse.ktable.source.topics', 'merge.repartition.topics' and 'single.store.self.join' (see the
   * README). The topology is built once: a later build() returns it as it is.
   */
  build(config: Pick<StreamsConfig, 'topologyOptimization'> = {}): Topology {
    const value = config.topologyOptimization
    if (value !== undefined) resolveStreamsConfig({ topologyOptimization: value })
    return this.#internal.build(value === undefined ? new Set() : parseTopologyOptimization(value))
  }
}

/**
 * The source of an earlier stream() of exactly these topics (or this pattern), which Kafka
 * merges with this one (InternalStreamsBuilder.mergeDuplicateSourceNodes): the new stream reads
 * it. Overlapping but different topic lists, or different offset resets, are errors as in Kafka.
 */
function sameSource(
  internal: InternalStreamsBuilder,
  topics: string | readonly string[] | RegExp,
  offsetReset: unknown
): string | undefined {
  const keys = topics instanceof RegExp ? [`/${topics.source}/${topics.flags}`] : typeof topics === 'string' ? [topics] : [...topics]
  for (const key of keys) {
    const main = internal.streamSources.get(key)
    if (main === undefined) continue
    const mainKeys = main.topics instanceof RegExp ? [key] : main.topics
    if (mainKeys.length !== keys.length || !keys.every(k => mainKeys.includes(k)))
      throw new TopologyError('DUPLICATE_TOPIC', 'Two source nodes are subscribed to overlapping but not equal input topics')
    if (JSON.stringify(main.offsetReset) !== JSON.stringify(offsetReset))
      throw new TopologyError('TOPOLOGY_INVALID', "Can't configure different offset reset policies on the same input topic(s)")
    return main.name
  }
  return undefined
}

/** A Materialized alone (Kafka's table(topic, Materialized)) also gives the Consumed serdes. */
function consumedAndMaterialized<K, V>(
  consumed: Consumed<K, V> | Materialized<K, V> | undefined,
  materialized: Materialized<K, V> | undefined
): { c: Consumed<K, V> | undefined; mat: Materialized<K, V> | undefined } {
  const mat = consumed instanceof Materialized ? consumed : materialized
  const c =
    consumed instanceof Materialized || consumed === undefined
      ? mat === undefined
        ? undefined
        : Consumed.with(mat.keySerde, mat.valueSerde)
      : consumed
  return { c, mat }
}

function sourceOptions<K, V>(consumed: Consumed<K, V> | undefined): SourceOptions {
  if (consumed === undefined) return {}
  return {
    ...(consumed.keySerde === undefined ? {} : { keyDeserializer: consumed.keySerde }),
    ...(consumed.valueSerde === undefined ? {} : { valueDeserializer: consumed.valueSerde }),
    ...(consumed.timestampExtractor === undefined ? {} : { timestampExtractor: consumed.timestampExtractor }),
    ...(consumed.offsetReset === undefined ? {} : { offsetReset: consumed.offsetReset })
  } as SourceOptions
}
