#!/usr/bin/env node
/** The `kstreams` executable: runs the command line and exits with its code. */
import { runCli } from './cli.js'

process.exitCode = await runCli(process.argv.slice(2))
