/**
 * How a stream is grouped (Kafka Streams' `Grouped`): the serdes of the repartition topic and its
 * name (`<name>-repartition`, also the name of the key-selecting processor of `groupBy`).
 */
import type { Serde } from '@kstreams/core'
import { validateName } from './named.js'

/** How a stream is grouped (Kafka Streams' Grouped): the repartition topic's serdes and name. */
export class Grouped<K, V> {
  private constructor(
    /** The name of the repartition topic (`<name>-repartition`) and processor; undefined: generated. */
    readonly name: string | undefined,
    /** The key serde; undefined: the upstream or default serde. */
    readonly keySerde: Serde<K> | undefined,
    /** The value serde; undefined: the upstream or default serde. */
    readonly valueSerde: Serde<V> | undefined
  ) {}

  /** The serdes of the repartition topic. */
  static with<K, V>(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined): Grouped<K, V> {
    return new Grouped<K, V>(undefined, keySerde, valueSerde)
  }

  /** Only a name; serdes come from upstream or the config defaults. */
  static as<K = unknown, V = unknown>(name: string): Grouped<K, V> {
    return new Grouped<K, V>(validateName(name), undefined, undefined)
  }

  /** A copy with another name. */
  withName(name: string): Grouped<K, V> {
    return new Grouped(validateName(name), this.keySerde, this.valueSerde)
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): Grouped<K, V> {
    return new Grouped(this.name, keySerde, this.valueSerde)
  }

  /** A copy with another value serde. */
  withValueSerde(valueSerde: Serde<V>): Grouped<K, V> {
    return new Grouped(this.name, this.keySerde, valueSerde)
  }
}
