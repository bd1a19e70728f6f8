// +build go1.13

package pkgerrors

import (
	stderrors "errors"

	"github.com/pkg/errors"
)

func Read(path string, err error) error {
	if err != nil {
		return errors.Wrapf(err, "read %s", path)
	}
	if path == "" {
		return errors.Wrap(err, "no path")
	}
	if path == "-" {
		return stderrors.New("stdin is not supported")
	}
	return errors.Errorf("read %s: odd", path)
}
