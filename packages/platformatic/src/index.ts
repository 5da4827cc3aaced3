/**
 * `@kstreams/platformatic`: the Kafka client adapter on `@platformatic/kafka` 2.12.1, with
 * exactly-once v2. Applications pick it with
 * `new KafkaStreams(topology, config, { client: platformatic() })`; this is the only package of
 * kstreams that imports `@platformatic/kafka`.
 * @packageDocumentation
 */
export { platformatic, PlatformaticClientFactory } from './platformatic-client-factory.js'
export type { PlatformaticOptions } from './platformatic-client-config.js'
