/**
 * Synchronous calls into a real worker thread (the path of interactive queries of a worker's
 * stores): answers and kstreams' values cross, a typed error is thrown again here as the same
 * class and code, a worker that does not answer in time fails the call with the retriable
 * STORE_QUERY_TIMEOUT, and its late answer is not taken for the next call's.
 */
import { expect } from 'chai'
import { Worker } from 'node:worker_threads'
import { InvalidStateStoreError, StreamsError } from '../../../src/errors.js'
import { KeyValue } from '../../../src/key-value.js'
import { SyncCaller } from '../../../src/runtime/workers/sync-calls.js'

describe('SyncCaller (a real worker thread)', () => {
  let worker: Worker
  let caller: SyncCaller

  beforeEach(async () => {
    caller = new SyncCaller('StreamThread-9')
    worker = new Worker(new URL('./fixtures/sync-calls-worker.ts', import.meta.url), {
      workerData: { end: caller.workerEnd },
      transferList: [caller.workerEnd.port]
    })
    await new Promise(resolve => worker.once('online', resolve))
  })

  afterEach(async () => {
    caller.close()
    await worker.terminate()
  })

  it('returns the answer, with kstreams values and Buffers rebuilt', () => {
    const answer = caller.call({ do: 'echo', value: [new KeyValue('k', Buffer.from('v')), 7n, null] }, 10_000) as unknown[]
    expect(answer[0]).to.be.instanceOf(KeyValue)
    const kv = answer[0] as KeyValue<string, Buffer>
    expect(kv.key).to.equal('k')
    expect(Buffer.isBuffer(kv.value)).to.equal(true)
    expect(kv.value.toString()).to.equal('v')
    expect(answer.slice(1)).to.deep.equal([7n, null])
  })

  /** What `call` threw. */
  function thrown(call: () => unknown): unknown {
    try {
      call()
    } catch (err) {
      return err
    }
    expect.fail('the call did not throw')
  }

  it("throws the worker's error as the same class, code and retriability, naming the thread in its stack", () => {
    const error = thrown(() => caller.call({ do: 'throw' }, 10_000))
    expect(error).to.be.instanceOf(InvalidStateStoreError)
    expect((error as InvalidStateStoreError).code).to.equal('STATE_STORE_MIGRATED')
    expect((error as InvalidStateStoreError).retriable).to.equal(true)
    expect((error as Error).message).to.equal('store "s" moved')
    expect((error as Error).stack).to.contain('on the worker thread of StreamThread-9')
  })

  it('an answer that cannot be copied to this thread is an error, not a hang', () => {
    expect(() => caller.call({ do: 'function' }, 10_000)).to.throw(StreamsError, /could not be cloned/)
  })

  it('a worker busy past the timeout fails the call with the retriable STORE_QUERY_TIMEOUT; its late answer is dropped', () => {
    const error = thrown(() => caller.call({ do: 'busy', ms: 600 }, 100))
    expect(error).to.be.instanceOf(InvalidStateStoreError)
    expect((error as InvalidStateStoreError).code).to.equal('STORE_QUERY_TIMEOUT')
    expect((error as InvalidStateStoreError).retriable).to.equal(true)
    expect((error as Error).message).to.contain('StreamThread-9')
    // The next call gets its own answer, not the busy call's 'late'.
    expect(caller.call({ do: 'echo', value: 'mine' }, 10_000)).to.equal('mine')
  })

  it('calls that timed out while the worker was busy are not run once a newer call was made', () => {
    expect(() => caller.call({ do: 'busy', ms: 400 }, 50)).to.throw(InvalidStateStoreError)
    // Queued behind the busy one and given up on: the worker skips it.
    expect(() => caller.call({ do: 'busy', ms: 400 }, 50)).to.throw(InvalidStateStoreError)
    // Run in order, both would have (2). Skipped: the second at least; the first too when the worker
    // got it only after the main thread had given up on it (a loaded machine).
    expect(caller.call({ do: 'busyRuns' }, 10_000)).to.be.at.most(1)
  })
})
