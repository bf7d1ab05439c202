// Package chromium starts the one headless Chromium that a browser test
// process (localstack/browsertest, localstack/providertest) drives with
// chromedp, so that every suite runs the browser the same way.
package chromium

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/localstack/substitutes"
)

// ErrMissing is returned outside CI when the machine has no Chromium; the
// suite skips, saying so. In CI a missing Chromium is an ordinary error,
// so that the suite fails instead of skipping silently.
var ErrMissing = errors.New("no chromium on PATH (apt-get install chromium, or set CHROMIUM; CI fails here)")

// Start starts the system's Chromium ($CHROMIUM, else chromium or
// chromium-browser on PATH; a browser is never downloaded) headless,
// without the sandbox (test containers have none to give it), in a fresh
// user-data directory, and waits until it has opened a blank page. Tests
// open fresh browser contexts of the returned one. stop ends the browser
// and removes the directory.
func Start() (browser context.Context, stop func(), err error) {
	path, err := find()
	if err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "invite-chromium-")
	if err != nil {
		return nil, nil, err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "chromium")),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1024, 800))
	browser, cancelBrowser := chromedp.NewContext(alloc)
	stop = func() {
		cancelBrowser()
		cancelAlloc()
		_ = os.RemoveAll(dir)
	}
	if err := chromedp.Do(browser, chromedp.Navigate("about:blank")); err != nil {
		stop()
		return nil, nil, fmt.Errorf("chromium did not start: %w", err)
	}
	return browser, stop, nil
}

func find() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if substitutes.InCI() {
		return "", errors.New("the browser tests need Chromium in CI: no chromium on PATH")
	}
	return "", ErrMissing
}
