/**
 * The value of a KTable update record (Kafka Streams' internal `Change`): the new value and, only
 * when a downstream operator asked for it, the old one (null otherwise or when there was none).
 */
export class Change<V> {
  constructor(
    readonly newValue: V | null,
    readonly oldValue: V | null
  ) {}

  toString(): string {
    return `(${String(this.newValue)}<-${String(this.oldValue)})`
  }
}
