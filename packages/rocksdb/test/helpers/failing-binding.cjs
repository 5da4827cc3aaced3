// A stand-in for @nxtedition/rocksdb's native binding, loaded by a BackgroundWriter's worker in
// the tests: batches are collected and dropped, a batch holding the key "fail" fails to write the
// way a full disk makes RocksDB fail (an IO error), and one holding "crash" stops the worker.
'use strict'
module.exports = {
  db_init: handle => ({ handle }),
  batch_init: () => ({ keys: [] }),
  batch_put: (batch, key) => {
    batch.keys.push(key.toString())
  },
  batch_del: (batch, key) => {
    batch.keys.push(key.toString())
  },
  batch_clear: batch => {
    batch.keys.length = 0
  },
  batch_write: (_db, batch) => {
    if (batch.keys.includes('crash')) process.exit(3)
    if (batch.keys.includes('fail')) {
      throw Object.assign(new Error('IO error: No space left on device: While appending to file: 000004.log'), { code: 'LEVEL_IO_ERROR' })
    }
  }
}
