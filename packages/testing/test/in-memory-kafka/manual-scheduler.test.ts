import { expect } from 'chai'
import { ManualScheduler, SystemScheduler } from '@kstreams/testing/in-memory-kafka'

describe('ManualScheduler', () => {
  it('runs due tasks in due order (ties in scheduling order) with the clock at each due time, including tasks scheduled by tasks', () => {
    const scheduler = new ManualScheduler(100)
    const ran: Array<[string, number]> = []
    scheduler.schedule(20, () => ran.push(['b', scheduler.milliseconds()]))
    scheduler.schedule(10, () => {
      ran.push(['a', scheduler.milliseconds()])
      scheduler.schedule(5, () => ran.push(['a+5', scheduler.milliseconds()]))
    })
    scheduler.schedule(20, () => ran.push(['c', scheduler.milliseconds()]))
    const cancel = scheduler.schedule(15, () => ran.push(['cancelled', 0]))
    cancel()
    scheduler.advance(19)
    expect(ran).to.deep.equal([
      ['a', 110],
      ['a+5', 115]
    ])
    expect(scheduler.milliseconds()).to.equal(119)
    scheduler.advance(1)
    expect(ran.slice(2)).to.deep.equal([
      ['b', 120],
      ['c', 120]
    ])
    expect(scheduler.pending).to.equal(0)
  })

  it('advance(0) runs what is due now; a negative advance is an error', () => {
    const scheduler = new ManualScheduler()
    let ran = false
    scheduler.schedule(0, () => {
      ran = true
    })
    expect(ran).to.equal(false)
    scheduler.advance(0)
    expect(ran).to.equal(true)
    expect(() => scheduler.advance(-1))
      .to.throw(/non-negative/)
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })

  it('SystemScheduler runs a task after its delay and can cancel it', async () => {
    const scheduler = new SystemScheduler()
    const ran: string[] = []
    scheduler.schedule(5, () => ran.push('kept'))
    scheduler.schedule(5, () => ran.push('cancelled'))()
    await new Promise(resolve => setTimeout(resolve, 30))
    expect(ran).to.deep.equal(['kept'])
    expect(Math.abs(scheduler.milliseconds() - Date.now())).to.be.below(5)
  })
})
