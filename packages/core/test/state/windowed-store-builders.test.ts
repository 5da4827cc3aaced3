import { expect } from 'chai'
import { MeteredSessionStore } from '../../src/state/metered-session-store.js'
import { MeteredTimestampedWindowStore } from '../../src/state/metered-timestamped-window-store.js'
import { MeteredWindowStore } from '../../src/state/metered-window-store.js'
import type { SessionBytesStoreSupplier } from '../../src/state/session-store.js'
import { SessionStoreBuilder } from '../../src/state/session-store-builder.js'
import { TimestampedWindowStoreBuilder } from '../../src/state/timestamped-window-store-builder.js'
import { WindowStoreBuilder } from '../../src/state/window-store-builder.js'
import type { WindowBytesStoreSupplier } from '../../src/state/window-store.js'
import {
  checkRetainDuplicates,
  checkRetentionPeriod,
  checkSegmentInterval,
  checkWindowStoreArguments,
  defaultSegmentInterval
} from '../../src/state/windowed-store-arguments.js'
import { codeOf, errorOf } from './helpers/expect-code.js'
import { SimpleSessionBytesStore, SimpleWindowBytesStore } from './helpers/simple-windowed-bytes-stores.js'
import { stringSerde } from './helpers/test-serdes.js'

function windowSupplier(name = 'win'): WindowBytesStoreSupplier & { built: number } {
  return {
    name,
    metricsScope: 'test-window',
    retentionPeriod: 1000,
    windowSize: 100,
    segmentInterval: 60000,
    retainDuplicates: false,
    built: 0,
    get() {
      this.built++
      return new SimpleWindowBytesStore(name, 100)
    }
  }
}

function sessionSupplier(name = 'sessions'): SessionBytesStoreSupplier {
  return { name, metricsScope: 'test-session', retentionPeriod: 500, segmentInterval: 60000, get: () => new SimpleSessionBytesStore(name) }
}

describe('window and session store builders', () => {
  it('WindowStoreBuilder builds a new metered window store per build(), logging on by default', () => {
    const supplier = windowSupplier()
    const builder = new WindowStoreBuilder(supplier, stringSerde, stringSerde)
    const a = builder.build()
    expect(a).to.be.instanceOf(MeteredWindowStore)
    expect(a).to.not.be.instanceOf(MeteredTimestampedWindowStore)
    expect(builder.build()).to.not.equal(a)
    expect(supplier.built).to.equal(2)
    expect([builder.name, builder.loggingEnabled, builder.retentionPeriod]).to.deep.equal(['win', true, 1000])
    expect((a as MeteredWindowStore<string, string>).metricsScope).to.equal('test-window')
    expect((a as MeteredWindowStore<string, string>).windowSize).to.equal(100)
  })

  it('TimestampedWindowStoreBuilder builds metered timestamped window stores', () => {
    const builder = new TimestampedWindowStoreBuilder(windowSupplier('ts'))
    expect(builder.build()).to.be.instanceOf(MeteredTimestampedWindowStore)
    expect([builder.name, builder.retentionPeriod]).to.deep.equal(['ts', 1000])
  })

  it('SessionStoreBuilder builds metered session stores', () => {
    const builder = new SessionStoreBuilder(sessionSupplier(), stringSerde)
    const store = builder.build()
    expect(store).to.be.instanceOf(MeteredSessionStore)
    expect([builder.name, builder.retentionPeriod, store.name]).to.deep.equal(['sessions', 500, 'sessions'])
  })

  it('rejects a missing or incomplete supplier, an illegal store name, and a non-serde with ILLEGAL_ARGUMENT', () => {
    expect(codeOf(() => new WindowStoreBuilder(undefined as never))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new WindowStoreBuilder({ ...windowSupplier(), metricsScope: '' }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new TimestampedWindowStoreBuilder({ ...windowSupplier(), windowSize: undefined as never }))).to.equal(
      'ILLEGAL_ARGUMENT'
    )
    expect(codeOf(() => new WindowStoreBuilder(windowSupplier('a b')))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new SessionStoreBuilder({ ...sessionSupplier(), retentionPeriod: NaN }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new SessionStoreBuilder({ name: 's' } as never))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new SessionStoreBuilder(sessionSupplier(), { serializer: 1 } as never))).to.equal('ILLEGAL_ARGUMENT')
  })
})

describe('windowed store arguments', () => {
  it("defaultSegmentInterval is Kafka's max(retention / 2, 60000), with integer division", () => {
    expect(defaultSegmentInterval(0)).to.equal(60000)
    expect(defaultSegmentInterval(120001)).to.equal(60000)
    expect(defaultSegmentInterval(120003)).to.equal(60001)
    expect(defaultSegmentInterval(86_400_000)).to.equal(43_200_000)
  })

  it('accepts retention >= window size >= 0 and segment intervals >= 1', () => {
    expect(() => {
      checkWindowStoreArguments('w', 10, 10)
    }).to.not.throw()
    expect(() => {
      checkWindowStoreArguments('w', 0, 0)
    }).to.not.throw()
    expect(checkRetentionPeriod('s', 0)).to.equal(0)
    expect(checkSegmentInterval('w', 1)).to.equal(1)
    expect(checkRetainDuplicates('w', true)).to.equal(true)
  })

  it('rejects negative or non-integer values and window size > retention with ILLEGAL_ARGUMENT naming the store', () => {
    const calls: Array<() => unknown> = [
      () => {
        checkWindowStoreArguments('store-x', -1, 0)
      },
      () => {
        checkWindowStoreArguments('store-x', 10, -1)
      },
      () => {
        checkWindowStoreArguments('store-x', 10, 11)
      },
      () => {
        checkWindowStoreArguments('store-x', 10, 0.5)
      },
      () => checkRetentionPeriod('store-x', -5),
      () => checkSegmentInterval('store-x', 0),
      () => checkRetainDuplicates('store-x', 1 as unknown as boolean)
    ]
    for (const call of calls) {
      const err = errorOf(call)
      expect(err.code).to.equal('ILLEGAL_ARGUMENT')
      expect(err.message).to.contain('store-x')
    }
  })
})
