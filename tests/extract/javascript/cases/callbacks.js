// Error values handed on, not thrown here.
function read(path, cb) {
  if (!path) return cb(new TypeError('path must be a string'));
  process.nextTick(() => cb(new Error(`cannot read ${path}`)));
  const wrapped = new Error(cb.message);
  return new Promise((resolve, reject) => reject(new RangeError('bad range')));
}
