/**
 * A changelog stream (Kafka Streams' `KTable`): each record is an update `Change(new, old)` of
 * the value of its key, a null new value deleting it. Operators add their processors to the
 * core Topology under Kafka Streams' generated names; old values travel only when an operator
 * downstream asked for them. A table is materialized (and queryable by `queryableStoreName`)
 * when a store name was given.
 */
import type { Serde } from '@kstreams/core'
import type { Predicate, ValueMapper, ValueMapperWithKey } from './functions.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import type { KTableProcessorSupplier } from './internal/ktable-processor-supplier.js'
import { KTableValueOperatorSupplier } from './internal/ktable-processors.js'
import { MaterializedInternal } from './internal/materialized-internal.js'
import { mapValuesProcessor } from './internal/stateless-processors.js'
import { KStream } from './kstream.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import type { Change } from './change.js'

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
  constructor (
    builder: InternalStreamsBuilder, name: string, keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined,
    supplier: KTableProcessorSupplier<unknown, unknown, K, V>, queryableStoreName: string | undefined
  ) {
    this.builder = builder
    this.name = name
    this.keySerde = keySerde
    this.valueSerde = valueSerde
    this.supplier = supplier
    this.#queryableStoreName = queryableStoreName
  }

  /** The name of the store to query, or undefined when the table is not queryable. */
  get queryableStoreName (): string | undefined {
    return this.#queryableStoreName
  }

  /**
   * Keeps the values satisfying the predicate; every other update becomes a tombstone (sent only
   * when needed once the parent table sends old values). Materialized with a store name, the
   * result is queryable.
   */
  filter (predicate: Predicate<K, V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    return this.#filter(predicate, false, named, materialized)
  }

  filterNot (predicate: Predicate<K, V>, named?: Named | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    return this.#filter(predicate, true, named, materialized)
  }

  /** A new value for every key (a mapper with two parameters receives `(key, value)`); deletes stay deletes. */
  mapValues<VR> (mapper: ValueMapper<V, VR>, named?: Named | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>
  mapValues<VR> (mapper: ValueMapperWithKey<K, V, VR>, named?: Named | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>
  mapValues<VR> (mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, named?: Named | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR> {
    const args = splitArgs(named, materialized)
    const m = args.materialized === undefined ? undefined : new MaterializedInternal(args.materialized, this.builder, 'KTABLE-MAPVALUES-')
    const name = this.builder.nameOrGenerate(args.named?.name, 'KTABLE-MAPVALUES-')
    const fn = mapper.length >= 2 ? mapper as ValueMapperWithKey<K, V, VR> : (_key: K, value: V) => (mapper as ValueMapper<V, VR>)(value)
    const supplier = new KTableValueOperatorSupplier<K, V, VR>({
      parent: this.supplier,
      compute: (key, value) => value === null ? null : fn(key, value),
      storeName: m?.queryableStoreName,
      isFilter: false
    })
    return this.#addOperator(name, supplier, m, this.keySerde, undefined)
  }

  /** The stream of this table's updates: each record carries the new value (null for a delete). */
  toStream (named?: Named): KStream<K, V> {
    const name = this.builder.nameOrGenerate(named?.name, 'KTABLE-TOSTREAM-')
    this.builder.topology.addProcessor(name, mapValuesProcessor<K, Change<V>, V | null>((_key, change) => change.newValue), this.name)
    return new KStream<K, V>(this.builder, name, this.keySerde, this.valueSerde, false)
  }

  /** @internal Asks this table's operator to send old values (see KTableProcessorSupplier). */
  enableSendingOldValues (forceMaterialization: boolean): boolean {
    return this.supplier.enableSendingOldValues(forceMaterialization)
  }

  #filter (predicate: Predicate<K, V>, filterNot: boolean, named: Named | Materialized<K, V> | undefined, materialized: Materialized<K, V> | undefined): KTable<K, V> {
    const args = splitArgs(named, materialized)
    const m = args.materialized === undefined ? undefined : new MaterializedInternal(args.materialized, this.builder, 'KTABLE-FILTER-')
    const name = this.builder.nameOrGenerate(args.named?.name, 'KTABLE-FILTER-')
    const supplier = new KTableValueOperatorSupplier<K, V, V>({
      parent: this.supplier,
      compute: (key, value) => value !== null && filterNot !== predicate(key, value) ? value : null,
      storeName: m?.queryableStoreName,
      isFilter: true
    })
    return this.#addOperator(name, supplier, m, this.keySerde, this.valueSerde)
  }

  #addOperator<VR> (
    name: string, supplier: KTableValueOperatorSupplier<K, V, VR>, m: MaterializedInternal<K, VR> | undefined,
    keySerde: Serde<K> | undefined, valueSerde: Serde<VR> | undefined
  ): KTable<K, VR> {
    this.builder.topology.addProcessor(name, () => supplier.get(), this.name)
    const queryable = m?.queryableStoreName
    if (m !== undefined && queryable !== undefined) this.builder.topology.addStateStore(m.storeBuilder(keySerde, valueSerde), name)
    return new KTable<K, VR>(
      this.builder, name, m?.keySerde ?? keySerde, m?.valueSerde ?? valueSerde,
      supplier as unknown as KTableProcessorSupplier<unknown, unknown, K, VR>, queryable
    )
  }
}

function splitArgs<K, V> (named: Named | Materialized<K, V> | undefined, materialized: Materialized<K, V> | undefined): { named: Named | undefined, materialized: Materialized<K, V> | undefined } {
  if (named instanceof Materialized) return { named: undefined, materialized: named }
  return { named, materialized }
}
