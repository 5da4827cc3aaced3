/**
 * The parent's side of a bench child process, whatever the transport (IPC in e2e, stdout lines
 * in bench:java): the messages it sent, its failure, and waiting for a message by type or
 * sleeping until something arrives, failing as soon as the child failed or exited.
 */
export class ChildInbox<M extends { readonly type: string }> {
  readonly #messages: M[] = []
  readonly #what: string
  readonly #hasExited: () => boolean
  #failure: Error | undefined
  #wake: (() => void) | undefined

  /** `what` names the child in errors; `hasExited` says whether its process has ended. */
  constructor(what: string, hasExited: () => boolean) {
    this.#what = what
    this.#hasExited = hasExited
  }

  /** A message arrived. */
  push(message: M): void {
    this.#messages.push(message)
    this.#wake?.()
  }

  /** The child failed (the first failure is kept); also wakes a sleeper when the process ends. */
  fail(error: Error | undefined): void {
    this.#failure ??= error
    this.#wake?.()
  }

  /** The first message of this type so far, left in the inbox. */
  find(type: M['type']): M | undefined {
    return this.#messages.find(m => m.type === type)
  }

  /** Waits for a message of this type (`take`: removes it); throws if the child failed or exited first. */
  async waitFor(type: M['type'], timeoutMs: number, take = false): Promise<M> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const index = this.#messages.findIndex(m => m.type === type)
      if (index >= 0) return take ? this.#messages.splice(index, 1)[0]! : this.#messages[index]!
      this.throwIfFailed()
      if (this.#hasExited()) throw new Error(`${this.#what} exited before '${type}'`)
      if (Date.now() > end) throw new Error(`${this.#what} sent no '${type}' within ${timeoutMs} ms`)
      await this.sleepOrFail(200)
    }
  }

  /** Sleeps (woken early by a message or the exit); throws if the child failed. */
  async sleepOrFail(ms: number): Promise<void> {
    this.throwIfFailed()
    await new Promise<void>(resolve => {
      const timer = setTimeout(done, ms)
      function done(): void {
        clearTimeout(timer)
        resolve()
      }
      this.#wake = done
    })
    this.#wake = undefined
    this.throwIfFailed()
  }

  throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure
  }
}
