/**
 * How a stream-table join is configured (Kafka Streams' `Joined`): the key serde, the stream's
 * value serde and the table's value serde (used when the stream must be repartitioned first), and
 * the join processor's name (also the repartition topic's prefix). Immutable: `with*` returns a copy.
 * Kafka's grace period (for versioned tables) is not supported.
 */
import type { Serde } from '@kstreams/core'
import { validateName } from './named.js'

/** How a stream-table join is configured (Kafka Streams' Joined): serdes and the join processor's name. */
export class Joined<K, V, VO> {
  private constructor(
    /** The key serde; undefined: the upstream or default serde. */
    readonly keySerde: Serde<K> | undefined,
    /** The stream's value serde; undefined: the upstream or default serde. */
    readonly valueSerde: Serde<V> | undefined,
    /** The table's value serde; undefined: the upstream or default serde. */
    readonly otherValueSerde: Serde<VO> | undefined,
    /** The join processor's name (also the repartition topic's prefix); undefined: generated. */
    readonly name: string | undefined
  ) {}

  /** The serdes, and optionally a name. */
  static with<K, V, VO>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    otherValueSerde: Serde<VO> | undefined,
    name?: string
  ): Joined<K, V, VO> {
    return new Joined(keySerde, valueSerde, otherValueSerde, name === undefined ? undefined : validateName(name))
  }

  /** Only a name; serdes come from upstream or the config defaults. */
  static as<K = unknown, V = unknown, VO = unknown>(name: string): Joined<K, V, VO> {
    return new Joined<K, V, VO>(undefined, undefined, undefined, validateName(name))
  }

  /** A copy with another name. */
  withName(name: string): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, this.otherValueSerde, validateName(name))
  }

  /** A copy with another key serde. */
  withKeySerde(keySerde: Serde<K>): Joined<K, V, VO> {
    return new Joined(keySerde, this.valueSerde, this.otherValueSerde, this.name)
  }

  /** A copy with another stream value serde. */
  withValueSerde(valueSerde: Serde<V>): Joined<K, V, VO> {
    return new Joined(this.keySerde, valueSerde, this.otherValueSerde, this.name)
  }

  /** A copy with another table value serde. */
  withOtherValueSerde(otherValueSerde: Serde<VO>): Joined<K, V, VO> {
    return new Joined(this.keySerde, this.valueSerde, otherValueSerde, this.name)
  }
}
