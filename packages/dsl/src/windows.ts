/**
 * The window specification that `KGroupedStream.windowedBy` and `CogroupedKStream.windowedBy`
 * take for fixed windows (Kafka Streams' abstract `Windows`): which windows a record at a
 * timestamp falls in, the size of the windows, and how long after a window's end it still
 * accepts out-of-order records. `TimeWindows` and `UnlimitedWindows` are ones; extend it for a
 * custom kind (calendar days in a time zone, say).
 */
import type { Window } from '@kstreams/core'

/**
 * A window specification (Kafka Streams' Windows): extend it and implement `windowsFor`, `size`
 * and `gracePeriodMs` to aggregate by a custom kind of window.
 */
export abstract class Windows<W extends Window = Window> {
  /**
   * The windows a record at `timestamp` (ms) falls in, by window start. Each window's end
   * (exclusive) should be its start plus `size()`: results are read back from the window store
   * as [start, start + size).
   */
  abstract windowsFor(timestamp: number): Map<number, W>

  /** The size of the windows (ms); `Number.MAX_SAFE_INTEGER` stands for Java's Long.MAX_VALUE (no end). */
  abstract size(): number

  /** How long (ms) after a window's end it still accepts out-of-order records. */
  abstract gracePeriodMs(): number
}
