/**
 * How a foreign-key table-table join is set up (Kafka Streams' `TableJoined`): the partitioners
 * of the left table's and the right table's topics (when they are not partitioned by the default
 * partitioner, so that subscriptions and responses reach the right partitions; each receives the
 * key only) and a name, from which the join's processors, stores and internal topics are named.
 * Immutable: `with*` returns a copy.
 */
import type { StreamPartitioner } from '@kstreams/core'
import { validateName } from './named.js'

/** How a foreign-key table-table join is set up (Kafka Streams' TableJoined): partitioners and a name. Immutable. */
export class TableJoined<K, KO> {
  private constructor(
    /** Partitions the left table's keys (a response goes to the partition of its left key). */
    readonly partitioner: StreamPartitioner<K, void> | undefined,
    /** Partitions the right table's keys (a subscription goes to the partition of its foreign key). */
    readonly otherPartitioner: StreamPartitioner<KO, void> | undefined,
    /** The base of the join's processor, store and topic names; undefined: generated. */
    readonly name: string | undefined
  ) {}

  /** The partitioners of the left and the right table's topics (undefined: the default one). */
  static with<K, KO>(
    partitioner: StreamPartitioner<K, void> | undefined,
    otherPartitioner: StreamPartitioner<KO, void> | undefined
  ): TableJoined<K, KO> {
    return new TableJoined(partitioner, otherPartitioner, undefined)
  }

  /** A name for the join's processors, stores and topics (the partitioners stay the default ones). */
  static as<K, KO>(name: string): TableJoined<K, KO> {
    return new TableJoined<K, KO>(undefined, undefined, validateName(name))
  }

  /** A copy with another partitioner of the left table's keys. */
  withPartitioner(partitioner: StreamPartitioner<K, void> | undefined): TableJoined<K, KO> {
    return new TableJoined(partitioner, this.otherPartitioner, this.name)
  }

  /** A copy with another partitioner of the right table's keys. */
  withOtherPartitioner(otherPartitioner: StreamPartitioner<KO, void> | undefined): TableJoined<K, KO> {
    return new TableJoined(this.partitioner, otherPartitioner, this.name)
  }

  /** A copy with another name. */
  withName(name: string): TableJoined<K, KO> {
    return new TableJoined(this.partitioner, this.otherPartitioner, validateName(name))
  }
}
