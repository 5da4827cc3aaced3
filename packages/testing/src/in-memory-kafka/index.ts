/**
 * `@kstreams/testing/in-memory-kafka`: a single-process Kafka that implements the wire-level ports
 * of `@kstreams/core`, with fault injection and inspection, for tests without a broker. Nothing
 * here imports kafkajs.
 * @module \@kstreams/testing/in-memory-kafka
 */
export { InMemoryKafka } from './in-memory-kafka.js'
export type { InMemoryKafkaOptions, ProduceInput, ProducedOffset } from './in-memory-kafka.js'
export { TopicView } from './topic-view.js'
export type { TopicRecord } from './topic-view.js'
export type { GroupSnapshot, GroupMemberSnapshot, ClassicGroupState } from './group-snapshot.js'
export type { FailureSpec, DelaySpec, FaultTarget, Fault } from './fault-injector.js'
export type { RequestRecord } from './kafka-api.js'
export { KAFKA_APIS } from './kafka-api.js'
export type { KafkaApi } from './kafka-api.js'
export { SystemScheduler } from './scheduler.js'
export type { Scheduler } from './scheduler.js'
export { ManualScheduler } from './manual-scheduler.js'
