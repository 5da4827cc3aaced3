/**
 * The soak's command line: `--name=value` options and the defaults that scale with `--minutes`,
 * so that a short run (e.g. 3 minutes, for CI) still warms up, restarts both instances and has
 * a baseline and an end window to compare within each instance's life.
 */

/** Which instances are restarted: A and B in turn, or only A (B then runs the whole time). */
export type RestartPlan = 'alternate' | 'one'

/** What one soak run does. Times in milliseconds. */
export interface SoakOptions {
  /** How long input is produced (and instances restarted), from the first instance's start. */
  readonly durationMs: number
  /** Samples of an instance's life before this are warm-up: not compared. */
  readonly warmupMs: number
  /** The length of the baseline window (after warm-up) and of the end window of a life. */
  readonly windowMs: number
  /** An instance is restarted this often; 0: never. */
  readonly restartEveryMs: number
  readonly restarts: RestartPlan
  /** Every other restart is a SIGKILL instead of a clean close. */
  readonly kill: boolean
  /** exactly_once_v2 instead of at_least_once. */
  readonly eos: boolean
  /** Input records per second, over the three input topics. */
  readonly rate: number
  /** Distinct keys (users). */
  readonly keys: number
  /** Partitions of every topic. */
  readonly partitions: number
  readonly sampleEveryMs: number
  readonly commitIntervalMs: number
  /** Growth of RSS or heap (a fraction, 0.1 = 10%) beyond which a life fails. */
  readonly maxGrowth: number
  /** Where the CSV, chart, logs and summary go; undefined: artifacts/soak/<run id>. */
  readonly outDir: string | undefined
}

export class UsageError extends Error {}

export const USAGE = `Usage: npm run soak -- [--minutes=30] [--restart-every-minutes=N] [--restarts=alternate|one] [--no-kill]
  [--warmup-minutes=N] [--window-minutes=N] [--eos] [--rate=2000] [--keys=1000] [--partitions=4]
  [--sample-seconds=N] [--commit-interval-ms=5000] [--max-growth-percent=10] [--out=DIR]`

const MINUTE = 60_000

/**
 * Parses `--name=value` arguments. The defaults scale with --minutes (M):
 *   restart every R = min(5, M / 2) minutes (0: never);
 *   warm-up: R + min(2, 0.4 R) minutes with restarts, so that the baseline of a life starts once the
 *     restart of the other instance in it has settled (every life of the alternation has one,
 *     and an instance holds more memory after standing in for the other); min(5, M / 6) without;
 *   window: min(1, R / 5) minutes (M / 10 without restarts), and at least 4 samples;
 *   a sample every 10 s (5 s in runs under 10 minutes).
 */
export function parseOptions(argv: readonly string[]): SoakOptions {
  const values = new Map<string, string>()
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
    if (match === null) throw new UsageError(`unknown argument '${arg}'`)
    values.set(match[1]!, match[2] ?? 'true')
  }
  const number = (name: string, fallback: number, min: number): number => {
    const text = values.get(name)
    values.delete(name)
    if (text === undefined) return fallback
    const value = Number(text)
    if (text === '' || !Number.isFinite(value) || value < min) throw new UsageError(`--${name}=${text}: want a number >= ${min}`)
    return value
  }
  const flag = (name: string): boolean => {
    const text = values.get(name)
    values.delete(name)
    if (text === undefined) return false
    if (text !== 'true') throw new UsageError(`--${name} takes no value`)
    return true
  }
  const minutes = number('minutes', 30, 1)
  const sampleSeconds = number('sample-seconds', minutes < 10 ? 5 : 10, 0.5)
  const restartEvery = number('restart-every-minutes', Math.min(5, minutes / 2), 0)
  const warmup = number('warmup-minutes', restartEvery > 0 ? restartEvery + Math.min(2, 0.4 * restartEvery) : Math.min(5, minutes / 6), 0)
  const window = number(
    'window-minutes',
    Math.max((4 * sampleSeconds) / 60, Math.min(1, (restartEvery > 0 ? restartEvery : minutes / 2) / 5)),
    0.05
  )
  const restarts = values.get('restarts') ?? 'alternate'
  values.delete('restarts')
  if (restarts !== 'alternate' && restarts !== 'one') throw new UsageError(`--restarts=${restarts}: want alternate or one`)
  const options: SoakOptions = {
    durationMs: Math.round(minutes * MINUTE),
    warmupMs: Math.round(warmup * MINUTE),
    windowMs: Math.round(window * MINUTE),
    restartEveryMs: Math.round(restartEvery * MINUTE),
    restarts,
    kill: !flag('no-kill'),
    eos: flag('eos'),
    rate: number('rate', 2000, 1),
    keys: Math.round(number('keys', 1000, 1)),
    partitions: Math.round(number('partitions', 4, 1)),
    sampleEveryMs: Math.round(sampleSeconds * 1000),
    commitIntervalMs: Math.round(number('commit-interval-ms', 5000, 1)),
    maxGrowth: number('max-growth-percent', 10, 0) / 100,
    outDir: values.get('out')
  }
  values.delete('out')
  const unknown = [...values.keys()]
  if (unknown.length > 0) throw new UsageError(`unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map(n => `--${n}`).join(', ')}`)
  if (options.sampleEveryMs * 3 > options.windowMs) {
    throw new UsageError(
      `a window of ${options.windowMs / 1000} s holds fewer than 3 samples at one every ${options.sampleEveryMs / 1000} s`
    )
  }
  return options
}

/** A restart: when (ms from the start), of which instance, and whether by SIGKILL. */
export interface PlannedRestart {
  readonly atMs: number
  readonly instance: string
  readonly kill: boolean
}

/**
 * The restarts of a run, every restartEveryMs but none in its last 10 s (the new process would not
 * start before the input stops). `alternate`: A, B, A, B...; SIGKILLs (with `kill`) at the 2nd,
 * 3rd, 6th, 7th..., so that each instance is both closed and killed. `one`: only A, every other
 * restart a SIGKILL.
 */
export function planRestarts(options: Pick<SoakOptions, 'durationMs' | 'restartEveryMs' | 'restarts' | 'kill'>): PlannedRestart[] {
  const plan: PlannedRestart[] = []
  if (options.restartEveryMs <= 0) return plan
  for (let i = 0, t = options.restartEveryMs; t < options.durationMs - 10_000; i++, t += options.restartEveryMs) {
    if (options.restarts === 'one') plan.push({ atMs: t, instance: 'A', kill: options.kill && i % 2 === 1 })
    else plan.push({ atMs: t, instance: i % 2 === 0 ? 'A' : 'B', kill: options.kill && (i % 4 === 1 || i % 4 === 2) })
  }
  return plan
}
