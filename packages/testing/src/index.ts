/**
 * `@kstreams/testing`: run and unit-test topologies without Kafka.
 * @module \@kstreams/testing
 */
export { TopologyTestDriver } from './topology-test-driver.js'
export { TestInputTopic } from './test-input-topic.js'
export { TestOutputTopic } from './test-output-topic.js'
export { TestRecord } from './test-record.js'
export type { OutputRecord } from './test-record.js'
export { MockProcessorContext, CapturedPunctuator } from './mock-processor-context.js'
export type { CapturedForward } from './mock-processor-context.js'
