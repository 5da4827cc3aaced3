/**
 * The serdes of a foreign-key join's four data types (left key and value, foreign key, right
 * value), resolved when the first of its processors starts: a table's own serde, else the
 * application's default serde. The join's internal topics and store carry bytes, so each
 * processor serializes and deserializes with these. @internal
 */
import { ConfigError } from '@kstreams/core'
import type { Deserializer, ProcessingContext, Serde, Serializer } from '@kstreams/core'

export interface ForeignKeyJoinSerdeSpec<K, V, KO, VO> {
  readonly key: Serde<K> | undefined
  readonly value: Serde<V> | undefined
  readonly foreignKey: Serde<KO> | undefined
  readonly foreignValue: Serde<VO> | undefined
}

/** A resolved serde as its serializer and deserializer. */
export interface Codec<T> {
  readonly serializer: Serializer<T>
  readonly deserializer: Deserializer<T>
}

export interface ResolvedForeignKeyJoinSerdes<K, V, KO, VO> {
  readonly key: Codec<K>
  readonly value: Codec<V>
  readonly foreignKey: Codec<KO>
  readonly foreignValue: Codec<VO>
}

/** The join's serdes, resolved once (the first processor to start resolves them for the others and the partitioners). */
export class ForeignKeyJoinSerdes<K, V, KO, VO> {
  readonly #spec: ForeignKeyJoinSerdeSpec<K, V, KO, VO>
  readonly #joinName: string
  #resolved: ResolvedForeignKeyJoinSerdes<K, V, KO, VO> | undefined
  #applicationId = ''

  constructor(spec: ForeignKeyJoinSerdeSpec<K, V, KO, VO>, joinName: string) {
    this.#spec = spec
    this.#joinName = joinName
  }

  /** The serdes once a processor resolved them (sink partitioners run after their task's processors started). */
  get resolved(): ResolvedForeignKeyJoinSerdes<K, V, KO, VO> | undefined {
    return this.#resolved
  }

  /**
   * The name serializers see for an internal topic or pseudo topic (`-pk`, `-fk`, `-vh`):
   * prefixed with the application id, as Kafka Streams decorates them. Valid once resolved.
   */
  topic(name: string): string {
    return `${this.#applicationId}-${name}`
  }

  resolve(context: ProcessingContext): ResolvedForeignKeyJoinSerdes<K, V, KO, VO> {
    if (this.#resolved !== undefined) return this.#resolved
    const { defaultKeySerde, defaultValueSerde, applicationId } = context.appConfigs
    this.#applicationId = applicationId
    const pick = <T>(serde: Serde<T> | undefined, fallback: Serde<T> | undefined, what: string): Codec<T> => {
      const resolved = serde ?? fallback
      if (resolved !== undefined) return { serializer: resolved.serializer(), deserializer: resolved.deserializer() }
      throw new ConfigError(
        'defaultKeySerde',
        `Foreign-key join ${this.#joinName} needs a serde for the ${what}: give the tables serdes or configure a default serde`
      )
    }
    const spec = this.#spec
    this.#resolved = {
      key: pick(spec.key, defaultKeySerde, 'left table key'),
      value: pick(spec.value, defaultValueSerde, 'left table value'),
      foreignKey: pick(spec.foreignKey, defaultKeySerde, 'right table key'),
      foreignValue: pick(spec.foreignValue, defaultValueSerde, 'right table value')
    }
    return this.#resolved
  }
}
