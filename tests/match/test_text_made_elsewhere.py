"""A panic or raise whose text is another entry's, made elsewhere: the raise
frame's page names that entry (``wraps``), so a user learns what it means."""

from __future__ import annotations

from pathlib import Path

from errordex.explain import explain_text
from tests.repo_files import index_files

#: the shape of rust_decimal 1.23's ``Decimal::new``: ``Err(e) => panic!("{}", e)``
_LIB = """use std::fmt;

pub enum Error {
    ScaleExceedsMaximumPrecision(u32),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::ScaleExceedsMaximumPrecision(scale) => write!(
                f,
                "Scale exceeds the maximum precision allowed: {} > {}",
                scale, 28
            ),
        }
    }
}

pub struct Decimal(i64, u32);

impl Decimal {
    pub fn try_new(num: i64, scale: u32) -> Result<Decimal, Error> {
        if scale > 28 {
            return Err(Error::ScaleExceedsMaximumPrecision(scale));
        }
        Ok(Decimal(num, scale))
    }

    pub fn new(num: i64, scale: u32) -> Decimal {
        match Self::try_new(num, scale) {
            Err(e) => panic!("{}", e),
            Ok(d) => d,
        }
    }
}
"""

_FILES = {
    "Cargo.toml": '[package]\nname = "dec"\nversion = "1.0.0"\nedition = "2021"\n',
    "src/lib.rs": _LIB,
}


def test_a_panic_of_an_errors_text_names_the_entry_that_made_it(tmp_path: Path) -> None:
    store, _ = index_files(tmp_path, _FILES, "acme/dec")
    line = _LIB.splitlines().index('            Err(e) => panic!("{}", e),') + 1
    paste = (
        f"thread 'main' panicked at src/lib.rs:{line}:23:\n"
        "Scale exceeds the maximum precision allowed: 40 > 28\n"
    )
    part = explain_text(store, paste)["parts"][-1]
    top = part["matches"][0]
    assert any(s["line"] == line for s in top["sites"])  # the place that failed
    assert top["wraps"]["message"].startswith("Scale exceeds the maximum precision allowed")


#: pydantic's shape: ``BaseModel.__init__`` validates in compiled code, and
#: another method raises the same class with a text made at run time
_MODEL = {
    "model/__init__.py": "",
    "model/main.py": (
        "from model_core import ValidationError\n\n\n"
        "class BaseModel:\n"
        "    def __init__(self, **data):\n"
        "        self.__validator__.validate_python(data, self_instance=self)\n\n"
        "    @classmethod\n"
        "    def parse_raw(cls, b):\n"
        "        try:\n"
        "            obj = cls.load(b)\n"
        "        except (ValueError, TypeError) as exc:\n"
        "            raise ValidationError.from_exception_data(cls.__name__, [exc])\n"
        "        return obj\n"
    ),
}


def test_a_text_made_at_run_time_is_not_the_same_message(tmp_path: Path) -> None:
    from rich.console import Console

    from errordex.termview import print_explanations

    store, _ = index_files(tmp_path, _MODEL, "acme/model")
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/app/run.py", line 4, in <module>\n'
        '    M(x="abc")\n'
        '  File "/venv/site-packages/model/main.py", line 6, in __init__\n'
        "    self.__validator__.validate_python(data, self_instance=self)\n"
        "model_core.ValidationError: 1 validation error for M\n"
        "x\n"
        "  Input should be a valid integer\n"
    )
    result = explain_text(store, paste)
    assert result["parts"][-1]["matches"][0]["textual"] is False
    console = Console(record=True, width=200)
    print_explanations(console, result)
    shown = console.export_text()
    assert "raised by the Python runtime at model/main.py:6" in shown
    assert "same message, raised elsewhere" not in shown
