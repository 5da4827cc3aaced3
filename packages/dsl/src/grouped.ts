/**
 * How a stream is grouped (Kafka Streams' `Grouped`): the serdes of the repartition topic and its
 * name (`<name>-repartition`, also the name of the key-selecting processor of `groupBy`).
 */
import type { Serde } from '@kstreams/core'
import { validateName } from './named.js'

export class Grouped<K, V> {
  private constructor(
    readonly name: string | undefined,
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined
  ) {}

  static with<K, V>(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined): Grouped<K, V> {
    return new Grouped<K, V>(undefined, keySerde, valueSerde)
  }

  static as<K = unknown, V = unknown>(name: string): Grouped<K, V> {
    return new Grouped<K, V>(validateName(name), undefined, undefined)
  }

  withName(name: string): Grouped<K, V> {
    return new Grouped(validateName(name), this.keySerde, this.valueSerde)
  }

  withKeySerde(keySerde: Serde<K>): Grouped<K, V> {
    return new Grouped(this.name, keySerde, this.valueSerde)
  }

  withValueSerde(valueSerde: Serde<V>): Grouped<K, V> {
    return new Grouped(this.name, this.keySerde, valueSerde)
  }
}
