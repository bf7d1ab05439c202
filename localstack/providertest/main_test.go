package providertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// browser is the one Chromium of the test process; each configuration gets
// fresh browser contexts of it.
var browser context.Context

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	chromium, err := findChromium()
	if err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "provider tests need Chromium in CI:", err)
			return 1
		}
		fmt.Fprintln(os.Stderr, "SKIP provider tests:", err, "(apt-get install chromium; CI fails here)")
		return 0
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "provider tests need node in CI:", err)
			return 1
		}
		fmt.Fprintln(os.Stderr, "SKIP provider tests:", err)
		return 0
	}
	dir, err := os.MkdirTemp("", "invite-providertest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "chromium")),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1024, 800))
	defer cancelAlloc()
	var cancelBrowser context.CancelFunc
	browser, cancelBrowser = chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser, chromedp.Navigate("about:blank")); err != nil {
		fmt.Fprintln(os.Stderr, "chromium did not start:", err)
		return 1
	}
	return m.Run()
}

// findChromium is $CHROMIUM, else Debian's chromium. Browsers are never
// downloaded.
func findChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium on PATH")
}
