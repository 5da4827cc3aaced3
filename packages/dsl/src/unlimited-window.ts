/**
 * The window of `UnlimitedWindows` (Kafka Streams' UnlimitedWindow): from its start to the end of
 * time, whose end is `Number.MAX_SAFE_INTEGER` (Java's Long.MAX_VALUE).
 */
import { StreamsError, Window } from '@kstreams/core'

/** A window from `start` (inclusive) with no end (Kafka Streams' UnlimitedWindow); its end is Number.MAX_SAFE_INTEGER. */
export class UnlimitedWindow extends Window {
  constructor(start: number) {
    super(start, Number.MAX_SAFE_INTEGER)
  }

  /** Always true for another UnlimitedWindow (they have no end); an ILLEGAL_ARGUMENT error for a window of another type. */
  overlap(other: Window): boolean {
    if (!(other instanceof UnlimitedWindow)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `Cannot compare windows of different type. Other window has type ${other.constructor.name}.`
      )
    }
    return true
  }
}
