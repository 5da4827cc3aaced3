/**
 * What the bytes layers between the metered layer and the backend share (the caching and
 * change-logging layers, Kafka's WrappedStateStore): the store below, whose name, persistence
 * and open state are the layer's, exposed as `wrapped`. @internal
 */
import type { StateStore } from './state-store.js'

export abstract class WrappedStoreLayer<S extends StateStore> {
  readonly #inner: S

  constructor(inner: S) {
    this.#inner = inner
  }

  get name(): string {
    return this.#inner.name
  }
  get persistent(): boolean {
    return this.#inner.persistent
  }

  /** The layer below (caching, change-logging or the backend). */
  get wrapped(): S {
    return this.#inner
  }

  isOpen(): boolean {
    return this.#inner.isOpen()
  }

  async whenClosed(): Promise<void> {
    await this.#inner.whenClosed?.()
  }

  /** The layer below. */
  protected get inner(): S {
    return this.#inner
  }
}
