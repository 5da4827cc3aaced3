/**
 * How far a store has seen its input (Kafka Streams' `Position`, KIP-796): per topic and
 * partition, the offset of the last record whose processing wrote to the store. A
 * `PositionBound` asks a query to answer only from a store at least that far (read your own
 * writes: the bound is the offsets the producer was given); a store behind answers
 * NOT_UP_TO_BOUND. Positions are tracked in memory, from writes: after a restore a store's
 * position is empty until it is written again (Kafka's default, without consistency vectors).
 */
export class Position {
  readonly #offsets: Map<string, Map<number, number>>

  private constructor(offsets: Map<string, Map<number, number>>) {
    this.#offsets = offsets
  }

  /** A position with no offsets. */
  static emptyPosition(): Position {
    return new Position(new Map())
  }

  /** From `{ topic: { partition: offset } }` or the same as nested Maps. */
  static fromMap(
    map: ReadonlyMap<string, ReadonlyMap<number, number>> | Readonly<Record<string, Readonly<Record<number, number>>>>
  ): Position {
    const offsets = new Map<string, Map<number, number>>()
    const entries = map instanceof Map ? [...map] : Object.entries(map as Record<string, Record<number, number>>)
    for (const [topic, partitions] of entries) {
      const inner =
        partitions instanceof Map
          ? [...partitions]
          : Object.entries(partitions as Record<number, number>).map(([p, o]) => [Number(p), o] as const)
      offsets.set(topic, new Map(inner as Array<[number, number]>))
    }
    return new Position(offsets)
  }

  /** Sets the offset of a topic partition (mutates; returns this). */
  withComponent(topic: string, partition: number, offset: number): this {
    let partitions = this.#offsets.get(topic)
    if (partitions === undefined) {
      partitions = new Map()
      this.#offsets.set(topic, partitions)
    }
    partitions.set(partition, offset)
    return this
  }

  /** Records a write by the record at `offset`: keeps the larger offset per partition. @internal */
  update(topic: string, partition: number, offset: number): void {
    const partitions = this.#offsets.get(topic)
    const current = partitions?.get(partition)
    if (current === undefined || offset > current) this.withComponent(topic, partition, offset)
  }

  /** A copy that can be changed without changing this one. */
  copy(): Position {
    return Position.fromMap(this.#offsets)
  }

  /** A new position with the larger offset of the two for every topic partition. */
  merge(other: Position): Position {
    const merged = this.copy()
    for (const topic of other.getTopics()) {
      for (const [partition, offset] of other.getPartitionPositions(topic)) merged.update(topic, partition, offset)
    }
    return merged
  }

  /** The topics the position has offsets of. */
  getTopics(): Set<string> {
    return new Set(this.#offsets.keys())
  }

  /** The offset per partition of `topic` (a copy; empty for a topic it does not have). */
  getPartitionPositions(topic: string): Map<number, number> {
    return new Map(this.#offsets.get(topic) ?? [])
  }

  /** Whether the position has no offsets. */
  isEmpty(): boolean {
    return this.#offsets.size === 0
  }

  /** Whether `other` has the same offsets. */
  equals(other: Position): boolean {
    return this.toString() === other.toString()
  }

  /** `Position{position={topic={partition=offset, ...}}}`, as Kafka Streams prints it. */
  toString(): string {
    const topics = [...this.#offsets.keys()].sort().map(
      t =>
        `${t}={${[...this.#offsets.get(t)!]
          .sort((a, b) => a[0] - b[0])
          .map(([p, o]) => `${p}=${o}`)
          .join(', ')}}`
    )
    return `Position{position={${topics.join(', ')}}}`
  }
}

/** How far a store must be for a query to be answered (Kafka Streams' `PositionBound`). */
export class PositionBound {
  readonly #position: Position | undefined

  private constructor(position: Position | undefined) {
    this.#position = position
  }

  /** Any position will do (the default). */
  static unbounded(): PositionBound {
    return new PositionBound(undefined)
  }

  /** The store must have seen at least these offsets (of the partitions the query asks). */
  static at(position: Position): PositionBound {
    return new PositionBound(position.copy())
  }

  /** Whether any position will do. */
  isUnbounded(): boolean {
    return this.#position === undefined
  }

  /** The bound's position (empty when unbounded). */
  position(): Position {
    return this.#position?.copy() ?? Position.emptyPosition()
  }

  /**
   * Whether a store partition at `position` may answer (Kafka's StoreQueryUtils.isPermitted): for
   * every topic the bound names for `partition`, the store has seen that partition at least up
   * to the bound's offset.
   */
  permits(position: Position, partition: number): boolean {
    if (this.#position === undefined) return true
    for (const topic of this.#position.getTopics()) {
      const bound = this.#position.getPartitionPositions(topic).get(partition)
      if (bound === undefined) continue
      const seen = position.getPartitionPositions(topic).get(partition)
      if (seen === undefined || seen < bound) return false
    }
    return true
  }

  /** The bound, for logs. */
  toString(): string {
    return this.#position === undefined ? 'PositionBound{unbounded}' : `PositionBound{position=${this.#position.toString()}}`
  }
}
