/**
 * The merge.repartition.topics optimization (Kafka Streams' InternalStreamsBuilder
 * mergeRepartitionTopics): the repartition topics that follow one key-changing operator (or a
 * merge of key-changing streams) become one topic written right after that operator. A
 * repartition belongs to the nearest key-changing node above it only when no value-changing
 * node (mapValues, flatMapValues) comes first. The new topic takes the name of the first one
 * replaced and the first serdes any of them set; its three nodes take new indexes, and the
 * operators between the key changer and each old topic now read the new one (Kafka's rewrite,
 * including its quirks). Sub-topologies are numbered as Kafka writes them: the new nodes
 * right after the key changer. @internal
 */
import { StreamsError } from '@kstreams/core'
import type { Serde } from '@kstreams/core'
import type { TopologyEdit } from '@kstreams/core/internal'
import { REWRITE } from '@kstreams/core/internal'
import type { InternalStreamsBuilder } from './internal-streams-builder.js'
import type { GraphView, OptimizationGraph, RepartitionUnit } from './optimization-graph.js'
import { createRepartitionedSource } from './repartition.js'

interface Replacement {
  readonly keyChanger: string
  /** The id of the new repartition in the view until its nodes exist. */
  readonly placeholder: string
  readonly topic: string
  readonly keySerde: Serde<unknown> | undefined
  readonly valueSerde: Serde<unknown> | undefined
}

export function mergeRepartitionTopics(builder: InternalStreamsBuilder, graph: OptimizationGraph, view: GraphView): void {
  const entries = keyChangersToRepartitions(graph, view)
  const before = new Map([...view.parents].map(([name, parents]) => [name, [...parents]]))
  const replacements: Replacement[] = []
  const removed: RepartitionUnit[] = []
  const renames: Array<readonly [string, string]> = []
  for (const [keyChanger, units] of entries) {
    if (units.length === 0) continue
    const placeholder = `\0repartition-${replacements.length}`
    replacements.push({
      keyChanger,
      placeholder,
      topic: units[0]!.topic,
      keySerde: units.find(unit => unit.keySerde !== undefined)?.keySerde,
      valueSerde: units.find(unit => unit.valueSerde !== undefined)?.valueSerde
    })
    view.parents.set(placeholder, [])
    for (const unit of units) {
      const child = view.findParentMatching(unit.source, name => view.parentsOf(name).includes(keyChanger))
      if (child === undefined) throw new StreamsError('ILLEGAL_STATE', `Found no child of key changer ${keyChanger} above ${unit.source}`)
      view.addChild(placeholder, child)
      view.removeChild(keyChanger, child)
      const unitParents = [...view.parentsOf(unit.source)]
      const unitChildren = view.childrenOf(unit.source)
      for (const c of unitChildren) for (const parent of unitParents) view.addChild(parent, c)
      for (const c of unitChildren) view.removeChild(unit.source, c)
      view.parents.delete(unit.source)
      removed.push(unit)
      renames.push([unit.source, placeholder])
    }
    view.addChild(keyChanger, placeholder)
  }
  if (replacements.length === 0) return

  const topology = builder.topology
  // Re-parent every changed node (a new topic still missing: its key changer stands in), drop the old topics...
  const changed = [...view.parents].filter(([name, parents]) => {
    const old = before.get(name)
    return !view.joinNodes.has(name) && old !== undefined && old.join('\n') !== parents.join('\n')
  })
  const standIn = new Map(replacements.map(r => [r.placeholder, r.keyChanger]))
  const edits: TopologyEdit[] = changed.map(([name, parents]) => setParents(graph, name, parents, standIn))
  for (const unit of removed) {
    for (const name of [unit.sink, unit.filter, unit.source]) edits.push({ op: 'removeNode', name })
  }
  topology[REWRITE](edits)
  // ...then write the new topics and read them.
  const real = new Map<string, string>()
  const moves: TopologyEdit[] = []
  for (const r of replacements) {
    const source = createRepartitionedSource(builder, r.keyChanger, r.topic, r.keySerde, r.valueSerde, { optimizable: false })
    const unit = graph.unit(source)!
    real.set(r.placeholder, source)
    moves.push({ op: 'moveAfter', names: [unit.filter, unit.sink, unit.source], anchor: r.keyChanger })
  }
  const final = changed
    .filter(([, parents]) => parents.some(p => real.has(p)))
    .map(([name, parents]) => setParents(graph, name, parents, real))
  const copartitions = renames.map(([from, to]): TopologyEdit => ({ op: 'renameCopartitionNode', from, to: real.get(to) ?? to }))
  topology[REWRITE]([...final, ...moves, ...copartitions])
}

/** Kafka's keyChangingOperationsToOptimizableRepartitionNodes after maybeUpdateKeyChangingRepartitionNodeMap. */
function keyChangersToRepartitions(graph: OptimizationGraph, view: GraphView): Map<string, RepartitionUnit[]> {
  const entries = new Map<string, RepartitionUnit[]>(graph.keyChangers.map(name => [name, []]))
  for (const unit of graph.optimizable) {
    const keyChanger = keyChangingParent(graph, view, unit.source)
    if (keyChanger !== undefined) entries.get(keyChanger)?.push(unit)
  }
  const mergeToKeyChangers = new Map<string, string[]>()
  for (const merge of graph.mergeNodes) {
    const keyChangers: string[] = []
    for (const [keyChanger, units] of entries) {
      const below = units.every(unit => view.findParentMatching(unit.source, name => view.parentsOf(name).includes(merge)) !== undefined)
      if (below && view.findParentMatching(merge, name => view.parentsOf(name).includes(keyChanger)) !== undefined)
        keyChangers.push(keyChanger)
    }
    mergeToKeyChangers.set(merge, keyChangers)
  }
  const replaced = new Set<string>()
  for (const [merge, keyChangers] of mergeToKeyChangers) {
    const units = new Set<RepartitionUnit>()
    for (const keyChanger of keyChangers) {
      for (const unit of entries.get(keyChanger) ?? []) units.add(unit)
      replaced.add(keyChanger)
    }
    entries.set(merge, [...units])
  }
  for (const keyChanger of replaced) entries.delete(keyChanger)
  return entries
}

/** Kafka's getKeyChangingParentNode: the nearest key changer, unless a value changer comes first. */
function keyChangingParent(graph: OptimizationGraph, view: GraphView, start: string): string | undefined {
  const first = view.findParentMatching(start, name => graph.isKeyOrValueChanging(name))
  const keyChanger = view.findParentMatching(start, name => graph.isKeyChanging(name))
  return first !== undefined && first === keyChanger ? keyChanger : undefined
}

/** The topology edit giving graph node `name` these parents (a repartition's are its filter's). */
function setParents(graph: OptimizationGraph, name: string, parents: readonly string[], rename: ReadonlyMap<string, string>): TopologyEdit {
  const unit = graph.unit(name)
  return { op: 'setParents', name: unit?.filter ?? name, parents: [...new Set(parents.map(p => rename.get(p) ?? p))] }
}
