/**
 * Runs the built `kstreams` bin (packages/cli/dist/src/bin.js) with plain node, as a user's shell
 * would: builds the package first (tsc -b, once per run; the build's type errors are `tsc -b`'s
 * business, this only needs the emitted bin), no tsx and no `@kstreams/source` condition.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { run } from './local-registry.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
/** The bin as npm links it (package.json "bin"). */
export const KSTREAMS_BIN = join(REPO, 'packages', 'cli', 'dist', 'src', 'bin.js')
let built = false

/** What one run of the bin did. */
export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

function ensureBuilt(): void {
  if (built) return
  spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(REPO, 'packages', 'cli')], {
    cwd: REPO,
    stdio: 'ignore'
  })
  if (!existsSync(KSTREAMS_BIN)) throw new Error(`${KSTREAMS_BIN} was not built (run npx tsc -b)`)
  built = true
}

/** `node <bin> ...args` in `cwd` (default: the repository), in a user's environment (no NODE_OPTIONS); at most `timeoutMs`. */
export async function kstreams(args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  ensureBuilt()
  return await run(process.execPath, [KSTREAMS_BIN, ...args], options.cwd ?? REPO, options.timeoutMs ?? 120_000, { allowFailure: true })
}
