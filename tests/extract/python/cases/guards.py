# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
def chain(x):
    if x is None:
        raise ValueError("none")
    elif x < 0:
        raise ValueError("negative")
    elif x > 10:
        raise ValueError("too big")
    else:
        raise ValueError("in range")


def instance_checks(x):
    if not isinstance(x, (int, float)):
        raise TypeError("not a number")
    if isinstance(x, bool):
        raise TypeError("bool is not a number")


def nested(x, y):
    if x:
        for item in y:
            if item:
                raise ValueError("nested")


def excepts(path):
    try:
        open(path)
    except (OSError, ValueError) as e:
        raise RuntimeError("cannot open") from e
    except KeyError:
        raise LookupError("missing")
    except:
        raise SystemExit("anything else")


def multi_line_condition(a, b):
    if (a
            and b):
        raise ValueError("both")


def matches(command):
    match command:
        case ["go", direction] if direction != "up":
            raise ValueError("cannot go there")
        case Quit():
            raise SystemExit("bye")
        case _:
            raise ValueError("unknown command")


def outer_guard_stops_at_function(flag):
    if flag:
        def inner():
            raise ValueError("inner")
        return inner


if __name__ == "__main__":
    raise SystemExit("module level")


def commented(a, b):
    if (
        a.startswith("x")  # noqa: E501
        and b  # the second part
    ):
        raise ValueError("comments are not part of a guard")
    assert (
        a  # first
        != b
    ), "nor of an assert's condition"
