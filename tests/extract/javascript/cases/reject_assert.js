// Promise.reject and node's assert, each with its message.
const assert = require('node:assert');
async function fetchIt(url) {
  if (!url) return Promise.reject(new TypeError(`invalid url ${url}`));
  return Promise.reject(new Error('offline'));
}
function check(a, b) {
  assert(typeof a === 'string', 'a must be a string');
  assert.ok(b, 'b is required');
  assert.strictEqual(a.length, b.length, `lengths differ: ${a.length}`);
  assert.equal(a, b);
  assert.fail('never here');
}
