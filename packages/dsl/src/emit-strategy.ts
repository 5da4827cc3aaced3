/**
 * When a windowed aggregation emits its results (Kafka Streams' `EmitStrategy`): on every update
 * of a window (the default, through the store's cache when it caches), or once per window, when
 * stream time closes it (its end plus the grace period has passed).
 */
export type EmitStrategyType = 'ON_WINDOW_UPDATE' | 'ON_WINDOW_CLOSE'

/** When a windowed aggregation emits its results (Kafka Streams' EmitStrategy). */
export class EmitStrategy {
  static readonly #onWindowClose = new EmitStrategy('ON_WINDOW_CLOSE')
  static readonly #onWindowUpdate = new EmitStrategy('ON_WINDOW_UPDATE')

  private constructor(
    /** Which strategy. */
    readonly type: EmitStrategyType
  ) {}

  /** One final result per window, when the window closes. */
  static onWindowClose(): EmitStrategy {
    return EmitStrategy.#onWindowClose
  }

  /** A result on every update of a window (the default). */
  static onWindowUpdate(): EmitStrategy {
    return EmitStrategy.#onWindowUpdate
  }

  /** `EmitStrategy{type}`. */
  toString(): string {
    return `EmitStrategy{${this.type}}`
  }
}
