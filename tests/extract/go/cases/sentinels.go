package sentinels

import (
	"errors"
	"fmt"
)

var ErrNotFound = errors.New("not found")

var (
	errClosed  = errors.New("closed")
	ErrTooMany = fmt.Errorf("more than %d", 10)
)

type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

type Dynamic struct{ err error }

func (d Dynamic) Error() string { return d.err.Error() }

func Find(k string) (int, error) {
	if k == "" {
		return 0, ErrNotFound
	}
	if k == "x" {
		return 0, &ParseError{Line: 1, Msg: k}
	}
	return 0, errClosed
}
