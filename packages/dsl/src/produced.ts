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

export class Produced<K, V> {
  readonly keySerde: Serde<K> | undefined
  readonly valueSerde: Serde<V> | undefined
  readonly partitioner: StreamPartitioner<K, V> | undefined
  readonly name: string | undefined

  private constructor(fields: ProducedFields<K, V>) {
    this.keySerde = fields.keySerde
    this.valueSerde = fields.valueSerde
    this.partitioner = fields.partitioner
    this.name = fields.name
  }

  static with<K, V>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    partitioner?: StreamPartitioner<K, V>
  ): Produced<K, V> {
    return new Produced({ keySerde, valueSerde, partitioner })
  }

  static as<K = unknown, V = unknown>(processorName: string): Produced<K, V> {
    return new Produced({ name: validateName(processorName) })
  }

  withKeySerde(keySerde: Serde<K>): Produced<K, V> {
    return new Produced({ ...this.#fields(), keySerde })
  }

  withValueSerde(valueSerde: Serde<V>): Produced<K, V> {
    return new Produced({ ...this.#fields(), valueSerde })
  }

  withStreamPartitioner(partitioner: StreamPartitioner<K, V>): Produced<K, V> {
    return new Produced({ ...this.#fields(), partitioner })
  }

  withName(processorName: string): Produced<K, V> {
    return new Produced({ ...this.#fields(), name: validateName(processorName) })
  }

  #fields(): ProducedFields<K, V> {
    return { keySerde: this.keySerde, valueSerde: this.valueSerde, partitioner: this.partitioner, name: this.name }
  }
}
