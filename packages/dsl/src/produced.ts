/**
 * How a stream is written to a topic (Kafka Streams' `Produced`): key and value serdes, an
 * optional partitioner and the sink processor name. Immutable: `with*` returns a copy.
 */
import type { Serde, StreamPartitioner } from '@kstreams/core'
import { validateName } from './named.js'

interface ProducedFields<K, V> {
  readonly keySerde?: Serde<K> | undefined
  readonly valueSerde?: Serde<V> | undefined
  readonly partitioner?: StreamPartitioner<K, V> | undefined
  readonly name?: string | undefined
}

/** How a stream is written to a topic (Kafka Streams' Produced): serdes, partitioner, name. */
export class Produced<K, V> {
  /** The key serde; undefined: the config's defaultKeySerde. */
  readonly keySerde: Serde<K> | undefined
  /** The value serde; undefined: the config's defaultValueSerde. */
  readonly valueSerde: Serde<V> | undefined
  /** Chooses each record's partition; undefined: murmur2 of the serialized key. */
  readonly partitioner: StreamPartitioner<K, V> | undefined
  /** The sink processor's name; undefined: a generated one. */
  readonly name: string | undefined

  private constructor(fields: ProducedFields<K, V>) {
    this.keySerde = fields.keySerde
    this.valueSerde = fields.valueSerde
    this.partitioner = fields.partitioner
    this.name = fields.name
  }

  /** Serdes, and optionally a partitioner. */
  static with<K, V>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    partitioner?: StreamPartitioner<K, V>
  ): Produced<K, V> {
    return new Produced({ keySerde, valueSerde, partitioner })
  }

  /** Only a sink processor name; serdes come from the config defaults. */
  static as<K = unknown, V = unknown>(processorName: string): Produced<K, V> {
    return new Produced({ name: validateName(processorName) })
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): Produced<K, V> {
    return new Produced({ ...this.#fields(), keySerde })
  }

  /** A copy with another value serde. */
  withValueSerde(valueSerde: Serde<V>): Produced<K, V> {
    return new Produced({ ...this.#fields(), valueSerde })
  }

  /** A copy with another partitioner. */
  withStreamPartitioner(partitioner: StreamPartitioner<K, V>): Produced<K, V> {
    return new Produced({ ...this.#fields(), partitioner })
  }

  /** A copy with another sink processor name. */
  withName(processorName: string): Produced<K, V> {
    return new Produced({ ...this.#fields(), name: validateName(processorName) })
  }

  #fields(): ProducedFields<K, V> {
    return { keySerde: this.keySerde, valueSerde: this.valueSerde, partitioner: this.partitioner, name: this.name }
  }
}
