# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# A helper that raises the class each caller passes it, as configobj's
# ConfigObj._parse does (configobj/__init__.py, abridged): a call's class
# argument is read, so that its site raises DuplicateError, not a class
# named "ErrorClass".


class ConfigObjError(SyntaxError):
    pass


class DuplicateError(ConfigObjError):
    pass


class NestingError(ConfigObjError):
    pass


class ConfigObj:
    def _parse(self, infile):
        if sect_name in parent:
            self._handle_error('Duplicate section name',
                               DuplicateError, infile, cur_index)
            continue
        if cur_depth > 2:
            self._handle_error(text="Section too nested", ErrorClass=NestingError,
                               infile=infile, cur_index=cur_index)

    def _handle_error(self, text, ErrorClass, infile, cur_index):
        line = infile[cur_index]
        cur_index += 1
        message = '{0} at line {1}.'.format(text, cur_index)
        error = ErrorClass(message, cur_index, line)
        if self.raise_errors:
            raise error
