/**
 * What the StreamsPartitionAssignor needs to know about the topology: per sub-topology its
 * source topics and patterns, its changelog topics, and the repartition topics it reads and
 * writes; plus the repartition topics and co-partition groups. All internal topic names are
 * full names (prefixed with the application id). `assignorTopologyFrom` derives it from a
 * TopologyDef. @internal
 */
import type { TopologyDef } from '../../topology/definitions.js'

export interface AssignorSubtopology {
  readonly id: number
  /** User topics read by its sources (fixed names). */
  readonly sourceTopics: readonly string[]
  readonly sourcePatterns: readonly RegExp[]
  /** Full names of the changelog topics of its logged stores. */
  readonly changelogTopics: readonly string[]
  /** Source topics that are also the changelog of one of its stores (reuse.ktable.source.topics); never created. */
  readonly sourceChangelogTopics?: readonly string[]
  /** Full names of the repartition topics its sources read. */
  readonly repartitionSourceTopics: readonly string[]
  /** Full names of the repartition topics its sinks write (used to size those topics). */
  readonly repartitionSinkTopics?: readonly string[]
}

export interface RepartitionTopicSpec {
  /** A partition count fixed by the user (`Repartitioned.withNumberOfPartitions`). */
  readonly numPartitions?: number
  /** Topic config overrides. */
  readonly configs?: Readonly<Record<string, string>>
}

export interface AssignorTopology {
  readonly subtopologies: readonly AssignorSubtopology[]
  /** Repartition topics by full name. */
  readonly repartitionTopics: ReadonlyMap<string, RepartitionTopicSpec>
  /** Topic config overrides of changelog topics, by full name (e.g. a store's `withLoggingEnabled(configs)`). */
  readonly changelogConfigs?: ReadonlyMap<string, Readonly<Record<string, string>>>
  /** Groups of topics (user names or full internal names) that must have equal partition counts. */
  readonly copartitionGroups: ReadonlyArray<readonly string[]>
}

export interface AssignorTopologyExtras {
  /** Repartition topics by name without the application-id prefix (as in `describe()`), e.g. "x-repartition". */
  readonly repartitionTopics?: ReadonlyMap<string, RepartitionTopicSpec>
  /** Co-partition groups; repartition topics given by name without prefix. */
  readonly copartitionGroups?: ReadonlyArray<readonly string[]>
  /** Added to a windowed store's retention for its changelog's retention.ms (`windowstoreChangelogAdditionalRetentionMs`); default 1 day. */
  readonly windowstoreChangelogAdditionalRetentionMs?: number
}

/** `<applicationId>-<storeName>-changelog`. */
export function changelogTopicName(applicationId: string, storeName: string): string {
  return `${applicationId}-${storeName}-changelog`
}

/** `<applicationId>-<name>` for an internal topic name as it appears in the topology. */
export function internalTopicName(applicationId: string, name: string): string {
  return `${applicationId}-${name}`
}

/**
 * Derives the assignor's view of a topology. Changelogs come from the stores whose builder has
 * logging enabled. TopologyDef has no notion of repartition topics or co-partitioning yet:
 * `extras` names them, and sources and sinks on those topics become repartition sources and
 * sinks.
 */
export function assignorTopologyFrom(def: TopologyDef, applicationId: string, extras: AssignorTopologyExtras = {}): AssignorTopology {
  const repartitionShort = extras.repartitionTopics ?? new Map<string, RepartitionTopicSpec>()
  const full = (name: string): string => (repartitionShort.has(name) ? internalTopicName(applicationId, name) : name)
  const changelogConfigs = new Map<string, Readonly<Record<string, string>>>()

  const subtopologies = def.subtopologies.map((sub): AssignorSubtopology => {
    const changelogTopics: string[] = []
    for (const store of sub.stores) {
      const builder = def.storeBuilders.get(store)
      if (builder === undefined || !builder.loggingEnabled) continue
      const topic = changelogTopicName(applicationId, store)
      changelogTopics.push(topic)
      const additional = extras.windowstoreChangelogAdditionalRetentionMs
      const windowed = builder as { changelogConfig?: (additionalRetentionMs: number) => Readonly<Record<string, string>> }
      const logConfig =
        additional !== undefined && typeof windowed.changelogConfig === 'function'
          ? windowed.changelogConfig(additional)
          : builder.logConfig
      if (Object.keys(logConfig).length > 0) changelogConfigs.set(topic, logConfig)
    }
    const repartitionSinkTopics: string[] = []
    for (const name of sub.nodes) {
      const node = def.nodes.get(name)
      if (node?.kind === 'sink' && node.topic !== undefined && repartitionShort.has(node.topic)) {
        repartitionSinkTopics.push(full(node.topic))
      }
    }
    return {
      id: sub.id,
      sourceTopics: sub.sourceTopics.filter(topic => !repartitionShort.has(topic)),
      sourcePatterns: sub.sourcePatterns,
      changelogTopics,
      sourceChangelogTopics: [
        ...new Set(sub.stores.flatMap(store => (def.sourceChangelogs.has(store) ? [def.sourceChangelogs.get(store)!] : [])))
      ],
      repartitionSourceTopics: sub.sourceTopics.filter(topic => repartitionShort.has(topic)).map(full),
      repartitionSinkTopics: [...new Set(repartitionSinkTopics)]
    }
  })

  const repartitionTopics = new Map<string, RepartitionTopicSpec>()
  for (const [name, spec] of repartitionShort) repartitionTopics.set(internalTopicName(applicationId, name), spec)
  return {
    subtopologies,
    repartitionTopics,
    changelogConfigs,
    copartitionGroups: (extras.copartitionGroups ?? []).map(group => group.map(full))
  }
}
