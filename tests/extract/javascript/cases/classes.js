// Error subclasses: the message each supplies, and the name it sets.
class AppError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AppError';
  }
}
class NotFoundError extends AppError {
  constructor(id) {
    super(`no such id: ${id}`);
    this.name = 'NotFoundError';
  }
}
class Timeout extends Error {
  constructor(ms) {
    super();
    this.message = 'timed out after ' + ms + 'ms';
  }
}
function get(id) {
  if (id < 0) throw new NotFoundError(id);
  throw new AppError('app failed');
}
class Renamed extends Error {
  constructor(key) {
    super(`bad value for ${key}`);
    this.name = 'BadValueError';
  }
}
class Fielded extends TypeError {
  name = 'FieldedError';
}
function later(id) {
  return Promise.reject(new NotFoundError(id));
}
