// Guards: if, else, else if, and the build's NODE_ENV.
function pick(kind, value) {
  if (kind === 'a') {
    return 1;
  } else if (kind === 'b') {
    throw new Error('b is retired');
  } else {
    throw new Error('unknown kind');
  }
}
function warnDev(value) {
  if (process.env.NODE_ENV !== 'production') {
    if (value == null) {
      throw new Error('value must not be null in development');
    }
  }
}
