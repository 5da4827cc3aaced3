/**
 * What the topology optimizations need to know about the DSL's operators (Kafka Streams keeps
 * it on its graph nodes): which nodes change keys (selectKey, map, flatMap, groupBy's key
 * selector) or only values (mapValues, flatMapValues), the merge nodes, every repartition topic
 * the DSL wrote (filter, sink and source: one node of Kafka's graph) and the stream-stream joins.
 * `view()` turns the written topology into Kafka's graph: a repartition is one node (named after
 * its source) whose parents are the filter's, and a stream-stream join is one node (named after
 * its merge processor) whose parents are the two joined streams. @internal
 */
import type { Serde, StateStore, StoreBuilder, Topology } from '@kstreams/core'
import { TOPOLOGY_DEF } from '@kstreams/core/internal'

/** A repartition topic written by the DSL. */
export interface RepartitionUnit {
  readonly filter: string
  readonly sink: string
  readonly source: string
  readonly topic: string
  readonly keySerde: Serde<unknown> | undefined
  readonly valueSerde: Serde<unknown> | undefined
}

/** A stream-stream join written by the DSL, with what its single-store rewrite needs. */
export interface StreamJoinUnit {
  readonly left: string
  readonly right: string
  readonly thisWindowed: string
  readonly otherWindowed: string
  readonly joinThis: string
  readonly joinOther: string
  readonly merge: string
  readonly thisStore: StoreBuilder<StateStore>
  readonly otherStore: StoreBuilder<StateStore>
  readonly outerStore: StoreBuilder<StateStore> | undefined
  /** The processor of the rewritten join (Kafka's KStreamKStreamSelfJoin). */
  readonly selfJoin: Parameters<Topology['addProcessor']>[1]
}

export class OptimizationGraph {
  readonly keyChangers: string[] = []
  readonly #keyChanging = new Set<string>()
  readonly #valueChanging = new Set<string>()
  readonly mergeNodes: string[] = []
  /** Every repartition unit by its source name. */
  readonly #units = new Map<string, RepartitionUnit>()
  /** The units merge.repartition.topics may replace (Kafka's OptimizableRepartitionNode), in creation order. */
  readonly optimizable: RepartitionUnit[] = []
  readonly streamJoins: StreamJoinUnit[] = []

  keyChanger(name: string): void {
    this.keyChangers.push(name)
    this.#keyChanging.add(name)
  }

  valueChanger(name: string): void {
    this.#valueChanging.add(name)
  }

  mergeNode(name: string): void {
    this.mergeNodes.push(name)
  }

  repartition(unit: RepartitionUnit, optimizable: boolean): void {
    this.#units.set(unit.source, unit)
    if (optimizable) this.optimizable.push(unit)
  }

  streamJoin(unit: StreamJoinUnit): void {
    this.streamJoins.push(unit)
  }

  isKeyChanging(name: string): boolean {
    return this.#keyChanging.has(name)
  }

  isKeyOrValueChanging(name: string): boolean {
    return this.#keyChanging.has(name) || this.#valueChanging.has(name)
  }

  unit(source: string): RepartitionUnit | undefined {
    return this.#units.get(source)
  }

  /** Kafka's graph of the topology as written so far. */
  view(topology: Topology): GraphView {
    const def = topology[TOPOLOGY_DEF]()
    const hidden = new Set<string>()
    for (const unit of this.#units.values()) hidden.add(unit.filter).add(unit.sink)
    const joins = new Map(this.streamJoins.map(join => [join.merge, [...new Set([join.left, join.right])]]))
    const parents = new Map<string, string[]>()
    for (const [name, node] of def.nodes) {
      if (hidden.has(name)) continue
      const unit = this.#units.get(name)
      const filter = unit === undefined ? undefined : def.nodes.get(unit.filter)
      const own = filter !== undefined ? filter : node
      parents.set(name, joins.get(name) ?? (own.kind === 'source' ? [] : [...own.parents]))
    }
    return new GraphView(parents, new Set(joins.keys()))
  }
}

/** Kafka's graph nodes and their parents (ordered, without duplicates), edited by the optimizations. */
export class GraphView {
  readonly parents: Map<string, string[]>
  /** Join nodes: their parents are the joined streams, not their topology parents. */
  readonly joinNodes: ReadonlySet<string>

  constructor(parents: Map<string, string[]>, joinNodes: ReadonlySet<string>) {
    this.parents = parents
    this.joinNodes = joinNodes
  }

  parentsOf(name: string): readonly string[] {
    return this.parents.get(name) ?? []
  }

  childrenOf(name: string): string[] {
    return [...this.parents].filter(([, parents]) => parents.includes(name)).map(([child]) => child)
  }

  /** GraphNode.addChild: `parent` joins the end of the child's parents unless already there. */
  addChild(parent: string, child: string): void {
    const parents = this.parents.get(child) ?? []
    if (!parents.includes(parent)) parents.push(parent)
    this.parents.set(child, parents)
  }

  /** GraphNode.removeChild. */
  removeChild(parent: string, child: string): void {
    const parents = this.parents.get(child)
    const i = parents?.indexOf(parent) ?? -1
    if (i >= 0) parents!.splice(i, 1)
  }

  /**
   * Kafka's InternalStreamsBuilder.findParentNodeMatching, as it is: `start` itself when it
   * matches, a direct parent that matches, else the result of searching above the last parent.
   */
  findParentMatching(start: string, matches: (name: string) => boolean): string | undefined {
    if (matches(start)) return start
    let found: string | undefined
    for (const parent of this.parentsOf(start)) {
      if (matches(parent)) return parent
      found = this.findParentMatching(parent, matches)
    }
    return found
  }
}
