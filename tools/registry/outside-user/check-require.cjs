// A CommonJS user: require() of each public entry point (Node 22.12+ and 20.19+ load ES modules
// through require unless they use top-level await). Prints, per entry point, how many names it
// exports or the error it threw.
const entryPoints = JSON.parse(process.argv[2])
const results = {}
for (const entryPoint of entryPoints) {
  try {
    results[entryPoint] = { ok: true, exports: Object.keys(require(entryPoint)).length, file: require.resolve(entryPoint) }
  } catch (error) {
    results[entryPoint] = { ok: false, code: error.code, message: String(error.message).split('\n')[0] }
  }
}
process.stdout.write(`${JSON.stringify({ node: process.version, results })}\n`)
