/**
 * KStream.repartition (Kafka Streams' KStreamImpl.doRepartition): writes the stream to the
 * internal topic `<name>-repartition` (name: the Repartitioned one, else KSTREAM-REPARTITION-<n>)
 * through the filter node (which, since KIP-962, keeps records with a null key) and a sink (with
 * the Repartitioned partitioner), reads it back, and declares the topic with the fixed partition
 * count when one was given. Serdes not set on the Repartitioned are the stream's. @internal
 */
import type { Repartitioned } from '../repartitioned.js'
import { KStream } from '../kstream.js'
import { createRepartitionedSource } from './repartition.js'

export function repartitionStream<K, V>(stream: KStream<K, V>, repartitioned: Repartitioned<K, V> | undefined): KStream<K, V> {
  const builder = stream.builder
  const name = repartitioned?.name ?? builder.newProcessorName('KSTREAM-REPARTITION-')
  const keySerde = repartitioned?.keySerde ?? stream.keySerde
  const valueSerde = repartitioned?.valueSerde ?? stream.valueSerde
  const sourceName = createRepartitionedSource(builder, stream.name, name, keySerde, valueSerde, {
    numberOfPartitions: repartitioned?.numberOfPartitions,
    partitioner: repartitioned?.partitioner,
    optimizable: false
  })
  return new KStream<K, V>(builder, sourceName, keySerde, valueSerde, false)
}
