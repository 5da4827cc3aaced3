/**
 * One port's connection to the in-memory broker: the requests it has in flight, so a dropped
 * connection (disconnect(), the broker closing) or the port's close() fails them at once, as a
 * lost socket fails a real client's requests, while the broker goes on with what it received.
 * @internal
 */
import { IllegalStateError } from '@kstreams/core'

export class ClientConnection {
  readonly clientId: string
  readonly #describe: string
  readonly #inFlight = new Set<(error: Error) => void>()
  #closed = false

  constructor(clientId: string, describe: string) {
    this.clientId = clientId
    this.#describe = describe
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Runs a request; it rejects early with the error of drop() if the connection drops meanwhile. */
  async track<T>(request: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new IllegalStateError(`${this.#describe} (client ${this.clientId}) is closed`)
    let fail!: (error: Error) => void
    const dropped = new Promise<never>((_resolve, reject) => {
      fail = reject
    })
    this.#inFlight.add(fail)
    const running = request()
    running.catch(() => {})
    try {
      return await Promise.race([running, dropped])
    } finally {
      this.#inFlight.delete(fail)
    }
  }

  /** Fails every request in flight with `error`. */
  drop(error: () => Error): void {
    for (const fail of [...this.#inFlight]) fail(error())
    this.#inFlight.clear()
  }

  /** The port closed: fails what is in flight; later requests are refused. Idempotent. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.drop(() => new IllegalStateError(`${this.#describe} (client ${this.clientId}) was closed with the request in flight`))
  }
}
