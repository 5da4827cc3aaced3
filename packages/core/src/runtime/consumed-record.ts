/** A record as consumed from a topic partition, still in bytes: the public ConsumerRecord. @internal */
export type { ConsumerRecord as ConsumedRecord } from '../config/streams-config.js'
