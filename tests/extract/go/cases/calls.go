package calls

import (
	"errors"
	"fmt"
	"log"
)

func Open(name string, n int) error {
	if name == "" {
		return errors.New("empty name")
	}
	if n < 0 {
		return fmt.Errorf("open %q: negative size %d: %w", name, n, errBase)
	}
	if n > 10 {
		log.Fatalf("too big: %d", n)
	}
	log.Fatal("cannot open ", name, 3)
	return fmt.Errorf("%[2]d%% of %[1]s: %v", name, n, fmt.Sprint(n))
}

func Must(s string) {
	panic(`must: ` + s)
}

func Raw(err error) {
	panic(err)
}

func Wrapped(s string) {
	panic(fmt.Sprintf("bad %s", s))
}

func Nested(s string) {
	panic(errors.New("nested " + s))
}
