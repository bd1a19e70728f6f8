// Messages built from templates, concatenation, consts and util.format.
const util = require('util');
const PREFIX = 'config';
const BAD = `${PREFIX} is invalid`;
function load(name, size) {
  if (size < 0) throw new Error(`${PREFIX} ${name} has size ${size}`);
  if (size > 10) throw new Error('too big: ' + size + ' > 10 (' + name + ')');
  if (size === 3) throw new Error(BAD);
  if (size === 4) throw new Error(util.format('cannot read %s: %d%%', name, size));
  if (size === 5) throw new Error('tab\there \u0041 \x42 it\'s');
  throw new Error(name);
}
function route(method, handle) {
  var msg = 'Route.' + method + '() requires a callback, got ' + typeof handle;
  throw new TypeError(msg);
}
function reassigned(x) {
  let text = 'first';
  if (x) text = 'second';
  throw new Error(text);
}
