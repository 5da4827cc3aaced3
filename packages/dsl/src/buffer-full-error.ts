/**
 * Thrown when a suppression buffer configured with `shutDownWhenFull()` exceeds its bound (Kafka
 * Streams throws a StreamsException that stops the application): names the processor and the
 * buffer's records and bytes against their limits. Code PROCESSING.
 */
import { StreamsError } from '@kstreams/core'

/** Thrown when a suppression buffer configured with `shutDownWhenFull()` exceeds its bound (code PROCESSING). */
export class BufferFullError extends StreamsError {
  constructor(message: string, taskId?: string) {
    super('PROCESSING', message, taskId === undefined ? {} : { taskId })
  }
}
