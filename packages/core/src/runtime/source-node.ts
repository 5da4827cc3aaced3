/**
 * A source node: deserializes consumed bytes with its own deserializers (or the config's default
 * serdes) and forwards to its children. @internal
 */
import type { Deserializer } from '../serialization/serde.js'
import type { TimestampExtractor } from '../processor/api.js'
import type { Headers, Record } from '../record.js'
import { ConfigError, SerializationError } from '../errors.js'
import { ProcessorNode } from './processor-node.js'
import type { ProcessorContextImpl } from './processor-context-impl.js'

export class SourceNode extends ProcessorNode {
  readonly #keyDeserializer: Deserializer<unknown> | undefined
  readonly #valueDeserializer: Deserializer<unknown> | undefined
  readonly timestampExtractor: TimestampExtractor | undefined
  #keyDeser: Deserializer<unknown> | undefined
  #valueDeser: Deserializer<unknown> | undefined

  constructor(
    name: string,
    keyDeserializer: Deserializer<unknown> | undefined,
    valueDeserializer: Deserializer<unknown> | undefined,
    timestampExtractor: TimestampExtractor | undefined
  ) {
    super(name, undefined)
    this.#keyDeserializer = keyDeserializer
    this.#valueDeserializer = valueDeserializer
    this.timestampExtractor = timestampExtractor
  }

  override init(context: ProcessorContextImpl): void {
    this.context = context
    const config = context.appConfigs
    this.#keyDeser = this.#keyDeserializer ?? config.defaultKeySerde?.deserializer()
    this.#valueDeser = this.#valueDeserializer ?? config.defaultValueSerde?.deserializer()
    if (this.#keyDeser === undefined)
      throw new ConfigError('defaultKeySerde', `Source ${this.name} has no key deserializer and no defaultKeySerde is configured`)
    if (this.#valueDeser === undefined)
      throw new ConfigError('defaultValueSerde', `Source ${this.name} has no value deserializer and no defaultValueSerde is configured`)
  }

  deserializeKey(topic: string, data: Buffer | null, headers: Headers): unknown {
    return this.#deserialize(this.#keyDeser!, 'key', topic, data, headers)
  }

  deserializeValue(topic: string, data: Buffer | null, headers: Headers): unknown {
    return this.#deserialize(this.#valueDeser!, 'value', topic, data, headers)
  }

  #deserialize(deserializer: Deserializer<unknown>, what: string, topic: string, data: Buffer | null, headers: Headers): unknown {
    try {
      return deserializer.deserialize(topic, data, headers)
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err)
      throw new SerializationError(`Failed to deserialize ${what} for topic ${topic} at source ${this.name}: ${detail}`, {
        cause: err,
        taskId: this.context?.taskId.toString()
      })
    }
  }

  override process(record: Record<unknown, unknown>): void {
    this.context!.forward(record)
  }
}
