/**
 * The built-in timestamp extractors of Kafka Streams. The default fails on a negative
 * timestamp; the others skip the record, use the partition time, or use wall-clock time.
 */
import type { ConsumerRecordInfo, TimestampExtractor } from './api.js'
import { StreamsError } from '../errors.js'

function describe(record: ConsumerRecordInfo): string {
  return `topic ${record.topic}, partition ${record.partition}, offset ${record.offset}`
}

/** The default: a negative timestamp is an error naming the record's position. */
export const failOnInvalidTimestamp: TimestampExtractor = record => {
  if (record.timestamp < 0) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Input record (${describe(record)}) has invalid (negative) timestamp ${record.timestamp}. ` +
        'Use a different TimestampExtractor to process this data (e.g. logAndSkipOnInvalidTimestamp).'
    )
  }
  return record.timestamp
}

/** Returns the negative timestamp, so the record is dropped (and counted) rather than processed. */
export const logAndSkipOnInvalidTimestamp: TimestampExtractor = record => record.timestamp

/** Uses the partition's time for a negative timestamp; fails if that is unknown too. */
export const usePartitionTimeOnInvalidTimestamp: TimestampExtractor = (record, partitionTime) => {
  if (record.timestamp >= 0) return record.timestamp
  if (partitionTime < 0) {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      `Could not infer new timestamp for input record (${describe(record)}) because partition time is unknown.`
    )
  }
  return partitionTime
}

/** Creates an extractor that ignores the record and returns the clock's time. */
export function wallclockTimestampExtractor(now: () => number = Date.now): TimestampExtractor {
  return () => now()
}
