/**
 * Writes a GlobalKTable into the topology (Kafka Streams' InternalStreamsBuilder.globalTable): a
 * global store (timestamped key-value, from the builder's DslStoreSuppliers unless the
 * Materialized gives a supplier; logging always disabled: the topic is its changelog) fed by a
 * source (`<Consumed name>-source` or KSTREAM-SOURCE-) and a KTable source processor (the
 * Consumed name or KTABLE-SOURCE-; a given name still takes its index, so the numbering after
 * it is Kafka's). The store name is generated first (`<topic>-STATE-STORE-`) unless the
 * Materialized names it. @internal
 */
import type { GlobalStoreOptions, Processor, ProcessorSupplier } from '@kstreams/core'
import type { Consumed } from '../consumed.js'
import { GlobalKTable } from '../global-ktable.js'
import type { Materialized } from '../materialized.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { storeValueGetterSupplier } from './ktable-processor-supplier.js'
import { KTableSourceSupplier } from './ktable-processors.js'
import { MaterializedInternal } from './materialized-internal.js'
import { suffixedOrGenerated } from './kstream-kstream-join.js'

export function addGlobalTable<K, V>(
  builder: InternalStreamsBuilder,
  topic: string,
  consumed: Consumed<K, V> | undefined,
  materialized: Materialized<K, V> | undefined
): GlobalKTable<K, V> {
  // the Consumed serdes replace the Materialized ones (Kafka's "always use the serdes from consumed")
  const keySerde = consumed?.keySerde
  const valueSerde = consumed?.valueSerde
  const m = new MaterializedInternal(materialized, builder, topic + '-', { keySerde, valueSerde })
  const sourceName = suffixedOrGenerated(builder, consumed?.name, '-source', 'KSTREAM-SOURCE-')
  // A Consumed name still burns the index, as Kafka's NamedInternal.orElseGenerateWithPrefix.
  const processorName = builder.nameOrGenerate(consumed?.name, 'KTABLE-SOURCE-')
  const storeBuilder = m.storeBuilder(keySerde, valueSerde).withLoggingDisabled()
  const supplier = new KTableSourceSupplier<K, V>(m.storeName, true, () => {})
  const options: GlobalStoreOptions<K, V> = {
    ...(keySerde === undefined ? {} : { keyDeserializer: keySerde }),
    ...(valueSerde === undefined ? {} : { valueDeserializer: valueSerde }),
    ...(consumed?.timestampExtractor === undefined ? {} : { timestampExtractor: consumed.timestampExtractor })
  }
  const processor: ProcessorSupplier<K, V, never, never> = () => supplier.get() as unknown as Processor<K, V, never, never>
  builder.topology.addGlobalStore(storeBuilder, sourceName, options, topic, processorName, processor)
  return new GlobalKTable<K, V>(storeValueGetterSupplier<K, V>(m.storeName), m.queryableStoreName)
}
