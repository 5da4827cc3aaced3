/**
 * A kafkajs client's connection, made on first use and only once; a connect that failed is
 * forgotten, so the next use tries again. Shared by every port of the adapter.
 */
export class LazyConnection {
  readonly #connect: () => Promise<void>
  #connected: Promise<void> | undefined

  constructor(connect: () => Promise<void>) {
    this.#connect = connect
  }

  /** Whether a connect was started (so there is something to disconnect). */
  get started(): boolean {
    return this.#connected !== undefined
  }

  async ensure(): Promise<void> {
    this.#connected ??= this.#connect()
    try {
      await this.#connected
    } catch (error) {
      this.#connected = undefined
      throw error
    }
  }

  /** Waits for a connect in progress, whatever its outcome. */
  async settled(): Promise<void> {
    await this.#connected?.catch(() => undefined)
  }
}
