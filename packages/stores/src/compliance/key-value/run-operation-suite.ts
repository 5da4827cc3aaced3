/// <reference types="mocha" />
/**
 * Turns one key-value compliance module into mocha tests against a harness: every check runs on
 * a fresh store and again on a reopened one; its read-only part is repeated after a commit and,
 * for persistent backends, after a reopen; the module's operation must fail with STORE_NOT_OPEN
 * on a closed store. Every store a test opens is closed afterwards.
 */
import { expect } from 'chai'
import type { KeyValueStoreHarness } from '../harness.js'
import { codeOf } from '../expect-code.js'
import type { BytesKeyValueStore, KeyValueCheck, KeyValueOperationSuite } from './key-value-check.js'
import { s } from './fixtures.js'

/** Opens stores through a harness and remembers them so that each test can close what it opened. */
export interface TrackedHarness {
  readonly harness: KeyValueStoreHarness
  open(): Promise<BytesKeyValueStore>
  /** Closes `store` and opens it again on the same files; the harness must support reopen. */
  reopen(store: BytesKeyValueStore): Promise<BytesKeyValueStore>
  commit(store: BytesKeyValueStore): Promise<void>
  /** Closes every store opened since the last call. */
  closeAll(): void
}

export function trackHarness(harness: KeyValueStoreHarness): TrackedHarness {
  const opened: BytesKeyValueStore[] = []
  return {
    harness,
    async open() {
      const store = await harness.open()
      opened.push(store)
      return store
    },
    async reopen(store) {
      if (harness.reopen === undefined) throw new Error(`harness "${harness.name}" cannot reopen stores`)
      const reopened = await harness.reopen(store)
      opened.push(reopened)
      return reopened
    },
    async commit(store) {
      await harness.commit(store)
    },
    closeAll() {
      for (const store of opened.splice(0)) store.close()
    }
  }
}

/** Runs `check` on `store`, then its verify() as-is, after a commit, and after a reopen when persistent. */
export async function runCheck(tracked: TrackedHarness, check: KeyValueCheck, store: BytesKeyValueStore): Promise<void> {
  let current = store
  await check.run(current, {
    commit: async () => {
      await tracked.commit(current)
    },
    reopen: async () => {
      current = await tracked.reopen(current)
      return current
    }
  })
  if (check.verify === undefined) return
  check.verify(current)
  await tracked.commit(current)
  check.verify(current)
  if (tracked.harness.persistent) {
    current = await tracked.reopen(current)
    check.verify(current)
  }
}

export function runOperationSuite(tracked: TrackedHarness, suite: KeyValueOperationSuite): void {
  const canReopen = tracked.harness.reopen !== undefined
  describe(suite.title, () => {
    afterEach(() => {
      tracked.closeAll()
    })

    for (const check of suite.checks) {
      it(check.title, async () => {
        await runCheck(tracked, check, await tracked.open())
      })
      if (canReopen) {
        it(`${check.title} (on a reopened store)`, async () => {
          await runCheck(tracked, check, await tracked.reopen(await tracked.open()))
        })
      }
    }

    const calls = Object.entries(suite.closedStoreCalls ?? {})
    if (calls.length > 0) {
      it('throws STORE_NOT_OPEN on a closed store', async () => {
        const store = await tracked.open()
        store.put(s('a'), s('1'))
        await tracked.commit(store)
        store.close()
        for (const [name, call] of calls)
          expect(
            codeOf(() => call(store)),
            name
          ).to.equal('STORE_NOT_OPEN')
      })
      if (canReopen) {
        it('throws STORE_NOT_OPEN on a reopened store once it is closed', async () => {
          const store = await tracked.reopen(await tracked.open())
          store.put(s('a'), s('1'))
          await tracked.commit(store)
          store.close()
          for (const [name, call] of calls)
            expect(
              codeOf(() => call(store)),
              name
            ).to.equal('STORE_NOT_OPEN')
        })
      }
    }
  })
}
