"""Go's keywords, predeclared names and the standard packages a page's code
may name beside the repository's own identifiers (``verify`` accepts them)."""

from __future__ import annotations

GO_WORDS = frozenset(
    {
        # keywords
        "break", "case", "chan", "const", "continue", "default", "defer", "else",
        "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map",
        "package", "range", "return", "select", "struct", "switch", "type", "var",
        # predeclared
        "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32",
        "float64", "int", "int8", "int16", "int32", "int64", "rune", "string", "uint",
        "uint8", "uint16", "uint32", "uint64", "uintptr", "true", "false", "iota", "nil",
        "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len",
        "make", "max", "min", "new", "panic", "print", "println", "real", "recover",
        # what example code names: errors, fmt, testing
        "errors", "Is", "As", "New", "Unwrap", "fmt", "Errorf", "Sprintf", "Println",
        "err", "Error", "t", "testing", "T", "Fatal", "Fatalf", "log",
    }
)  # fmt: skip
