/**
 * The processors on the left-hand side of a foreign-key join (Kafka Streams'
 * SubscriptionSendProcessorSupplier and ResponseJoinProcessorSupplier): the first turns each
 * update of the left table into subscriptions keyed by foreign key (unsubscribing from the old
 * foreign key when it changed), each carrying the murmur3 hash of the new left value; the second
 * joins a response with the left table's current value, dropping it when the hash it carries no
 * longer matches that value (a newer update is on its way). @internal
 */
import type { Processor, ProcessorContext, ProcessorSupplier, Record } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import type { Change } from '../../change.js'
import type { KTableValueGetterSupplier } from '../ktable-processor-supplier.js'
import type { ForeignKeyJoinSerdes, ResolvedForeignKeyJoinSerdes } from './foreign-key-join-serdes.js'
import { murmur3Hash128 } from './murmur3.js'
import { deserializeResponse, hashesEqual, Instruction, serializeSubscription } from './wire-formats.js'
import type { ValueHash } from './wire-formats.js'

export interface LeftSideOptions<K, V, KO, VO> {
  readonly serdes: ForeignKeyJoinSerdes<K, V, KO, VO>
  readonly leftJoin: boolean
  /** The subscription topic (its `-pk`, `-fk` and `-vh` pseudo topics name what the serializers see). */
  readonly subscriptionTopic: string
  readonly responseTopic: string
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  if (a === null || b === null) return a === b
  return a.equals(b)
}

/** Subscribes each left record to its foreign key; with a changed foreign key, first unsubscribes from the old one. */
export function subscriptionSendProcessor<K, V, KO>(
  options: LeftSideOptions<K, V, KO, unknown>,
  extractor: (key: K, value: V) => KO | null
): ProcessorSupplier<K, Change<V>, Buffer | null, Buffer> {
  return () => {
    let context: ProcessorContext<Buffer | null, Buffer>
    let serdes: ResolvedForeignKeyJoinSerdes<K, V, KO, unknown>
    let topics: { sink: string; pk: string; fk: string; vh: string }
    const serializeFk = (fk: KO | null, topic: string): Buffer | null =>
      fk === null || fk === undefined ? null : serdes.foreignKey.serializer.serialize(topic, fk)
    const extract = (key: K, value: V | null): KO | null => {
      if (value === null) return null
      const fk = extractor(key, value)
      return fk === undefined ? null : fk
    }
    return {
      init(c) {
        context = c
        serdes = options.serdes.resolve(c)
        const topic = (name: string): string => options.serdes.topic(name)
        const sub = options.subscriptionTopic
        topics = { sink: topic(sub), pk: topic(sub + '-pk'), fk: topic(sub + '-fk'), vh: topic(sub + '-vh') }
      },
      process(record: Record<K, Change<V>>) {
        const { newValue, oldValue } = record.value
        let hash: ValueHash | null | undefined
        const send = (fk: KO | null, instruction: Instruction): void => {
          if (hash === undefined) {
            const bytes = newValue === null ? null : serdes.value.serializer.serialize(topics.vh, newValue)
            hash = bytes === null ? null : murmur3Hash128(bytes)
          }
          const primaryKey = serdes.key.serializer.serialize(topics.pk, record.key) ?? Buffer.alloc(0)
          const primaryPartition = context.recordMetadata()?.partition ?? -1
          const subscription = serializeSubscription({ hash, instruction, primaryKey, primaryPartition })
          context.forward(record.withKey(serializeFk(fk, topics.sink)).withValue(subscription))
        }
        // foreign keys compare by their bytes
        const changed = (a: KO | null, b: KO | null): boolean => !sameBytes(serializeFk(a, topics.fk), serializeFk(b, topics.fk))
        const oldFk = oldValue === null ? null : extract(record.key, oldValue)
        if (options.leftJoin) {
          // every change gets a response, so that a left result always follows (a delete subscribes
          // the null foreign key: nothing is stored, but the null result comes back)
          if (oldValue === null && newValue === null) return
          const newFk = newValue === null ? null : extract(record.key, newValue)
          if (oldFk !== null && changed(newFk, oldFk)) send(oldFk, Instruction.DELETE_KEY_NO_PROPAGATE)
          send(newFk, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE)
          return
        }
        if (newValue === null) {
          if (oldFk !== null) send(oldFk, Instruction.DELETE_KEY_AND_PROPAGATE)
          return
        }
        const newFk = extract(record.key, newValue)
        if (newFk === null) {
          // a null foreign key cannot join: count the record as dropped, and unset an old result
          recordDroppedRecord(context)
          if (oldFk !== null) send(oldFk, Instruction.DELETE_KEY_AND_PROPAGATE)
        } else if (oldFk === null) {
          send(newFk, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE)
        } else if (changed(newFk, oldFk)) {
          // leave the old foreign key quietly; the new one answers null when it has no value, to
          // unset the previous result
          send(oldFk, Instruction.DELETE_KEY_NO_PROPAGATE)
          send(newFk, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE)
        } else {
          send(newFk, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE)
        }
      }
    }
  }
}

/** Joins each response whose hash matches the left table's current value; a stale one is dropped. */
export function responseJoinProcessor<K, V, VO, VR>(
  options: LeftSideOptions<K, V, unknown, VO>,
  leftView: KTableValueGetterSupplier<K, V>,
  joiner: (value: V | null, foreignValue: VO | null) => VR
): ProcessorSupplier<Buffer, Buffer, K, VR | null> {
  return () => {
    const getter = leftView.get()
    let context: ProcessorContext<K, VR | null>
    let serdes: ResolvedForeignKeyJoinSerdes<K, V, unknown, VO>
    let responseTopic: string
    let hashTopic: string
    const processor: Processor<Buffer, Buffer, K, VR | null> = {
      init(c) {
        context = c
        serdes = options.serdes.resolve(c)
        responseTopic = options.serdes.topic(options.responseTopic)
        hashTopic = options.serdes.topic(options.subscriptionTopic + '-vh')
        getter.init(c)
      },
      process(record: Record<Buffer, Buffer>) {
        const key = serdes.key.deserializer.deserialize(responseTopic, Buffer.from(record.key)) as K
        const response = deserializeResponse(Buffer.from(record.value))
        const current = getter.get(key)
        const currentBytes = current === null ? null : serdes.value.serializer.serialize(hashTopic, current.value)
        const currentHash = currentBytes === null ? null : murmur3Hash128(currentBytes)
        if (!hashesEqual(response.hash, currentHash)) {
          recordDroppedRecord(context)
          return
        }
        const foreignValue =
          response.foreignValue === null ? null : serdes.foreignValue.deserializer.deserialize(responseTopic, response.foreignValue)
        const result =
          foreignValue === null && (!options.leftJoin || current === null)
            ? null
            : joiner(current === null ? null : current.value, foreignValue)
        context.forward(record.withKey(key).withValue(result))
      },
      close() {
        getter.close?.()
      }
    }
    return processor
  }
}
