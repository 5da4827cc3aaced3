/**
 * Synchronous calls from the main thread into a worker thread, for interactive queries, whose
 * API (`store(...).get(key)`, `query(request)`) returns values, not promises. The main thread
 * posts the request on a MessagePort and blocks in Atomics.wait until the worker, between two
 * steps of its event loop, has answered on the same port and bumped a shared counter; it then
 * takes the answer with receiveMessageOnPort. The worker never waits for the main thread, so
 * the two cannot deadlock; a worker that does not answer within the timeout (it is stuck in a
 * long synchronous step, or it died) fails the call with the retriable STORE_QUERY_TIMEOUT.
 * @internal
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads'
import { InvalidStateStoreError } from '../../errors.js'
import { errorFromWire, errorToWire, type WireError } from './thread-messages.js'
import { fromWire, toWire } from './wire-values.js'

/** The worker's end: the port it answers on, and the counters of the last call it answered and the newest call made. */
export interface SyncCallEnd {
  readonly port: MessagePort
  readonly answered: SharedArrayBuffer
}

interface Reply {
  readonly seq: number
  readonly value?: unknown
  readonly error?: WireError
}

/** The shared ints: the last call the worker answered, and the newest call the main thread made. */
const ANSWERED = 0
const NEWEST = 1

/** The main thread's end. */
export class SyncCaller {
  /** What the worker gets (transfer `workerEnd.port`). */
  readonly workerEnd: SyncCallEnd
  readonly #port: MessagePort
  readonly #answered: Int32Array
  readonly #thread: string
  #seq = 0

  constructor(thread: string) {
    const { port1, port2 } = new MessageChannel()
    const answered = new SharedArrayBuffer(8)
    this.#port = port1
    this.#answered = new Int32Array(answered)
    this.#thread = thread
    this.workerEnd = { port: port2, answered }
  }

  /** Sends `request`, blocks until the worker answers, and returns its answer or throws its error. */
  call(request: unknown, timeoutMs: number): unknown {
    const seq = ++this.#seq
    Atomics.store(this.#answered, NEWEST, seq)
    this.#port.postMessage({ seq, request: toWire(request) })
    const deadline = performance.now() + timeoutMs
    for (;;) {
      const reply = this.#take(seq)
      if (reply !== undefined) {
        if (reply.error !== undefined) throw errorFromWire(reply.error, this.#thread)
        return fromWire(reply.value)
      }
      const left = deadline - performance.now()
      if (left <= 0) {
        throw new InvalidStateStoreError(
          'STORE_QUERY_TIMEOUT',
          `${this.#thread} on its worker thread did not answer an interactive query within ${timeoutMs} ms; retry`,
          { retriable: true }
        )
      }
      const seen = Atomics.load(this.#answered, ANSWERED)
      // Answered but not yet readable here: look again shortly.
      Atomics.wait(this.#answered, ANSWERED, seen, seen >= seq ? Math.min(left, 1) : left)
    }
  }

  /** The reply to call `seq`; replies to earlier calls that timed out are dropped. */
  #take(seq: number): Reply | undefined {
    for (;;) {
      const received = receiveMessageOnPort(this.#port)
      if (received === undefined) return undefined
      const reply = received.message as Reply
      if (reply.seq === seq) return reply
    }
  }

  close(): void {
    this.#port.close()
  }
}

/** The worker answers each call with `answer(request)` (or its error); the port does not keep the worker alive. */
export function serveSyncCalls(end: SyncCallEnd, answer: (request: unknown) => unknown): void {
  const answered = new Int32Array(end.answered)
  end.port.on('message', ({ seq, request }: { seq: number; request: unknown }) => {
    // A call the main thread stopped waiting for (it timed out and made a newer one) is not run.
    if (seq < Atomics.load(answered, NEWEST)) return
    try {
      end.port.postMessage({ seq, value: toWire(answer(fromWire(request))) } satisfies Reply)
    } catch (err) {
      end.port.postMessage({ seq, error: errorToWire(err) } satisfies Reply)
    }
    Atomics.store(answered, ANSWERED, seq)
    Atomics.notify(answered, ANSWERED)
  })
  end.port.unref()
}
