# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Errors a program logs and carries on after, in celery's shapes
# (celery/worker/consumer/consumer.py): the logger's methods bound to names
# of the module's own, a message constant of several lines, %-formatted
# with values and with a text given as it is printed.
from celery.utils.log import get_logger

logger = get_logger(__name__)
debug, info, warn, error, crit = (logger.debug, logger.info, logger.warning,
                                  logger.error, logger.critical)
fail = logger.exception

CONNECTION_ERROR = """\
consumer: Cannot connect to %s: %s.
%s
"""


class Consumer:
    def on_connection_error_before_connected(self, exc):
        error(CONNECTION_ERROR, self.conninfo.as_uri(), exc,
              'Trying to reconnect...')

    def _error_handler(self, exc, interval, next_step='Trying again in %.2f seconds...'):
        error(CONNECTION_ERROR, self.conn.as_uri(), exc, next_step)

    def on_decode_error(self, message, exc):
        crit("Can't decode message body: %r", exc)
        fail("Control command error: %r", exc)
        info("only information: %s", exc)  # not an error
        warn("a warning: %s", exc)  # not an error either


if __name__ == "__main__":  # rich/logging.py's demo: no error of the library
    error("Out of memory!")
