/**
 * The Logger contract: pino's call order (fields, then message; or a message alone), child
 * loggers (the logger's own child() when it has one, bindings added to the fields otherwise),
 * consoleLogger's lines, and that pino- and bunyan-shaped loggers are Loggers as they are.
 */
import { expect } from 'chai'
import { childLogger, consoleLogger, silentLogger, type Logger } from '../src/index.js'

/** pino's Logger, as its type declarations have it (the parts kstreams uses). */
interface PinoShaped {
  debug: PinoLogFn
  info: PinoLogFn
  warn: PinoLogFn
  error: PinoLogFn
  child(bindings: Record<string, unknown>, options?: object): PinoShaped
}
interface PinoLogFn {
  <T extends object>(obj: T, msg?: string, ...args: unknown[]): void
  (obj: unknown, msg?: string, ...args: unknown[]): void
  (msg: string, ...args: unknown[]): void
}
/** bunyan's Logger, as @types/bunyan has it. */
interface BunyanShaped {
  info(): boolean
  info(error: Error, ...params: unknown[]): void
  info(obj: object, ...params: unknown[]): void
  info(format: unknown, ...params: unknown[]): void
  debug: BunyanShaped['info']
  warn: BunyanShaped['info']
  error: BunyanShaped['info']
  child(options: object, simple?: boolean): BunyanShaped
}

type Line = { level: string; args: unknown[] }

function recording(lines: Line[], withChild: boolean): Logger {
  const at =
    (level: string) =>
    (...args: unknown[]): void => {
      lines.push({ level, args })
    }
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
  return withChild
    ? {
        ...logger,
        child: bindings => ({
          ...recording(lines, false),
          info: (...args: unknown[]) => lines.push({ level: 'child', args: [bindings, ...args] })
        })
      }
    : logger
}

describe('Logger', () => {
  it('pino- and bunyan-shaped loggers are Loggers (checked by the compiler)', () => {
    const lines: unknown[][] = []
    const fn = ((...args: unknown[]) => {
      lines.push(args)
    }) as PinoLogFn
    const pino: PinoShaped = { debug: fn, info: fn, warn: fn, error: fn, child: () => pino }
    const asLogger: Logger = pino
    asLogger.info({ task: '0_1' }, 'task created')
    asLogger.warn('plain message')
    const bunyan = { debug: fn, info: fn, warn: fn, error: fn, child: () => bunyan } as unknown as BunyanShaped
    const alsoLogger: Logger = bunyan
    expect(alsoLogger).to.equal(bunyan)
    expect(lines).to.deep.equal([[{ task: '0_1' }, 'task created'], ['plain message']])
  })

  it("childLogger uses the logger's own child() when it has one", () => {
    const lines: Line[] = []
    childLogger(recording(lines, true), { thread: 't-1' }).info({ a: 1 }, 'm')
    expect(lines).to.deep.equal([{ level: 'child', args: [{ thread: 't-1' }, { a: 1 }, 'm'] }])
  })

  it('childLogger adds the bindings to the fields of a logger without child(), in both call forms, nested', () => {
    const lines: Line[] = []
    const thread = childLogger(recording(lines, false), { thread: 't-1' })
    thread.info('started')
    thread.warn({ thread: 'own', partition: 3 }, 'lagging')
    childLogger(thread, { task: '0_1' }).error({ offset: 7 }, 'failed')
    expect(lines).to.deep.equal([
      { level: 'info', args: [{ thread: 't-1' }, 'started'] },
      { level: 'warn', args: [{ thread: 'own', partition: 3 }, 'lagging'] },
      { level: 'error', args: [{ thread: 't-1', task: '0_1', offset: 7 }, 'failed'] }
    ])
  })

  it('consoleLogger writes time, level, message and the fields with the bindings, at or above its level', () => {
    const written: string[] = []
    const write = process.stderr.write
    process.stderr.write = ((chunk: string) => {
      written.push(chunk)
      return true
    }) as typeof process.stderr.write
    try {
      const logger = consoleLogger('info').child!({ thread: 'StreamThread-1' })
      logger.debug({ x: 1 }, 'hidden')
      logger.info({ task: '0_1' }, 'task created')
      logger.warn('plain')
      logger.error({ err: Object.assign(new Error('boom'), { code: 'KAFKA' }) }, 'failed')
    } finally {
      process.stderr.write = write
    }
    expect(written).to.have.length(3)
    expect(written[0]).to.match(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO task created \{"thread":"StreamThread-1","task":"0_1"\}\n$/)
    expect(written[1]).to.match(/ WARN plain \{"thread":"StreamThread-1"\}\n$/)
    expect(written[2]).to.contain('"err":{"name":"Error","message":"boom","code":"KAFKA"}')
  })

  it('silentLogger drops everything, children included', () => {
    silentLogger.info({ a: 1 }, 'nothing')
    expect(silentLogger.child!({ thread: 'x' })).to.equal(silentLogger)
  })
})
