package providertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/edu-invite/invite/localstack/browsertest/chromium"
)

// browser is the one Chromium of the test process; each configuration gets
// fresh browser contexts of it.
var browser context.Context

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "provider tests need node in CI:", err)
			return 1
		}
		fmt.Fprintln(os.Stderr, "SKIP provider tests:", err)
		return 0
	}
	b, stopBrowser, err := chromium.Start()
	if errors.Is(err, chromium.ErrMissing) {
		fmt.Fprintln(os.Stderr, "SKIP provider tests:", err)
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "provider tests:", err)
		return 1
	}
	defer stopBrowser()
	browser = b
	return m.Run()
}
