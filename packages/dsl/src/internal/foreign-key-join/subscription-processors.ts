/**
 * The processors on the right-hand side of a foreign-key join (Kafka Streams'
 * SubscriptionReceiveProcessorSupplier, SubscriptionJoinProcessorSupplier and
 * ForeignTableJoinProcessorSupplier): they keep the subscriptions arriving on the subscription
 * topic in the subscription store (keyed by foreign key then primary key), answer each
 * subscription with the right table's current value, and answer every subscriber of a foreign
 * key when the right table updates it. Answers are SubscriptionResponseWrappers keyed by the
 * serialized primary key, carrying the hash of the left value they answer. @internal
 */
import { Serdes, ValueAndTimestamp } from '@kstreams/core'
import type { ProcessorContext, ProcessorSupplier, Record, TimestampedKeyValueStore } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import type { Change } from '../../change.js'
import type { KTableValueGetterSupplier } from '../ktable-processor-supplier.js'
import type { ForeignKeyJoinSerdes, ResolvedForeignKeyJoinSerdes } from './foreign-key-join-serdes.js'
import { combinedKey, deserializeSubscription, foreignKeyPrefix, Instruction, serializeResponse, splitCombinedKey } from './wire-formats.js'
import type { SubscriptionWrapper } from './wire-formats.js'

/** A subscription after the receive step, keyed by its foreign key. */
export interface ReceivedSubscription {
  readonly wrapper: SubscriptionWrapper
}

export interface RightSideOptions<K, KO, VO> {
  readonly serdes: ForeignKeyJoinSerdes<K, unknown, KO, VO>
  readonly subscriptionStoreName: string
  /** The subscription topic (its `-pk` and `-fk` pseudo topics name what the serializers see). */
  readonly subscriptionTopic: string
  readonly responseTopic: string
}

type BytesStore = TimestampedKeyValueStore<Uint8Array, Uint8Array>

interface Topics {
  readonly subscription: string
  readonly pk: string
  readonly fk: string
  readonly response: string
}

function topicsOf(options: RightSideOptions<any, any, any>): Topics {
  const topic = (name: string): string => options.serdes.topic(name)
  const sub = options.subscriptionTopic
  return { subscription: topic(sub), pk: topic(sub + '-pk'), fk: topic(sub + '-fk'), response: topic(options.responseTopic) }
}

/** A response keyed by the primary key (re-serialized for the response topic) with the right value. */
function response<K, VO>(
  serdes: ResolvedForeignKeyJoinSerdes<K, unknown, unknown, VO>,
  topics: Topics,
  wrapper: SubscriptionWrapper,
  primaryKey: Buffer,
  value: VO | null
): { key: Buffer; value: Buffer } {
  const key = serdes.key.deserializer.deserialize(topics.pk, primaryKey) as K
  const foreignValue = value === null ? null : serdes.foreignValue.serializer.serialize(topics.response, value)
  return {
    key: serdes.key.serializer.serialize(topics.response, key) ?? Buffer.alloc(0),
    value: serializeResponse({ hash: wrapper.hash, foreignValue, primaryPartition: wrapper.primaryPartition })
  }
}

/** Stores (or deletes) each subscription and passes it on; a null foreign key passes only to propagate a null result. */
export function subscriptionReceiveProcessor<KO>(
  options: RightSideOptions<unknown, KO, unknown>
): ProcessorSupplier<Uint8Array | null, Uint8Array, KO | null, ReceivedSubscription> {
  return () => {
    let context: ProcessorContext<KO | null, ReceivedSubscription>
    let store: BytesStore
    let serdes: ResolvedForeignKeyJoinSerdes<unknown, unknown, KO, unknown>
    let topics: Topics
    return {
      init(c) {
        context = c
        store = c.getStateStore<BytesStore>(options.subscriptionStoreName)
        serdes = options.serdes.resolve(c)
        topics = topicsOf(options)
      },
      process(record: Record<Uint8Array | null, Uint8Array>) {
        const wrapper = deserializeSubscription(Buffer.from(record.value))
        const foreignKey =
          record.key === null ? null : serdes.foreignKey.deserializer.deserialize(topics.subscription, Buffer.from(record.key))
        if (foreignKey === null && wrapper.instruction !== Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE) {
          recordDroppedRecord(context)
          return
        }
        if (foreignKey !== null) {
          const fk = serdes.foreignKey.serializer.serialize(topics.fk, foreignKey) ?? Buffer.alloc(0)
          const key = combinedKey(fk, wrapper.primaryKey)
          if (wrapper.instruction === Instruction.DELETE_KEY_AND_PROPAGATE || wrapper.instruction === Instruction.DELETE_KEY_NO_PROPAGATE) {
            store.delete(key)
          } else {
            store.put(key, ValueAndTimestamp.make(Buffer.from(record.value), record.timestamp))
          }
        }
        context.forward(record.withKey(foreignKey).withValue({ wrapper }))
      }
    }
  }
}

/** Answers a subscription with the right table's value of its foreign key, as its instruction says. */
export function subscriptionJoinProcessor<KO, VO>(
  options: RightSideOptions<unknown, KO, VO>,
  foreignView: KTableValueGetterSupplier<KO, VO>
): ProcessorSupplier<KO | null, ReceivedSubscription, Buffer, Buffer> {
  return () => {
    const getter = foreignView.get()
    let context: ProcessorContext<Buffer, Buffer>
    let serdes: ResolvedForeignKeyJoinSerdes<unknown, unknown, KO, VO>
    let topics: Topics
    return {
      init(c) {
        context = c
        serdes = options.serdes.resolve(c)
        topics = topicsOf(options)
        getter.init(c)
      },
      process(record: Record<KO | null, ReceivedSubscription>) {
        const { wrapper } = record.value
        const foreign = record.key === null ? null : getter.get(record.key)
        const timestamp = foreign === null ? record.timestamp : Math.max(record.timestamp, foreign.timestamp)
        const respond = (value: VO | null): void => {
          const out = response(serdes, topics, wrapper, wrapper.primaryKey, value)
          context.forward(record.withKey(out.key).withValue(out.value).withTimestamp(timestamp))
        }
        switch (wrapper.instruction) {
          case Instruction.DELETE_KEY_AND_PROPAGATE:
            respond(null)
            break
          case Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE:
            respond(foreign === null ? null : foreign.value)
            break
          case Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE:
            if (foreign !== null) respond(foreign.value)
            break
          case Instruction.DELETE_KEY_NO_PROPAGATE:
            break
        }
      },
      close() {
        getter.close?.()
      }
    }
  }
}

/** On a right table update, answers every subscriber of the updated foreign key (in primary key byte order) with the new value. */
export function foreignTableJoinProcessor<KO, VO>(
  options: RightSideOptions<unknown, KO, VO>
): ProcessorSupplier<KO, Change<VO>, Buffer, Buffer> {
  return () => {
    let context: ProcessorContext<Buffer, Buffer>
    let store: BytesStore
    let serdes: ResolvedForeignKeyJoinSerdes<unknown, unknown, KO, VO>
    let topics: Topics
    return {
      init(c) {
        context = c
        store = c.getStateStore<BytesStore>(options.subscriptionStoreName)
        serdes = options.serdes.resolve(c)
        topics = topicsOf(options)
      },
      process(record: Record<KO, Change<VO>>) {
        if (record.key === null || record.key === undefined) {
          recordDroppedRecord(context)
          return
        }
        const fk = serdes.foreignKey.serializer.serialize(topics.fk, record.key)
        if (fk === null) return
        const iterator = store.prefixScan(foreignKeyPrefix(fk), Serdes.ByteArray().serializer())
        try {
          for (const { key, value } of iterator) {
            const { primaryKey } = splitCombinedKey(Buffer.from(key))
            const out = response(serdes, topics, deserializeSubscription(Buffer.from(value.value)), primaryKey, record.value.newValue)
            context.forward(record.withKey(out.key).withValue(out.value))
          }
        } finally {
          iterator.close()
        }
      }
    }
  }
}
