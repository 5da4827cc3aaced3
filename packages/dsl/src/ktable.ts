/**
 * A changelog stream (Kafka Streams' `KTable`): each record is an update `Change(new, old)` of
 * the value of its key, a null new value deleting it. Operators add their processors to the
 * core Topology under Kafka Streams' generated names; old values travel only when an operator
 * downstream asked for them. A table is materialized (and queryable by `queryableStoreName`)
 * when a store name was given.
 */
import type { Serde } from '@kstreams/core'
import type { KeyValueMapper, Predicate, ValueMapper, ValueMapperWithKey } from './functions.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { KTableValueOperatorSupplier } from './internal/ktable-processors.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import { mapValuesProcessor } from './internal/stateless-processors.js'
import { KStream } from './kstream.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import type { Change } from './change.js'
import { tableJoin } from './internal/ktable-ktable-join-args.js'
import type { ValueJoiner } from './functions.js'
import type { TableJoined } from './table-joined.js'
import type { KeyValue } from '@kstreams/core'
import type { Grouped } from './grouped.js'
import type { KGroupedTable } from './kgrouped-table.js'
import { groupTable } from './internal/ktable-group-by.js'
import type { Suppressed } from './suppressed.js'
import { suppressTable } from './internal/suppress/ktable-suppress.js'
import { transformTableValues } from './internal/ktable-transform-values-args.js'
import type { ValueTransformerWithKeySupplier } from './value-transformer-with-key.js'

/** A changelog stream (Kafka Streams' KTable): each record updates the value of its key, a null value deleting it. */
export class KTable<K, V> {
  /** @internal */
  readonly builder: InternalStreamsBuilder
  /** The name of the node whose output this table is. */
  readonly name: string
  /** @internal */
  readonly keySerde: Serde<K> | undefined
  /** @internal */
  readonly valueSerde: Serde<V> | undefined
  /** @internal The supplier of the processor producing this table's updates. */
  readonly supplier: KTableProcessorSupplier<unknown, unknown, K, V>
  readonly #queryableStoreName: string | undefined

  /** @internal */
  constructor(
    builder: InternalStreamsBuilder,
    name: string,
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    supplier: KTableProcessorSupplier<unknown, unknown, K, V>,
    queryableStoreName: string | undefined
  ) {
    this.builder = builder
    this.name = name
    this.keySerde = keySerde
    this.valueSerde = valueSerde
    this.supplier = supplier
    this.#queryableStoreName = queryableStoreName
  }

  /** The name of the store to query, or undefined when the table is not queryable. */
  get queryableStoreName(): string | undefined {
    return this.#queryableStoreName
  }

  /**
   * Keeps the values satisfying the predicate; every other update becomes a tombstone (sent only
   * when needed once the parent table sends old values). Materialized with a store name, the
   * result is queryable.
   */
  filter(predicate: Predicate<K, V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    return this.#filter(predicate, false, named, materialized)
  }

  /** filter() with the predicate negated: keeps the values that do not satisfy it. */
  filterNot(predicate: Predicate<K, V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    return this.#filter(predicate, true, named, materialized)
  }

  /** A new value for every key (a mapper with two parameters receives `(key, value)`); deletes stay deletes. */
  mapValues<VR>(mapper: ValueMapper<V, VR>, named?: Named | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>
  mapValues<VR>(
    mapper: ValueMapperWithKey<K, V, VR>,
    named?: Named | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  mapValues<VR>(
    mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>,
    named?: Named | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR> {
    const args = splitArgs(named, materialized)
    const m = args.materialized === undefined ? undefined : new MaterializedInternal(args.materialized, this.builder, 'KTABLE-MAPVALUES-')
    const name = this.builder.nameOrGenerate(args.named?.name, 'KTABLE-MAPVALUES-')
    const fn = mapper.length >= 2 ? (mapper as ValueMapperWithKey<K, V, VR>) : (_key: K, value: V) => (mapper as ValueMapper<V, VR>)(value)
    const supplier = new KTableValueOperatorSupplier<K, V, VR>({
      parent: this.supplier,
      compute: (key, value) => (value === null ? null : fn(key, value)),
      storeName: m?.queryableStoreName,
      isFilter: false
    })
    return this.#addOperator(name, supplier, m, this.keySerde, undefined)
  }

  /**
   * A new value for every update, from a stateful transformer (Kafka Streams'
   * KTable#transformValues): one transformer per task, given the key and the new value (null for
   * a delete: the transformer sees deletes, and a null result deletes). The transformer may use
   * the named `stateStoreNames` (added with StreamsBuilder.addStateStore) but cannot forward.
   * With a Materialized that names a store, the result is stored there and queryable; otherwise
   * nothing is stored and joins or lookups transform the parent's value on each read. When a
   * downstream operator needs old values, an unmaterialized result transforms the parent's old
   * value too (a stateful transformer then sees every update twice).
   */
  transformValues<VR>(transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>, ...stateStoreNames: string[]): KTable<K, VR>
  transformValues<VR>(
    transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>,
    named: Named,
    ...stateStoreNames: string[]
  ): KTable<K, VR>
  transformValues<VR>(
    transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>,
    materialized: Materialized<K, VR>,
    ...stateStoreNames: string[]
  ): KTable<K, VR>
  transformValues<VR>(
    transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>,
    materialized: Materialized<K, VR>,
    named: Named,
    ...stateStoreNames: string[]
  ): KTable<K, VR>
  transformValues<VR>(
    transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>,
    ...rest: Array<Materialized<K, VR> | Named | string>
  ): KTable<K, VR> {
    const parts = transformTableValues(this, transformerSupplier, rest)
    return new KTable<K, VR>(
      this.builder,
      parts.name,
      parts.keySerde,
      parts.valueSerde,
      parts.supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, VR>,
      parts.queryableStoreName
    )
  }

  /**
   * The stream of this table's updates: each record carries the new value (null for a delete).
   * With a `mapper`, its result is the new key (Kafka's `toStream(mapper)`: toStream then selectKey).
   */
  toStream(named?: Named): KStream<K, V>
  toStream<KR>(mapper: KeyValueMapper<K, V, KR>, named?: Named): KStream<KR, V>
  toStream<KR>(mapperOrNamed?: Named | KeyValueMapper<K, V, KR>, named?: Named): KStream<K, V> | KStream<KR, V> {
    if (typeof mapperOrNamed === 'function') return this.toStream(named).selectKey(mapperOrNamed)
    return this.#toStream(mapperOrNamed)
  }

  #toStream(named: Named | undefined): KStream<K, V> {
    const name = this.builder.nameOrGenerate(named?.name, 'KTABLE-TOSTREAM-')
    this.builder.topology.addProcessor(
      name,
      mapValuesProcessor<K, Change<V>, V | null>((_key, change) => change.newValue),
      this.name
    )
    return new KStream<K, V>(this.builder, name, this.keySerde, this.valueSerde, false)
  }

  /**
   * Re-groups the table by the key and value `selector` returns (`KeyValue.pair(newKey, newValue)`)
   * for aggregations with a subtractor; always repartitions (topic `<Grouped name or store name>-repartition`).
   */
  groupBy<KR, VR>(selector: KeyValueMapper<K, V, KeyValue<KR, VR>>, grouped?: Grouped<KR, VR>): KGroupedTable<KR, VR> {
    return groupTable(this, selector, grouped)
  }

  /**
   * Holds back updates (Kafka Streams' suppress): final results of a windowed table
   * (`Suppressed.untilWindowCloses`) or the latest update per key after a time limit
   * (`Suppressed.untilTimeLimit`), buffered in a changelogged in-memory store.
   */
  suppress(suppressed: Suppressed<K>): KTable<K, V> {
    return suppressTable(this, suppressed)
  }

  /** @internal Asks this table's operator to send old values (see KTableProcessorSupplier). */
  enableSendingOldValues(forceMaterialization: boolean): boolean {
    return this.supplier.enableSendingOldValues(forceMaterialization)
  }

  /**
   * Inner join (Kafka Streams' KTable#join). With `(other, joiner)` on the primary key: a result
   * for every key both tables have, updated when either side changes, with the larger of both
   * timestamps. With `(other, foreignKeyExtractor, joiner)` on a foreign key: each record of this
   * table joins the record of `other` whose key the extractor returns (an extractor of two
   * parameters receives `(key, value)`); the result keeps this table's key.
   */
  join<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO, VR>,
    named?: Named | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  join<VR, KO, VO>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: (value: V) => KO | null,
    joiner: ValueJoiner<V, VO, VR>,
    tableJoined?: TableJoined<K, KO> | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  join<VR, KO, VO>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: (key: K, value: V) => KO | null,
    joiner: ValueJoiner<V, VO, VR>,
    tableJoined?: TableJoined<K, KO> | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  join(...args: unknown[]): KTable<K, unknown> {
    return this.#joined(tableJoin(this as KTable<unknown, unknown>, 'inner', args))
  }

  /** Left join (KTable#leftJoin): every key of this table has a result; `otherValue` is null when `other` has none. */
  leftJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    named?: Named | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  leftJoin<VR, KO, VO>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: (value: V) => KO | null,
    joiner: ValueJoiner<V, VO | null, VR>,
    tableJoined?: TableJoined<K, KO> | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  leftJoin<VR, KO, VO>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: (key: K, value: V) => KO | null,
    joiner: ValueJoiner<V, VO | null, VR>,
    tableJoined?: TableJoined<K, KO> | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR>
  leftJoin(...args: unknown[]): KTable<K, unknown> {
    return this.#joined(tableJoin(this as KTable<unknown, unknown>, 'left', args))
  }

  /** Outer join on the primary key (KTable#outerJoin): a result for every key either table has; the missing side is null. */
  outerJoin<VO, VR>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR>,
    named?: Named | Materialized<K, VR>,
    materialized?: Materialized<K, VR>
  ): KTable<K, VR> {
    return this.#joined(tableJoin(this as KTable<unknown, unknown>, 'outer', [other, joiner, named, materialized])) as KTable<K, VR>
  }

  #joined(parts: ReturnType<typeof tableJoin>): KTable<K, unknown> {
    return new KTable<K, unknown>(
      this.builder,
      parts.name,
      parts.keySerde as Serde<K> | undefined,
      parts.valueSerde,
      parts.supplier as KTableProcessorSupplier<unknown, unknown, K, unknown>,
      parts.queryableStoreName
    )
  }

  #filter(
    predicate: Predicate<K, V>,
    filterNot: boolean,
    named: Named | Materialized<K, V> | undefined,
    materialized: Materialized<K, V> | undefined
  ): KTable<K, V> {
    const args = splitArgs(named, materialized)
    const m = args.materialized === undefined ? undefined : new MaterializedInternal(args.materialized, this.builder, 'KTABLE-FILTER-')
    const name = this.builder.nameOrGenerate(args.named?.name, 'KTABLE-FILTER-')
    const supplier = new KTableValueOperatorSupplier<K, V, V>({
      parent: this.supplier,
      compute: (key, value) => (value !== null && filterNot !== predicate(key, value) ? value : null),
      storeName: m?.queryableStoreName,
      isFilter: true
    })
    return this.#addOperator(name, supplier, m, this.keySerde, this.valueSerde)
  }

  #addOperator<VR>(
    name: string,
    supplier: KTableValueOperatorSupplier<K, V, VR>,
    m: MaterializedInternal<K, VR> | undefined,
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<VR> | undefined
  ): KTable<K, VR> {
    this.builder.topology.addProcessor(name, () => supplier.get(), this.name)
    const queryable = m?.queryableStoreName
    if (m !== undefined && queryable !== undefined) this.builder.topology.addStateStore(m.storeBuilder(keySerde, valueSerde), name)
    return new KTable<K, VR>(
      this.builder,
      name,
      m?.keySerde ?? keySerde,
      m?.valueSerde ?? valueSerde,
      supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, VR>,
      queryable
    )
  }
}

function splitArgs<K, V>(
  named: Named | Materialized<K, V> | undefined,
  materialized: Materialized<K, V> | undefined
): { named: Named | undefined; materialized: Materialized<K, V> | undefined } {
  if (named instanceof Materialized) return { named: undefined, materialized: named }
  return { named, materialized }
}
