/// <reference types="mocha" />
/**
 * Turns one windowed-store compliance module (window or session) into mocha tests against a
 * harness: every check runs on a fresh store and again on a reopened one; its read-only part is
 * repeated after a commit and, for persistent backends, after a reopen on the same files; the
 * module's operations must fail with STORE_NOT_OPEN on a closed store. Every store a test opens
 * is closed afterwards.
 */
import { expect } from 'chai'
import type { StateStore } from '@kstreams/core'
import { codeOf } from '../expect-code.js'
import type { StoreHarness } from '../harness.js'

/** What a check may ask of the runner. */
export interface CheckContext<S> {
  /** Commits the store as a task commit would. */
  commit(): Promise<void>
  /** Closes the store and opens it again (the harness's reopen); later steps use the returned store. */
  reopen(): Promise<S>
}

export interface StoreCheck<S> {
  readonly title: string
  /** Acts on the store and asserts what the calls return. */
  run(store: S, context: CheckContext<S>): void | Promise<void>
  /** Read-only assertions on the state `run` left; repeated after a commit and after a reopen when persistent. */
  verify?(store: S): void
}

export interface OperationChecks<S> {
  /** The describe() title, e.g. 'fetch(key, timeFrom, timeTo)'. */
  readonly title: string
  readonly checks: ReadonlyArray<StoreCheck<S>>
  /** Writes something before the closed-store check closes the store. */
  seed?(store: S): void
  /** Calls of the module's operations, by name; each must throw STORE_NOT_OPEN on a closed store. */
  readonly closedStoreCalls?: Readonly<Record<string, (store: S) => unknown>>
}

/** Declares the tests of one module. */
export function describeOperation<S extends StateStore>(harness: StoreHarness<S>, suite: OperationChecks<S>): void {
  describe(suite.title, () => {
    const opened: S[] = []
    const open = async (): Promise<S> => {
      const store = await harness.open()
      opened.push(store)
      return store
    }
    const reopen = async (store: S): Promise<S> => {
      if (harness.reopen === undefined) throw new Error(`harness "${harness.name}" cannot reopen stores`)
      const reopened = await harness.reopen(store)
      opened.push(reopened)
      return reopened
    }
    const runCheck = async (check: StoreCheck<S>, store: S): Promise<void> => {
      let current = store
      await check.run(current, {
        commit: async () => {
          await harness.commit(current)
        },
        reopen: async () => {
          current = await reopen(current)
          return current
        }
      })
      if (check.verify === undefined) return
      check.verify(current)
      await harness.commit(current)
      check.verify(current)
      if (harness.persistent) {
        current = await reopen(current)
        check.verify(current)
      }
    }

    afterEach(() => {
      for (const store of opened.splice(0)) {
        if (store.isOpen()) store.close()
      }
    })

    for (const check of suite.checks) {
      it(check.title, async () => {
        await runCheck(check, await open())
      })
      if (harness.reopen !== undefined) {
        it(`${check.title} (on a reopened store)`, async () => {
          await runCheck(check, await reopen(await open()))
        })
      }
    }

    const calls = Object.entries(suite.closedStoreCalls ?? {})
    if (calls.length === 0) return
    const expectNotOpen = async (store: S): Promise<void> => {
      suite.seed?.(store)
      await harness.commit(store)
      store.close()
      expect(store.isOpen()).to.equal(false)
      for (const [name, call] of calls)
        expect(
          codeOf(() => call(store)),
          name
        ).to.equal('STORE_NOT_OPEN')
    }
    it('throws STORE_NOT_OPEN on a closed store', async () => {
      await expectNotOpen(await open())
    })
    if (harness.reopen !== undefined) {
      it('throws STORE_NOT_OPEN on a reopened store once it is closed', async () => {
        await expectNotOpen(await reopen(await open()))
      })
    }
  })
}
