//go:build linux && !race

package guards

import "errors"

func Kind(k int, s string) error {
	switch k {
	case 1, 2:
		return errors.New("small")
	case 3:
		if s != "" {
			return errors.New("three with text")
		} else if len(s) > 3 {
			return errors.New("never")
		}
	default:
		return errors.New("unknown kind")
	}
	switch {
	case len(s) > 9:
		return errors.New("too long")
	}
	return nil
}
