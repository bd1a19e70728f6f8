// The forms a throw takes.
function open(path, mode) {
  if (!path) throw new TypeError('path is required');
  if (mode === 'x') throw Error(`mode ${mode} is not supported`);
  const err = new RangeError('mode out of range');
  err.code = 'ERR_MODE';
  if (mode > 7) {
    throw err;
  }
  throw 'plain text thrown';
}
function rethrow(e) {
  throw e;
}
function http(req) {
  throw createError(404, 'Not found');
}
