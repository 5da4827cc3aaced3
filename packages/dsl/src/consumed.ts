/**
 * How a source topic is read (Kafka Streams' `Consumed`): key and value serdes, timestamp
 * extractor, offset reset policy and the source processor name. Immutable: `with*` returns a copy.
 */
import type { AutoOffsetReset, Serde, TimestampExtractor } from '@kstreams/core'
import { validateName } from './named.js'

interface ConsumedFields<K, V> {
  readonly keySerde?: Serde<K> | undefined
  readonly valueSerde?: Serde<V> | undefined
  readonly timestampExtractor?: TimestampExtractor | undefined
  readonly offsetReset?: AutoOffsetReset | undefined
  readonly name?: string | undefined
}

/** How a source topic is read (Kafka Streams' Consumed): serdes, timestamp extractor, offset reset, name. */
export class Consumed<K, V> {
  /** The key serde; undefined: the config's defaultKeySerde. */
  readonly keySerde: Serde<K> | undefined
  /** The value serde; undefined: the config's defaultValueSerde. */
  readonly valueSerde: Serde<V> | undefined
  /** The timestamp extractor; undefined: the config's defaultTimestampExtractor. */
  readonly timestampExtractor: TimestampExtractor | undefined
  /** Where a partition without a committed offset starts; undefined: the config's autoOffsetReset. */
  readonly offsetReset: AutoOffsetReset | undefined
  /** The source processor's name; undefined: a generated one. */
  readonly name: string | undefined

  private constructor(fields: ConsumedFields<K, V>) {
    this.keySerde = fields.keySerde
    this.valueSerde = fields.valueSerde
    this.timestampExtractor = fields.timestampExtractor
    this.offsetReset = fields.offsetReset
    this.name = fields.name
  }

  /** Serdes, and optionally a timestamp extractor and an offset reset policy. */
  static with<K, V>(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    timestampExtractor?: TimestampExtractor,
    offsetReset?: AutoOffsetReset
  ): Consumed<K, V> {
    return new Consumed({ keySerde, valueSerde, timestampExtractor, offsetReset })
  }

  /** Only a processor name; serdes come from the config defaults. */
  static as<K = unknown, V = unknown>(processorName: string): Consumed<K, V> {
    return new Consumed({ name: validateName(processorName) })
  }

  /** A copy with another key serde. */
  withKeySerde<KR>(keySerde: Serde<KR>): Consumed<KR, V> {
    return new Consumed<KR, V>({ ...this.#fields(), keySerde })
  }

  /** A copy with another value serde. */
  withValueSerde<VR>(valueSerde: Serde<VR>): Consumed<K, VR> {
    return new Consumed<K, VR>({ ...this.#fields(), valueSerde })
  }

  /** A copy with another timestamp extractor. */
  withTimestampExtractor(timestampExtractor: TimestampExtractor): Consumed<K, V> {
    return new Consumed({ ...this.#fields(), timestampExtractor })
  }

  /** A copy with another offset reset policy. */
  withOffsetResetPolicy(offsetReset: AutoOffsetReset): Consumed<K, V> {
    return new Consumed({ ...this.#fields(), offsetReset })
  }

  /** A copy with another source processor name. */
  withName(processorName: string): Consumed<K, V> {
    return new Consumed({ ...this.#fields(), name: validateName(processorName) })
  }

  #fields(): ConsumedFields<K, V> {
    return {
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      timestampExtractor: this.timestampExtractor,
      offsetReset: this.offsetReset,
      name: this.name
    }
  }
}
