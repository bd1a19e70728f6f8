package forwarders

import (
	"errors"
	"fmt"
)

type Set struct{}

func (s *Set) failf(format string, a ...interface{}) error {
	err := fmt.Errorf(format, a...)
	return err
}

func (s *Set) Parse(name string) error {
	if name == "" {
		return s.failf("bad flag syntax: %s", name)
	}
	return s.failf("unknown flag: --%s", name)
}

func newError(msg string) error {
	return errors.New(msg)
}

func Check(n int) error {
	if n < 0 {
		return newError("negative count")
	}
	return nil
}
