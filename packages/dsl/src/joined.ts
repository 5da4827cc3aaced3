/**
 * How a stream-table join is configured (Kafka Streams' `Joined`): the key serde, the stream's
 * value serde and the table's value serde (used when the stream must be repartitioned first), and
 * the join processor's name (also the repartition topic's prefix). Immutable: `with*` returns a copy.
 * Kafka's grace period (for versioned tables) is not supported.
 */
import type { Serde } from '@kstreams/core'
import { validateName } from './named.js'

export class Joined<K, V, VO> {
  private constructor(
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined,
    readonly otherValueSerde: Serde<VO> | undefined,
    readonly name: string | undefined
  ) {}

  static with<K, V, VO>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    otherValueSerde: Serde<VO> | undefined,
    name?: string
  ): Joined<K, V, VO> {
    return new Joined(keySerde, valueSerde, otherValueSerde, name === undefined ? undefined : validateName(name))
  }

  static as<K = unknown, V = unknown, VO = unknown>(name: string): Joined<K, V, VO> {
    return new Joined<K, V, VO>(undefined, undefined, undefined, validateName(name))
  }

  withName(name: string): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, this.otherValueSerde, validateName(name))
  }

  withKeySerde(keySerde: Serde<K>): Joined<K, V, VO> {
    return new Joined(keySerde, this.valueSerde, this.otherValueSerde, this.name)
  }

  withValueSerde(valueSerde: Serde<V>): Joined<K, V, VO> {
    return new Joined(this.keySerde, valueSerde, this.otherValueSerde, this.name)
  }

  withOtherValueSerde(otherValueSerde: Serde<VO>): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, otherValueSerde, this.name)
  }
}
