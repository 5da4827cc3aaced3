/**
 * How KStream.repartition writes its topic (Kafka Streams' `Repartitioned`): the serdes of the
 * topic, its name (`<name>-repartition`, also the base of the node names), a fixed number of
 * partitions (otherwise it follows the upstream topics) and a StreamPartitioner. Immutable.
 */
import { StreamsError } from '@kstreams/core'
import type { Serde, StreamPartitioner } from '@kstreams/core'
import { validateName } from './named.js'

interface RepartitionedFields<K, V> {
  readonly name?: string | undefined
  readonly keySerde?: Serde<K> | undefined
  readonly valueSerde?: Serde<V> | undefined
  readonly numberOfPartitions?: number | undefined
  readonly partitioner?: StreamPartitioner<K, V> | undefined
}

/** How KStream.repartition writes its topic (Kafka Streams' Repartitioned): serdes, name, partitions, partitioner. Immutable. */
export class Repartitioned<K, V> {
  /** The topic is `<name>-repartition`; undefined: generated. */
  readonly name: string | undefined
  /** The key serde; undefined: the upstream or default serde. */
  readonly keySerde: Serde<K> | undefined
  /** The value serde; undefined: the upstream or default serde. */
  readonly valueSerde: Serde<V> | undefined
  /** The topic's partition count; undefined: that of the upstream topics. */
  readonly numberOfPartitions: number | undefined
  /** Chooses each record's partition; undefined: murmur2 of the serialized key. */
  readonly partitioner: StreamPartitioner<K, V> | undefined

  private constructor(fields: RepartitionedFields<K, V>) {
    this.name = fields.name
    this.keySerde = fields.keySerde
    this.valueSerde = fields.valueSerde
    this.numberOfPartitions = fields.numberOfPartitions
    this.partitioner = fields.partitioner
  }

  /** The serdes of the topic. */
  static with<K, V>(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined): Repartitioned<K, V> {
    return new Repartitioned<K, V>({ keySerde, valueSerde })
  }

  /** Names the topic `<name>-repartition` and the nodes after it. */
  static as<K = unknown, V = unknown>(name: string): Repartitioned<K, V> {
    return new Repartitioned<K, V>({ name: validateName(name) })
  }

  /** Only a partition count (positive). */
  static numberOfPartitions<K = unknown, V = unknown>(numberOfPartitions: number): Repartitioned<K, V> {
    return new Repartitioned<K, V>({ numberOfPartitions: checkPartitions(numberOfPartitions) })
  }

  /** Only a partitioner. */
  static streamPartitioner<K, V>(partitioner: StreamPartitioner<K, V>): Repartitioned<K, V> {
    return new Repartitioned<K, V>({ partitioner: checkPartitioner(partitioner) })
  }

  /** A copy with another name. */
  withName(name: string): Repartitioned<K, V> {
    return new Repartitioned({ ...this.#fields(), name: validateName(name) })
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): Repartitioned<K, V> {
    return new Repartitioned({ ...this.#fields(), keySerde })
  }

  /** A copy with another value serde. */
  withValueSerde(valueSerde: Serde<V>): Repartitioned<K, V> {
    return new Repartitioned({ ...this.#fields(), valueSerde })
  }

  /** A copy with another partition count. */
  withNumberOfPartitions(numberOfPartitions: number): Repartitioned<K, V> {
    return new Repartitioned({ ...this.#fields(), numberOfPartitions: checkPartitions(numberOfPartitions) })
  }

  /** A copy with another partitioner. */
  withStreamPartitioner(partitioner: StreamPartitioner<K, V>): Repartitioned<K, V> {
    return new Repartitioned({ ...this.#fields(), partitioner: checkPartitioner(partitioner) })
  }

  #fields(): RepartitionedFields<K, V> {
    return {
      name: this.name,
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      numberOfPartitions: this.numberOfPartitions,
      partitioner: this.partitioner
    }
  }
}

function checkPartitions(n: number): number {
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new StreamsError('ILLEGAL_ARGUMENT', `Number of partitions must be a positive integer, got ${String(n)}`)
  return n
}

function checkPartitioner<K, V>(partitioner: StreamPartitioner<K, V>): StreamPartitioner<K, V> {
  if (typeof partitioner !== 'function')
    throw new StreamsError('ILLEGAL_ARGUMENT', 'The stream partitioner must be a function (topic, key, value, numPartitions) => partition')
  return partitioner
}
