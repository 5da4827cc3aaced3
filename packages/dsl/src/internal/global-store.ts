/**
 * Writes a user global store into the topology (Kafka Streams' InternalStreamsBuilder.addGlobalStore,
 * the DSL variant of Topology.addGlobalStore): logging is turned off on the builder (the topic is
 * the store's changelog), the source is `<Consumed name>-source` or KSTREAM-SOURCE-, the update
 * processor the Consumed name or KTABLE-SOURCE- (an index is drawn for each either way, as
 * Kafka's NamedInternal does), and the Consumed gives the deserializers and timestamp extractor.
 * @internal
 */
import { TopologyError } from '@kstreams/core'
import type { GlobalStoreOptions, ProcessorSupplier, StateStore, StoreBuilder } from '@kstreams/core'
import type { Consumed } from '../consumed.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import { suffixedOrGenerated } from './kstream-kstream-join.js'

export function addGlobalStore<K, V>(
  builder: InternalStreamsBuilder,
  storeBuilder: StoreBuilder<StateStore>,
  topic: string,
  consumed: Consumed<K, V>,
  stateUpdateSupplier: ProcessorSupplier<K, V, never, never>
): void {
  if (storeBuilder === null || typeof storeBuilder !== 'object')
    throw new TopologyError('TOPOLOGY_INVALID', 'StreamsBuilder.addGlobalStore() needs a store builder.')
  if (consumed === null || typeof consumed !== 'object')
    throw new TopologyError('TOPOLOGY_INVALID', `StreamsBuilder.addGlobalStore() of store ${storeBuilder.name} needs a Consumed.`)
  disableLogging(storeBuilder)
  const sourceName = suffixedOrGenerated(builder, consumed.name, '-source', 'KSTREAM-SOURCE-')
  const processorName = builder.nameOrGenerate(consumed.name, 'KTABLE-SOURCE-')
  const options: GlobalStoreOptions<K, V> = {
    ...(consumed.keySerde === undefined ? {} : { keyDeserializer: consumed.keySerde }),
    ...(consumed.valueSerde === undefined ? {} : { valueDeserializer: consumed.valueSerde }),
    ...(consumed.timestampExtractor === undefined ? {} : { timestampExtractor: consumed.timestampExtractor })
  }
  builder.topology.addGlobalStore(storeBuilder, sourceName, options, topic, processorName, stateUpdateSupplier)
}

/**
 * Kafka disables logging explicitly for global stores; a builder that cannot turn it off (no
 * `withLoggingDisabled()`) while it logs is rejected with Kafka's message.
 */
function disableLogging(storeBuilder: StoreBuilder<StateStore>): void {
  const candidate = storeBuilder as StoreBuilder<StateStore> & { withLoggingDisabled?: () => unknown }
  if (typeof candidate.withLoggingDisabled === 'function') candidate.withLoggingDisabled()
  if (storeBuilder.loggingEnabled) {
    throw new TopologyError('TOPOLOGY_INVALID', `StateStore ${storeBuilder.name} for global table must not have logging enabled.`)
  }
}
