/**
 * KTable.transformValues as Kafka Streams' KTableImpl.doTransformValues writes it: the arguments
 * `(supplier, [Materialized], [Named], ...stateStoreNames)` checked, the KTABLE-TRANSFORMVALUES-
 * node added and connected to the named stores, and the result store added when the Materialized
 * names one. A Materialized without a store name only gives serdes: nothing is materialized and
 * no store name is drawn. The result keeps the key serde (the Materialized's, else the parent's)
 * and has the Materialized's value serde or none. @internal
 */
import { StreamsError } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import type { KTable } from '../ktable.js'
import { Materialized } from '../materialized.js'
import { Named } from '../named.js'
import type { ValueTransformerWithKeySupplier } from '../value-transformer-with-key.js'
import { KTableTransformValuesSupplier } from './ktable-transform-values.js'
import { MaterializedInternal } from './materialized-internal.js'

const PREFIX = 'KTABLE-TRANSFORMVALUES-'

/** The parts of the result table, for the KTable constructor. */
export interface TransformedTableParts<K, VR> {
  readonly name: string
  readonly keySerde: Serde<K> | undefined
  readonly valueSerde: Serde<VR> | undefined
  readonly supplier: KTableTransformValuesSupplier<K, unknown, VR>
  readonly queryableStoreName: string | undefined
}

export function transformTableValues<K, V, VR>(
  table: KTable<K, V>,
  transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>,
  args: ReadonlyArray<Materialized<K, VR> | Named | string>
): TransformedTableParts<K, VR> {
  if (typeof transformerSupplier !== 'function') {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `transformValues takes a ValueTransformerWithKeySupplier (a function returning a transformer), got ${String(transformerSupplier)}`
    )
  }
  const { materialized, named, stateStoreNames } = splitArgs(args)
  const builder = table.builder
  // Kafka's MaterializedInternal without a name provider: a store only when the Materialized names one.
  const m = materialized?.storeName === undefined ? undefined : new MaterializedInternal(materialized, builder, PREFIX)
  const queryableStoreName = m?.queryableStoreName
  const keySerde = materialized === undefined ? table.keySerde : (materialized.keySerde ?? table.keySerde)
  const valueSerde = materialized?.valueSerde
  const name = builder.nameOrGenerate(named?.name, PREFIX)
  const supplier = new KTableTransformValuesSupplier<K, V, VR>({
    name,
    parent: table.supplier,
    transformerSupplier,
    storeName: queryableStoreName
  })
  builder.topology.addProcessor(name, () => supplier.get(), table.name)
  if (stateStoreNames.length > 0) builder.topology.connectProcessorAndStateStores(name, ...stateStoreNames)
  if (m !== undefined && queryableStoreName !== undefined) builder.topology.addStateStore(m.storeBuilder(keySerde, valueSerde), name)
  return {
    name,
    keySerde,
    valueSerde,
    supplier: supplier as unknown as KTableTransformValuesSupplier<K, unknown, VR>,
    queryableStoreName
  }
}

function splitArgs<K, VR>(
  args: ReadonlyArray<Materialized<K, VR> | Named | string>
): { materialized: Materialized<K, VR> | undefined; named: Named | undefined; stateStoreNames: string[] } {
  let i = 0
  let materialized: Materialized<K, VR> | undefined
  let named: Named | undefined
  if (args[i] instanceof Materialized) materialized = args[i++] as Materialized<K, VR>
  if (args[i] instanceof Named) named = args[i++] as Named
  const stateStoreNames: string[] = []
  for (; i < args.length; i++) {
    const storeName = args[i]
    if (typeof storeName !== 'string') {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `transformValues takes (supplier, [Materialized], [Named], ...stateStoreNames): argument ${i + 2} is ${describe(storeName)}, not a store name`
      )
    }
    stateStoreNames.push(storeName)
  }
  return { materialized, named, stateStoreNames }
}

function describe(value: unknown): string {
  if (value instanceof Materialized) return 'a Materialized out of place'
  if (value instanceof Named) return 'a Named out of place'
  return String(value)
}
