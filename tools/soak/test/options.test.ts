/** The soak's options: defaults that scale with the length of the run, checks, and the restart plan. */
import { expect } from 'chai'
import { parseOptions, planRestarts, UsageError } from '../options.js'

const MINUTE = 60_000

describe('soak options', () => {
  it('30 minutes: a restart every 5 min, a warm-up until 2 min after the first, windows of 1 min, a sample every 10 s', () => {
    const options = parseOptions([])
    expect(options).to.include({
      durationMs: 30 * MINUTE,
      restartEveryMs: 5 * MINUTE,
      warmupMs: 7 * MINUTE,
      windowMs: MINUTE,
      sampleEveryMs: 10_000,
      restarts: 'alternate',
      kill: true,
      eos: false,
      maxGrowth: 0.1
    })
  })

  it('3 minutes: one restart at 1.5 min, a warm-up of 2.1 min, windows of 4 samples at one every 5 s', () => {
    const options = parseOptions(['--minutes=3'])
    expect(options).to.include({ restartEveryMs: 1.5 * MINUTE, warmupMs: 126_000, windowMs: 20_000, sampleEveryMs: 5000 })
    expect(planRestarts(options)).to.deep.equal([{ atMs: 1.5 * MINUTE, instance: 'A', kill: false }])
  })

  it('without restarts the warm-up is a sixth of the run, at most 5 min', () => {
    expect(parseOptions(['--minutes=12', '--restart-every-minutes=0'])).to.include({ restartEveryMs: 0, warmupMs: 2 * MINUTE })
    expect(parseOptions(['--minutes=60', '--restart-every-minutes=0'])).to.include({ warmupMs: 5 * MINUTE })
  })

  it('takes explicit values and rejects what it does not know', () => {
    expect(parseOptions(['--eos', '--no-kill', '--rate=500', '--max-growth-percent=5', '--out=/tmp/x', '--restarts=one'])).to.include({
      eos: true,
      kill: false,
      rate: 500,
      maxGrowth: 0.05,
      outDir: '/tmp/x',
      restarts: 'one'
    })
    expect(() => parseOptions(['--minutes=abc'])).to.throw(UsageError, '--minutes=abc')
    expect(() => parseOptions(['--speed=3'])).to.throw(UsageError, '--speed')
    expect(() => parseOptions(['--restarts=all'])).to.throw(UsageError, 'alternate or one')
    expect(() => parseOptions(['--eos=yes'])).to.throw(UsageError, 'takes no value')
    expect(() => parseOptions(['--window-minutes=0.1', '--sample-seconds=10'])).to.throw(UsageError, 'fewer than 3 samples')
  })

  it('alternates A and B, killing the 2nd and 3rd of every four; --restarts=one restarts only A, every other by SIGKILL', () => {
    const alternate = planRestarts(parseOptions([]))
    expect(alternate.map(r => `${r.atMs / MINUTE}${r.instance}${r.kill ? '!' : ''}`)).to.deep.equal(['5A', '10B!', '15A!', '20B', '25A'])
    const one = planRestarts(parseOptions(['--restarts=one']))
    expect(one.map(r => `${r.instance}${r.kill ? '!' : ''}`)).to.deep.equal(['A', 'A!', 'A', 'A!', 'A'])
    expect(planRestarts(parseOptions(['--no-kill'])).some(r => r.kill)).to.equal(false)
    expect(planRestarts(parseOptions(['--restart-every-minutes=0']))).to.deep.equal([])
  })
})
