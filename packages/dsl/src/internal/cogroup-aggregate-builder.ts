/**
 * Adds a cogrouped aggregation to the topology (Kafka Streams' CogroupedStreamAggregateBuilder),
 * windowed or not: a repartition topic for each grouped stream whose grouping changed keys
 * (named `<Grouped name, else store name>-repartition`), one aggregation processor per grouped
 * stream (COGROUPKSTREAM-AGGREGATE-<n>, or `<name>-cogroup-agg-<i>`), all writing the one store,
 * and the pass-through merge node (COGROUPKSTREAM-MERGE-<n>, or `<name>-cogroup-merge`) whose
 * output is the resulting table (Kafka Streams' KTablePassThrough: asking it for old values asks
 * every aggregation; its view reads the shared store). @internal
 */
import type { ProcessorSupplier, Serde, StateStore, StoreBuilder } from '@kstreams/core'
import type { Aggregator } from '../functions.js'
import type { Grouped } from '../grouped.js'
import { KTable } from '../ktable.js'
import type { Named } from '../named.js'
import type { Change } from '../change.js'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { KTableProcessorSupplier } from './ktable-processor-supplier.js'
import { createRepartitionedSource } from './repartition.js'
import { passThroughProcessor } from './stateless-processors.js'

/** What a cogrouping knows of one of its grouped streams. */
export interface CogroupSource<K, V> {
  readonly builder: InternalStreamsBuilder
  readonly name: string
  readonly grouped: Grouped<K, V>
  readonly repartitionRequired: boolean
}

export interface CogroupPattern<K, VOut> {
  /** The KGroupedStream itself: cogrouping it again replaces its aggregator. */
  readonly stream: unknown
  readonly source: CogroupSource<K, unknown>
  readonly aggregator: Aggregator<K, unknown, VOut>
}

export interface CogroupAggregate<K, KOut, VOut> {
  readonly named: Named | undefined
  readonly storeName: string
  readonly queryableStoreName: string | undefined
  readonly storeBuilder: StoreBuilder<StateStore>
  readonly keySerde: Serde<KOut> | undefined
  readonly valueSerde: Serde<VOut> | undefined
  /** The aggregation processor of one grouped stream (Kafka Streams' KStreamAggregate, KStreamWindowAggregate...). */
  createSupplier(aggregator: Aggregator<K, unknown, VOut>): KTableProcessorSupplier<K, unknown, KOut, VOut>
}

export function buildCogroupAggregate<K, KOut, VOut>(
  builder: InternalStreamsBuilder,
  patterns: ReadonlyArray<CogroupPattern<K, VOut>>,
  aggregate: CogroupAggregate<K, KOut, VOut>
): KTable<KOut, VOut> {
  const { named, storeName } = aggregate
  const parents = patterns.map(({ source }) =>
    source.repartitionRequired
      ? createRepartitionedSource(
          builder,
          source.name,
          source.grouped.name ?? storeName,
          source.grouped.keySerde,
          source.grouped.valueSerde
        )
      : source.name
  )
  const topology = builder.topology
  const aggregators: Array<KTableProcessorSupplier<K, unknown, KOut, VOut>> = []
  const aggregatorNames: string[] = []
  patterns.forEach((pattern, i) => {
    const name = suffixedOrGenerated(builder, named, `-cogroup-agg-${i}`, 'COGROUPKSTREAM-AGGREGATE-')
    const supplier = aggregate.createSupplier(pattern.aggregator)
    aggregators.push(supplier)
    aggregatorNames.push(name)
    topology.addProcessor(name, () => supplier.get(), parents[i]!)
    if (i === 0) topology.addStateStore(aggregate.storeBuilder, name)
    else topology.connectProcessorAndStateStores(name, storeName)
  })
  const mergeName = suffixedOrGenerated(builder, named, '-cogroup-merge', 'COGROUPKSTREAM-MERGE-')
  const passThrough: KTableProcessorSupplier<KOut, Change<VOut>, KOut, VOut> = {
    sendOldValues: false,
    storeName,
    enableSendingOldValues(): boolean {
      for (const aggregator of aggregators) aggregator.enableSendingOldValues(true)
      passThrough.sendOldValues = true
      return true
    },
    view: () => aggregators[0]!.view(),
    // suppress(untilWindowCloses) finds the windowed aggregations' grace through the merge node.
    ...{ parentSuppliers: aggregators },
    get: () => (passThroughProcessor<KOut, Change<VOut>>() as ProcessorSupplier<KOut, Change<VOut>, KOut, Change<VOut>>)()
  }
  topology.addProcessor(mergeName, () => passThrough.get(), ...aggregatorNames)
  return new KTable<KOut, VOut>(
    builder,
    mergeName,
    aggregate.keySerde,
    aggregate.valueSerde,
    passThrough as unknown as KTableProcessorSupplier<unknown, unknown, KOut, VOut>,
    aggregate.queryableStoreName
  )
}

/** Kafka Streams' NamedInternal.suffixWithOrElseGet: the index is drawn even when a name is given. */
function suffixedOrGenerated(builder: InternalStreamsBuilder, named: Named | undefined, suffix: string, prefix: string): string {
  const generated = builder.newProcessorName(prefix)
  return named === undefined ? generated : named.name + suffix
}
