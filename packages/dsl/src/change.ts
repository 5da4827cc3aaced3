/**
 * The value of a KTable update record (Kafka Streams' internal `Change`): the new value and, only
 * when a downstream operator asked for it, the old one (null otherwise or when there was none).
 */
export class Change<V> {
  constructor(
    /** The new value; null for a delete. */
    readonly newValue: V | null,
    /** The old value, when asked for; null otherwise or when there was none. */
    readonly oldValue: V | null
  ) {}

  /** `(new<-old)`, as Kafka Streams prints it. */
  toString(): string {
    return `(${String(this.newValue)}<-${String(this.oldValue)})`
  }
}
