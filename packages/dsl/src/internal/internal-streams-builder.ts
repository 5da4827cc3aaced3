/**
 * The state behind a StreamsBuilder (Kafka Streams' InternalStreamsBuilder): the core Topology
 * the DSL writes into, the shared name counter (processors and stores draw from one sequence,
 * ten digits, as in Kafka Streams so that generated names and describe() output match), and the
 * steps deferred to build() (stores whose materialization is decided by later operators).
 * @internal
 */
import { Topology } from '@kstreams/core'
import type { DslStoreSuppliers, TopologyOptimizationName } from '@kstreams/core'
import { InMemoryDslStoreSuppliers } from '@kstreams/stores'
import { mergeRepartitionTopics } from './merge-repartition-topics.js'
import { OptimizationGraph } from './optimization-graph.js'
import { rewriteSingleStoreSelfJoins } from './single-store-self-join.js'

export class InternalStreamsBuilder {
  readonly topology = new Topology()
  /** The backend of stores whose Materialized (or StreamJoined) names no supplier. */
  readonly storeSuppliers: DslStoreSuppliers
  /**
   * Nodes of joins that accept records with a null key (Kafka's NULL_KEY_RELAXED_JOIN label: left
   * and outer stream-stream joins, left stream-table and stream-GlobalKTable joins): repartition
   * topics upstream of one keep null keys, the others drop them.
   */
  readonly relaxedNullKeyJoins = new Set<string>()
  /** The versioned stores of source tables, by name, with their history retention (ms). */
  readonly versionedStores = new Map<string, number>()
  /** What merge.repartition.topics and single.store.self.join need to know about the operators. */
  readonly graph = new OptimizationGraph()
  /** The sources of builder.stream(), by topic (or pattern): Kafka merges two streams of the same topics into one source. */
  readonly streamSources = new Map<
    string,
    { readonly name: string; readonly topics: readonly string[] | RegExp; readonly offsetReset: unknown }
  >()

  constructor(storeSuppliers: DslStoreSuppliers | undefined) {
    this.storeSuppliers = storeSuppliers ?? InMemoryDslStoreSuppliers
  }
  #index = 0
  readonly #onBuild: Array<() => void> = []
  readonly #onOptimize: Array<(optimizations: ReadonlySet<TopologyOptimizationName>) => void> = []
  #built = false

  /** `<prefix><10-digit index>`, e.g. KSTREAM-FILTER-0000000001. */
  newProcessorName(prefix: string): string {
    return prefix + String(this.#index++).padStart(10, '0')
  }

  /** `<prefix>STATE-STORE-<10-digit index>`, e.g. KSTREAM-AGGREGATE-STATE-STORE-0000000003. */
  newStoreName(prefix: string): string {
    return prefix + 'STATE-STORE-' + String(this.#index++).padStart(10, '0')
  }

  /**
   * The user's name when given, else a generated one. A generated name is drawn either way, as
   * Kafka Streams' NamedInternal.orElseGenerateWithPrefix does (it keeps later indexes stable).
   */
  nameOrGenerate(name: string | undefined, prefix: string): string {
    const generated = this.newProcessorName(prefix)
    return name ?? generated
  }

  /** Runs `step` in build(), in registration order. */
  onBuild(step: () => void): void {
    this.#onBuild.push(step)
  }

  /** A step run at build() after every onBuild step, with the optimizations enabled. */
  onOptimize(step: (optimizations: ReadonlySet<TopologyOptimizationName>) => void): void {
    this.#onOptimize.push(step)
  }

  build(optimizations: ReadonlySet<TopologyOptimizationName>): Topology {
    if (!this.#built) {
      this.#built = true
      for (const step of this.#onBuild) step()
      for (const step of this.#onOptimize) step(optimizations)
      // Kafka's order: merge.repartition.topics, then single.store.self.join on the resulting graph.
      const merge = optimizations.has('merge.repartition.topics')
      const selfJoin = optimizations.has('single.store.self.join')
      if (merge || selfJoin) {
        const view = this.graph.view(this.topology)
        if (merge) mergeRepartitionTopics(this, this.graph, view)
        if (selfJoin) rewriteSingleStoreSelfJoins(this.topology, this.graph, view)
      }
    }
    return this.topology
  }
}
