// Package browsertest drives the pages in a real Chromium (Debian's
// chromium, through the DevTools protocol with chromedp) against the
// embedded local stack: the guest's whole journey from the captured e-mail,
// every state page of an invitation in English and Dutch checked with
// axe-core, and the security properties of the sign-in. It holds tests
// only; their one Chromium, which localstack/providertest uses too, is
// started by the chromium package below it. One browser serves the test
// process; each test gets a fresh browser context (its own cookies).
package browsertest
