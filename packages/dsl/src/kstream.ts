/**
 * A record stream (Kafka Streams' `KStream`): every operator adds its processor to the core
 * Topology under Kafka Streams' generated name (or the `Named` one) and returns a new KStream
 * whose key and value types follow the operator. Key-changing operators mark the stream as
 * needing a repartition before grouping; serdes travel along until an operator changes the type
 * they describe.
 */
import type { KeyValue, ProcessorSupplier, Serde, SinkOptions, TopicNameExtractor } from '@kstreams/core'
import { BranchedKStream } from './branched-kstream.js'
import type { ForeachAction, KeyValueMapper, Predicate, ValueMapper, ValueMapperWithKey } from './functions.js'
import { Grouped } from './grouped.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import {
  filterProcessor,
  flatMapProcessor,
  flatMapValuesProcessor,
  mapProcessor,
  mapValuesProcessor,
  passThroughProcessor,
  peekProcessor,
  selectKeyProcessor
} from './internal/stateless-processors.js'
import { KGroupedStream } from './kgrouped-stream.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { KTableSourceSupplier } from './internal/ktable-processors.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import { createRepartitionedSource } from './internal/repartition.js'
import { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import type { Produced } from './produced.js'
import type { Printed } from './printed.js'
import { printProcessor } from './internal/kstream-print.js'
import { processValuesSupplier } from './fixed-key-processor.js'
import type { FixedKeyProcessorSupplier } from './fixed-key-processor.js'
import type { ValueJoiner, ValueJoinerWithKey } from './functions.js'
import type { GlobalKTable } from './global-ktable.js'
import type { JoinWindows } from './join-windows.js'
import type { Joined } from './joined.js'
import type { StreamJoined } from './stream-joined.js'
import { dispatchJoin } from './internal/kstream-joins.js'
import type { JoinKind } from './internal/kstream-joins.js'
import type { Repartitioned } from './repartitioned.js'
import { repartitionStream } from './internal/kstream-repartition.js'

/** A record stream (Kafka Streams' KStream): each operator adds its processor to the topology and returns the resulting stream or table. */
export class KStream<K, V> {
  /** @internal */
  readonly builder: InternalStreamsBuilder
  /** The name of the node whose output this stream is. */
  readonly name: string
  /** @internal */
  readonly keySerde: Serde<K> | undefined
  /** @internal */
  readonly valueSerde: Serde<V> | undefined
  /** @internal */
  readonly repartitionRequired: boolean

  /** @internal */
  constructor(
    builder: InternalStreamsBuilder,
    name: string,
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    repartitionRequired: boolean
  ) {
    this.builder = builder
    this.name = name
    this.keySerde = keySerde
    this.valueSerde = valueSerde
    this.repartitionRequired = repartitionRequired
  }

  /** The records that satisfy `predicate`. */
  filter(predicate: Predicate<K, V>, named?: Named): KStream<K, V> {
    return this.#same(this.#add('KSTREAM-FILTER-', named, filterProcessor(predicate, false)))
  }

  /** The records that do not satisfy `predicate`. */
  filterNot(predicate: Predicate<K, V>, named?: Named): KStream<K, V> {
    return this.#same(this.#add('KSTREAM-FILTER-', named, filterProcessor(predicate, true)))
  }

  /** A new key for every record; a later grouping repartitions. */
  selectKey<KR>(mapper: KeyValueMapper<K, V, KR>, named?: Named): KStream<KR, V> {
    const name = this.#add('KSTREAM-KEY-SELECT-', named, selectKeyProcessor(mapper))
    this.builder.graph.keyChanger(name)
    return new KStream<KR, V>(this.builder, name, undefined, this.valueSerde, true)
  }

  /** A new key and value for every record: `mapper` returns `KeyValue.pair(key, value)`. */
  map<KR, VR>(mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>, named?: Named): KStream<KR, VR> {
    const name = this.#add('KSTREAM-MAP-', named, mapProcessor(mapper))
    this.builder.graph.keyChanger(name)
    return new KStream<KR, VR>(this.builder, name, undefined, undefined, true)
  }

  /**
   * A new value for every record. A mapper declaring two parameters is a ValueMapperWithKey and
   * receives `(key, value)`; one declaring one parameter receives the value.
   */
  mapValues<VR>(mapper: ValueMapper<V, VR>, named?: Named): KStream<K, VR>
  mapValues<VR>(mapper: ValueMapperWithKey<K, V, VR>, named?: Named): KStream<K, VR>
  mapValues<VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, named?: Named): KStream<K, VR> {
    const name = this.#add('KSTREAM-MAPVALUES-', named, mapValuesProcessor(withKey(mapper)))
    this.builder.graph.valueChanger(name)
    return new KStream<K, VR>(this.builder, name, this.keySerde, undefined, this.repartitionRequired)
  }

  /** Zero or more records per record: `mapper` returns an iterable of `KeyValue.pair(key, value)`. */
  flatMap<KR, VR>(mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>, named?: Named): KStream<KR, VR> {
    const name = this.#add('KSTREAM-FLATMAP-', named, flatMapProcessor(mapper))
    this.builder.graph.keyChanger(name)
    return new KStream<KR, VR>(this.builder, name, undefined, undefined, true)
  }

  /** Zero or more values per record, keeping the key; the mapper convention is that of mapValues. */
  flatMapValues<VR>(mapper: ValueMapper<V, Iterable<VR>>, named?: Named): KStream<K, VR>
  flatMapValues<VR>(mapper: ValueMapperWithKey<K, V, Iterable<VR>>, named?: Named): KStream<K, VR>
  flatMapValues<VR>(mapper: ValueMapper<V, Iterable<VR>> | ValueMapperWithKey<K, V, Iterable<VR>>, named?: Named): KStream<K, VR> {
    const name = this.#add('KSTREAM-FLATMAPVALUES-', named, flatMapValuesProcessor(withKey(mapper)))
    this.builder.graph.valueChanger(name)
    return new KStream<K, VR>(this.builder, name, this.keySerde, undefined, this.repartitionRequired)
  }

  /** Calls `action` for every record and passes the records on unchanged. */
  peek(action: ForeachAction<K, V>, named?: Named): KStream<K, V> {
    return this.#same(this.#add('KSTREAM-PEEK-', named, peekProcessor(action, true)))
  }

  /** A terminal operation: calls `action` for every record. */
  foreach(action: ForeachAction<K, V>, named?: Named): void {
    this.#add('KSTREAM-FOREACH-', named, peekProcessor(action, false))
  }

  /**
   * A terminal operation: prints every record as `[label]: key, value` (Kafka Streams'
   * `print(Printed)`), one line each, to standard output or a file. The label defaults to the
   * name of this stream's node (e.g. `KSTREAM-SOURCE-0000000000`), as in Kafka Streams, where
   * the printer is named `KSTREAM-PRINTER-...`.
   */
  print(printed: Printed<K, V>): void {
    const name = this.builder.nameOrGenerate(printed.name, 'KSTREAM-PRINTER-')
    this.builder.topology.addProcessor(name, printProcessor(printed.output, printed.label ?? this.name, printed.mapper), this.name)
  }

  /** The records of both streams, interleaved as they are processed. */
  merge(stream: KStream<K, V>, named?: Named): KStream<K, V> {
    const name = this.builder.nameOrGenerate(named?.name, 'KSTREAM-MERGE-')
    this.builder.topology.addProcessor(name, passThroughProcessor<K, V>(), this.name, stream.name)
    this.builder.graph.mergeNode(name)
    return new KStream<K, V>(this.builder, name, undefined, undefined, this.repartitionRequired || stream.repartitionRequired)
  }

  /** Writes the stream to a topic (or the topic `extractor` picks per record). */
  to(topic: string | TopicNameExtractor<K, V>, produced?: Produced<K, V>): void {
    const name = this.builder.nameOrGenerate(produced?.name, 'KSTREAM-SINK-')
    const keySerde = produced?.keySerde ?? this.keySerde
    const valueSerde = produced?.valueSerde ?? this.valueSerde
    const options: SinkOptions<K, V> = {
      ...(keySerde === undefined ? {} : { keySerializer: keySerde }),
      ...(valueSerde === undefined ? {} : { valueSerializer: valueSerde }),
      ...(produced?.partitioner === undefined ? {} : { partitioner: produced.partitioner })
    }
    this.builder.topology.addSink<K, V>(name, topic, options, this.name)
  }

  /** Splits the stream into branches by predicates (`branch`), ending with `defaultBranch` or `noDefaultBranch`. */
  split(named?: Named): BranchedKStream<K, V> {
    return new BranchedKStream(this, this.builder.nameOrGenerate(named?.name, 'KSTREAM-BRANCH-'))
  }

  /**
   * Runs a Processor API processor on every record; its output is the new stream (a later
   * grouping repartitions: the processor may change keys). The named stores must have been
   * added with StreamsBuilder.addStateStore.
   */
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, ...stores: string[]): KStream<KR, VR>
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, named: Named, ...stores: string[]): KStream<KR, VR>
  process<KR, VR>(supplier: ProcessorSupplier<K, V, KR, VR>, ...rest: Array<Named | string>): KStream<KR, VR> {
    const { named, stores } = splitNamed(rest)
    // Kafka Streams draws no generated name for a named process() (NamedInternal.name()).
    const name = named?.name ?? this.builder.newProcessorName('KSTREAM-PROCESSOR-')
    this.builder.topology.addProcessor(name, supplier, this.name)
    if (stores.length > 0) this.builder.topology.connectProcessorAndStateStores(name, ...stores)
    return new KStream<KR, VR>(this.builder, name, undefined, undefined, true)
  }

  /** Runs a processor that may change values but not keys (no repartition is needed afterwards). */
  processValues<VR>(supplier: FixedKeyProcessorSupplier<K, V, VR>, ...stores: string[]): KStream<K, VR>
  processValues<VR>(supplier: FixedKeyProcessorSupplier<K, V, VR>, named: Named, ...stores: string[]): KStream<K, VR>
  processValues<VR>(supplier: FixedKeyProcessorSupplier<K, V, VR>, ...rest: Array<Named | string>): KStream<K, VR> {
    const { named, stores } = splitNamed(rest)
    const name = named?.name ?? this.builder.newProcessorName('KSTREAM-PROCESSVALUES-')
    this.builder.topology.addProcessor(name, processValuesSupplier(supplier), this.name)
    if (stores.length > 0) this.builder.topology.connectProcessorAndStateStores(name, ...stores)
    return new KStream<K, VR>(this.builder, name, this.keySerde, undefined, this.repartitionRequired)
  }

  /**
   * The stream read as a table (latest value per key; null values delete, null keys are
   * dropped). Repartitions first when an upstream operator changed keys (topic
   * `<toTable name>-repartition`). Materialized only when given a store name.
   */
  toTable(named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    const args = named instanceof Materialized ? { named: undefined, materialized: named } : { named, materialized }
    const builder = this.builder
    const name = builder.nameOrGenerate(args.named?.name, 'KSTREAM-TOTABLE-')
    const m = new MaterializedInternal(args.materialized, builder, 'KSTREAM-TOTABLE-')
    const keySerde = m.keySerde ?? this.keySerde
    const valueSerde = m.valueSerde ?? this.valueSerde
    const parent = this.repartitionRequired ? createRepartitionedSource(builder, this.name, name, keySerde, valueSerde) : this.name
    const supplier = new KTableSourceSupplier<K, V>(
      m.storeName,
      m.queryableStoreName !== undefined,
      () => {
        builder.topology.addStateStore(m.tableStoreBuilder(keySerde, valueSerde), name)
      },
      m.versioned
    )
    builder.topology.addProcessor(name, () => supplier.get(), parent)
    if (m.queryableStoreName !== undefined) builder.topology.addStateStore(m.tableStoreBuilder(keySerde, valueSerde), name)
    return new KTable<K, V>(
      builder,
      name,
      keySerde,
      valueSerde,
      supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, V>,
      m.queryableStoreName
    )
  }

  /**
   * Writes the stream to an internal topic (`<Repartitioned name or KSTREAM-REPARTITION-n>-repartition`)
   * and reads it back, optionally with a fixed number of partitions and a partitioner; records with
   * a null key pass through too (KIP-962). No repartition is needed downstream.
   */
  repartition(repartitioned?: Repartitioned<K, V>): KStream<K, V> {
    return repartitionStream(this, repartitioned)
  }

  /** Groups by the current key; repartitions first when an upstream operator changed keys. */
  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V> {
    const g = grouped ?? Grouped.with(this.keySerde, this.valueSerde)
    return new KGroupedStream<K, V>(this.builder, this.name, g, this.repartitionRequired)
  }

  /** Groups by a new key; always repartitions (topic `<Grouped name or store name>-repartition`). */
  groupBy<KR>(selector: KeyValueMapper<K, V, KR>, grouped?: Grouped<KR, V>): KGroupedStream<KR, V> {
    const g = grouped ?? Grouped.with<KR, V>(undefined, this.valueSerde)
    const name = this.builder.nameOrGenerate(g.name, 'KSTREAM-KEY-SELECT-')
    this.builder.topology.addProcessor(name, selectKeyProcessor(selector), this.name)
    this.builder.graph.keyChanger(name)
    return new KGroupedStream<KR, V>(this.builder, name, g, true)
  }

  /**
   * Inner join. With a KStream: records whose timestamps are within the JoinWindows of each other
   * join (both sides trigger; result timestamp = the larger one). With a KTable: each stream record
   * joins the table's current value of its key (table updates do not trigger). With a
   * GlobalKTable: the key selector picks the table key. A joiner declaring three parameters also
   * receives the key (declare their types: TypeScript infers only the two-value form).
   */
  join<VO, VR>(
    other: KStream<K, VO>,
    joiner: ValueJoiner<V, VO, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>
  ): KStream<K, VR>
  join<VO, VR>(
    other: KStream<K, VO>,
    joiner: ValueJoinerWithKey<K, V, VO, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>
  ): KStream<K, VR>
  join<VT, VR>(table: KTable<K, VT>, joiner: ValueJoiner<V, VT, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>
  join<VT, VR>(table: KTable<K, VT>, joiner: ValueJoinerWithKey<K, V, VT, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>
  join<KG, VG, VR>(
    globalTable: GlobalKTable<KG, VG>,
    keySelector: KeyValueMapper<K, V, KG>,
    joiner: ValueJoiner<V, VG, VR>,
    named?: Named
  ): KStream<K, VR>
  join<KG, VG, VR>(
    globalTable: GlobalKTable<KG, VG>,
    keySelector: KeyValueMapper<K, V, KG>,
    joiner: ValueJoinerWithKey<K, V, VG, VR>,
    named?: Named
  ): KStream<K, VR>
  join(other: unknown, ...args: unknown[]): KStream<K, unknown> {
    return this.#join('inner', other, args)
  }

  /**
   * Left join: as join, but every record of this stream produces output; without a match the
   * joiner gets null for the other value (stream-stream: only once the window closed).
   */
  leftJoin<VO, VR>(
    other: KStream<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>
  ): KStream<K, VR>
  leftJoin<VO, VR>(
    other: KStream<K, VO>,
    joiner: ValueJoinerWithKey<K, V, VO | null, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>
  ): KStream<K, VR>
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: ValueJoiner<V, VT | null, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: ValueJoinerWithKey<K, V, VT | null, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>
  leftJoin<KG, VG, VR>(
    globalTable: GlobalKTable<KG, VG>,
    keySelector: KeyValueMapper<K, V, KG>,
    joiner: ValueJoiner<V, VG | null, VR>,
    named?: Named
  ): KStream<K, VR>
  leftJoin<KG, VG, VR>(
    globalTable: GlobalKTable<KG, VG>,
    keySelector: KeyValueMapper<K, V, KG>,
    joiner: ValueJoinerWithKey<K, V, VG | null, VR>,
    named?: Named
  ): KStream<K, VR>
  leftJoin(other: unknown, ...args: unknown[]): KStream<K, unknown> {
    return this.#join('left', other, args)
  }

  /** Outer stream-stream join: unmatched records of either side are joined with null once their window closed. */
  outerJoin<VO, VR>(
    other: KStream<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>
  ): KStream<K, VR>
  outerJoin<VO, VR>(
    other: KStream<K, VO>,
    joiner: ValueJoinerWithKey<K, V | null, VO | null, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>
  ): KStream<K, VR>
  outerJoin(other: unknown, ...args: unknown[]): KStream<K, unknown> {
    return this.#join('outer', other, args)
  }

  #join(kind: JoinKind, other: unknown, args: unknown[]): KStream<K, unknown> {
    const result = dispatchJoin<K>(this, kind, other, args)
    return new KStream<K, unknown>(this.builder, result.name, result.keySerde, undefined, result.repartitionRequired)
  }

  #add<KR, VR>(prefix: string, named: Named | undefined, supplier: ProcessorSupplier<K, V, KR, VR>): string {
    const name = this.builder.nameOrGenerate(named?.name, prefix)
    this.builder.topology.addProcessor(name, supplier, this.name)
    return name
  }

  #same(name: string): KStream<K, V> {
    return new KStream<K, V>(this.builder, name, this.keySerde, this.valueSerde, this.repartitionRequired)
  }
}

/** A mapper declaring two parameters takes `(key, value)`; otherwise `(value)`. */
function withKey<K, V, VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>): (key: K, value: V) => VR {
  if (mapper.length >= 2) return mapper as ValueMapperWithKey<K, V, VR>
  const valueMapper = mapper as ValueMapper<V, VR>
  return (_key, value) => valueMapper(value)
}

function splitNamed(rest: Array<Named | string>): { named: Named | undefined; stores: string[] } {
  const [first, ...others] = rest
  if (first !== undefined && typeof first !== 'string') return { named: first, stores: others as string[] }
  return { named: undefined, stores: rest as string[] }
}
